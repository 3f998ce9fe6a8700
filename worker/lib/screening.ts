/**
 * Screening of characters before they are stored (issue "Trust and safety";
 * docs/decisions/0008-trust-and-safety.md), with the provider of
 * `MODERATION_PROVIDER` (ai/moderation/).
 *
 * - S4 (sexual content involving minors): refused with 422
 *   `content_refused`, nothing stored, the attempt written to `moderation_log`.
 * - Any other category on a character not marked NSFW: stored, but
 *   `moderation_status = 'flagged'` with an automatic report for the
 *   operator (`npm run moderation -- reports`), and logged.
 * - The provider fails (down, malformed answer): refused with 503 and
 *   `Retry-After` — a character is not time-critical and its creator still
 *   has it (the form, the card file), while publishing it unscreened could
 *   publish S4 (fail closed; chat fails open, see the decision record).
 *
 * Long characters are screened in chunks of SCREEN_CHUNK_CHARS, at most
 * MAX_SCREEN_CHUNKS of them in parallel; text beyond that is not sent, and
 * the character is flagged for an operator to read ("too long to screen").
 */
import type { Character } from "../../schema/api.ts";
import { logScreening } from "../../durable-objects/room/d1-sync.ts";
import { ApiError } from "./errors.ts";
import {
  type HazardCategory,
  isChildSafetyViolation,
  ModerationError,
  type ModerationVerdict,
  type Moderator,
  moderatorFor,
} from "../../ai/moderation/index.ts";
import { fileScreeningReport } from "./reports.ts";

/** Characters of text per moderation request (Llama Guard 3 reads 8,192 tokens; ≈ 4 characters a token, leaving room). */
export const SCREEN_CHUNK_CHARS = 12_000;
/** Most moderation requests for one character. */
export const MAX_SCREEN_CHUNKS = 8;

/** The sentence a refused character gets (422). */
export const CHARACTER_REFUSED_MESSAGE =
  "This character can't be saved: Fabled does not allow sexual content involving minors, in any form.";

/** The fields of a character that are screened, as stored. */
export type ScreenedCharacter = Pick<
  Character,
  | "name"
  | "description"
  | "longDescription"
  | "personality"
  | "scenario"
  | "exampleConversation"
  | "greeting"
  | "alternateGreetings"
  | "systemPrompt"
  | "postHistoryInstructions"
  | "creatorNotes"
  | "characterBook"
  | "tags"
  | "isNsfw"
>;

/** Every text a person or a model will read of the character, one per line group. */
export function characterText(character: Partial<ScreenedCharacter>): string {
  const book = character.characterBook as { entries?: unknown } | null | undefined;
  const entries = Array.isArray(book?.entries) ? book.entries : [];
  const lore = entries.map((entry) => {
    const content = (entry as { content?: unknown } | null)?.content;
    return typeof content === "string" ? content : "";
  });
  return [
    character.name,
    character.description,
    character.longDescription,
    (character.tags ?? []).join(", "),
    character.personality,
    character.scenario,
    character.greeting,
    ...(character.alternateGreetings ?? []),
    character.exampleConversation,
    character.systemPrompt,
    character.postHistoryInstructions,
    character.creatorNotes,
    ...lore,
  ]
    .filter((part): part is string => typeof part === "string" && part.trim() !== "")
    .join("\n\n");
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
 * Screens a character as it would be stored. Returns the verdict when it may
 * be stored (flagged or not). Throws ApiError 422 `content_refused` for S4
 * (logged first) and 503 `unavailable` when the provider fails (logged).
 * `who` says whose attempt it was, for the log.
 */
export async function screenCharacter(
  env: Env,
  character: ScreenedCharacter,
  who: { userId: string; characterId: number | null },
  moderator: Moderator = moderatorFor(env),
): Promise<CharacterVerdict> {
  const text = characterText(character);
  const chunks: string[] = [];
  for (let at = 0; at < text.length && chunks.length < MAX_SCREEN_CHUNKS; at += SCREEN_CHUNK_CHARS) {
    chunks.push(text.slice(at, at + SCREEN_CHUNK_CHARS));
  }
  const truncated = text.length > SCREEN_CHUNK_CHARS * MAX_SCREEN_CHUNKS;
  const entry = {
    subjectType: "character" as const,
    subjectId: who.characterId === null ? null : String(who.characterId),
    userId: who.userId,
    characterId: who.characterId,
    conversationId: null,
    provider: moderator.name,
    content: text,
  };
  let verdicts: ModerationVerdict[];
  try {
    verdicts = await Promise.all(chunks.map((chunk) => moderator.screen({ text: chunk, role: "assistant", nsfw: character.isNsfw })));
  } catch (error) {
    if (!(error instanceof ModerationError)) throw error;
    console.error("character screening failed", error.message);
    await logScreening(env.DB, { ...entry, outcome: "error", categories: [] });
    throw new ApiError("unavailable", "We couldn't check this character just now. Please try again in a minute.", {
      retryAfter: 60,
    });
  }
  const categories = [...new Set(verdicts.flatMap((verdict) => verdict.categories))].sort();
  if (verdicts.some(isChildSafetyViolation)) {
    await logScreening(env.DB, { ...entry, outcome: "refused", categories });
    throw new ApiError("content_refused", CHARACTER_REFUSED_MESSAGE);
  }
  const unsafe = verdicts.some((verdict) => !verdict.safe);
  return { flagged: (unsafe && !character.isNsfw) || truncated, categories, provider: moderator.name, text };
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
  const categories = verdict.categories.length > 0 ? verdict.categories : ["too long to screen fully"];
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
