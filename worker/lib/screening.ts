/**
 * Screening of every write of text before it is stored (issue "Trust and
 * safety", issue 21 "Safety on every path"; docs/decisions/0008 and 0014),
 * with the provider of `MODERATION_PROVIDER` (ai/moderation/). One path:
 * `screenWrite` — characters (create, update, card import), comments,
 * personas, the profile, conversation titles and chat imports all go
 * through it; the room screens its frames itself (durable-objects/room/screening.ts).
 *
 * - What is screened: every string of the write but the fields NOT_TEXT
 *   names (schema/screened-text.ts), the whole text in overlapping windows
 *   (ai/moderation/whole-text.ts): no tail is left unscreened.
 * - S4 (sexual content involving minors): refused with 422
 *   `content_refused`, nothing stored, the attempt written to `moderation_log`.
 * - Any other category on a character not marked NSFW: stored, but
 *   `moderation_status = 'flagged'` with an automatic report for the
 *   operator (`npm run moderation -- reports`), and logged. On the other
 *   writes other categories are allowed (adult roleplay), as in chat.
 * - The provider fails (down, malformed answer): refused with 503 and
 *   `Retry-After` — the writer still has the text (the form, the file),
 *   while storing it unscreened could publish S4 (fail closed; chat frames
 *   fail open, see decision 0008).
 */
import type { Character } from "../../schema/api.ts";
import { characterUpdateSchema } from "../../schema/inputs.ts";
import { NOT_TEXT, screenedText } from "../../schema/screened-text.ts";
import { logScreening, type ScreeningEntry } from "../../durable-objects/room/d1-sync.ts";
import { ApiError } from "./errors.ts";
import {
  type HazardCategory,
  isChildSafetyViolation,
  ModerationError,
  type ModerationVerdict,
  type Moderator,
  moderatorFor,
} from "../../ai/moderation/index.ts";
import { screenWholeText } from "../../ai/moderation/whole-text.ts";
import { fileScreeningReport } from "./reports.ts";

/** The sentence a refused character gets (422). */
export const CHARACTER_REFUSED_MESSAGE =
  "This character can't be saved: Fabled does not allow sexual content involving minors, in any form.";

/** The sentence any other refused write gets (422 `content_refused`). */
export const CONTENT_REFUSED_MESSAGE =
  "This can't be saved: Fabled does not allow sexual content involving minors, in any form.";

/** The sentence of a 503 when the provider failed. */
export const SCREENING_UNAVAILABLE_MESSAGE = "We couldn't check this just now. Please try again in a minute.";

/**
 * A character as screening reads it: any of the fields a person writes
 * (characterUpdateSchema), its card `extensions`, and the NSFW flag it is
 * judged with. A stored `Character` is one.
 */
export type ScreenedCharacter = { isNsfw: boolean; extensions?: Record<string, unknown> } & Partial<
  Omit<Character, "isNsfw" | "extensions">
>;

/** The top-level keys of a character that hold text: every field of the update schema and `extensions`, less NOT_TEXT. */
const CHARACTER_TEXT_KEYS = [...Object.keys(characterUpdateSchema.shape), "extensions"].filter(
  (key) => !(NOT_TEXT.character as readonly string[]).includes(key),
);

/**
 * Every text a person or a model will read of the character: each field of
 * the update schema (derived from `characterUpdateSchema.shape`, so a new
 * field is screened without a change here) but NOT_TEXT's, the lorebook
 * whole (entries' keys, comments and content, its name and description,
 * extensions), alternate greetings, tags, the shown creator name, and the
 * card's `extensions` (e.g. `depth_prompt`, and the preserved card fields
 * that export gives back).
 */
export function characterText(character: ScreenedCharacter | Record<string, unknown>): string {
  const picked: Record<string, unknown> = {};
  for (const key of CHARACTER_TEXT_KEYS) picked[key] = (character as Record<string, unknown>)[key];
  return screenedText(picked);
}

/** Who wrote a screened text, for the log. */
export interface ScreenedBy {
  userId: string;
  characterId?: number | null;
  conversationId?: string | null;
  /** The stored thing's id, when it exists already. */
  subjectId?: string | null;
}

