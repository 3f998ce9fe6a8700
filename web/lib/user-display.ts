/**
 * How a signed-in person is shown in the header (SPEC.md §2 "User menu").
 */
import type { CurrentUser } from "../../schema/api.ts";

type Person = Pick<CurrentUser, "firstName" | "email">;

/**
 * The avatar letter when there is no profile image: the first letter of the
 * first name, else of the e-mail, else "U"; upper case.
 */
export function userAvatarLetter(user: Person): string {
  const source = user.firstName?.trim() || user.email?.trim() || "U";
  return [...source][0]!.toLocaleUpperCase();
}

/**
 * The name beside the avatar: the display name the person chose on Edit
 * Profile (issue 26: a change shows at once), else the first name (SPEC.md
 * §2), else the e-mail.
 */
export function userMenuName(user: Person & Partial<Pick<CurrentUser, "name">>): string {
  return user.name?.trim() || user.firstName?.trim() || user.email?.trim() || "";
}

/**
 * What `{{user}}` is in chats without a persona (the Worker's rule,
 * worker/lib/conversations.ts `roomPerson`): the first name, else the name,
 * else the username without its "@".
 */
export function userPlayName(user: Pick<CurrentUser, "firstName" | "name" | "username">): string {
  return user.firstName?.trim() || user.name?.trim() || user.username.replace(/^@/, "");
}
