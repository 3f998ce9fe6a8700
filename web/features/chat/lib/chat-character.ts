import type { ConversationCharacter } from "../../../../schema/chat.ts";

/**
 * The character as the chat page shows it (header, bubbles, typing
 * indicator): the one `GET /api/conversations/:id` embeds, so it is known
 * even when the character has been deactivated.
 */
export type ChatCharacter = ConversationCharacter;

/** The avatar letter without a picture: the name's first letter or digit, upper case; "?" without one. */
export function characterInitial(name: string): string {
  const letter = name.trim().match(/[\p{L}\p{N}]/u)?.[0];
  return letter ? letter.toLocaleUpperCase() : "?";
}