/** What one write asks of screening. */
export interface ScreenRequest {
  subjectType: ScreeningEntry["subjectType"];
  text: string;
  /** The NSFW flag of the character the text belongs to (a comment's, a chat's); false for text of the person alone. */
  nsfw: boolean;
  who: ScreenedBy;
  /** The sentence of the 422 (default CONTENT_REFUSED_MESSAGE). */
  refusedMessage?: string;
  /** The turn Llama Guard judges (ModerationInput.role); "user" unless said. Characters keep "assistant", as before issue 21. */
  role?: "user" | "assistant";
}

/**
 * Screens a write of text as it would be stored — the whole text, in
 * windows — and returns the verdict when it may be stored. Throws ApiError
 * 422 `content_refused` for S4 (logged first) and 503 `unavailable` with
 * Retry-After 60 when the provider fails (logged). Blank text is safe
 * without a call.
 */
export async function screenWrite(env: Env, request: ScreenRequest, moderator: Moderator = moderatorFor(env)): Promise<ModerationVerdict> {
  const { text, who } = request;
  if (text.trim() === "") return { safe: true, categories: [], provider: moderator.name };
  const entry = {
    subjectType: request.subjectType,
    subjectId: who.subjectId ?? null,
    userId: who.userId,
    characterId: who.characterId ?? null,
    conversationId: who.conversationId ?? null,
    provider: moderator.name,
    content: text,
  };
  let verdict: ModerationVerdict;
  try {
    verdict = await screenWholeText(moderator, { text, role: request.role ?? "user", nsfw: request.nsfw });
  } catch (error) {
    if (!(error instanceof ModerationError)) throw error;
    console.error("screening failed", request.subjectType, error.message);
    await logScreening(env.DB, { ...entry, outcome: "error", categories: [] });
    throw new ApiError("unavailable", SCREENING_UNAVAILABLE_MESSAGE, { retryAfter: 60 });
  }
  if (isChildSafetyViolation(verdict)) {
    await logScreening(env.DB, { ...entry, outcome: "refused", categories: verdict.categories });
    throw new ApiError("content_refused", request.refusedMessage ?? CONTENT_REFUSED_MESSAGE);
  }
  return verdict;
}

/** What screening decided for a character that may be stored. */
export interface CharacterVerdict {
  /** True: store it flagged for review. */
  flagged: boolean;
  categories: HazardCategory[];
  provider: string;
  /** The screened text (for the log). */
  text: string;
}

/**
 * Screens a character as it would be stored (screenWrite with
 * characterText). Returns the verdict when it may be stored (flagged or
 * not). Throws ApiError 422 `content_refused` for S4 (logged first) and 503
 * `unavailable` when the provider fails (logged). `who` says whose attempt
 * it was, for the log.
 */
export async function screenCharacter(
  env: Env,
  character: ScreenedCharacter,
  who: { userId: string; characterId: number | null },
  moderator: Moderator = moderatorFor(env),
): Promise<CharacterVerdict> {
  const text = characterText(character);
  const verdict = await screenWrite(
    env,
    {
      subjectType: "character",
      text,
      nsfw: character.isNsfw,
      who: { ...who, subjectId: who.characterId === null ? null : String(who.characterId) },
      refusedMessage: CHARACTER_REFUSED_MESSAGE,
      role: "assistant",
    },
    moderator,
  );
  return { flagged: !verdict.safe && !character.isNsfw, categories: verdict.categories, provider: moderator.name, text };
}

/** Whether an update changes anything screening reads (the text, or the NSFW flag it is judged with). */
export function changesScreenedText(before: ScreenedCharacter, after: ScreenedCharacter): boolean {
  return before.isNsfw !== after.isNsfw || characterText(before) !== characterText(after);
}

/**
 * After a flagged character is stored: `moderation_status = 'flagged'`
 * (unless an operator already removed it), an automatic report, a log entry.
 */
export async function flagCharacter(
  db: D1Database,
  character: { id: number; creatorId: string | null; name: string; description: string },
  verdict: CharacterVerdict,
): Promise<void> {
  const categories = verdict.categories.length > 0 ? verdict.categories : ["unsafe, no category named"];
  await db
    .prepare("UPDATE characters SET moderation_status = 'flagged' WHERE id = ? AND moderation_status = 'ok'")
    .bind(character.id)
    .run();
  await fileScreeningReport(db, character, categories);
  await logScreening(db, {
    subjectType: "character",
    subjectId: String(character.id),
    userId: character.creatorId,
    characterId: character.id,
    conversationId: null,
    outcome: "flagged",
    categories: verdict.categories,
    provider: verdict.provider,
    content: verdict.text,
  });
}
