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
import { moderatorFor } from "../../ai/moderation/choose.ts";
import { type HazardCategory, isChildSafetyViolation, ModerationError, type ModerationVerdict, type Moderator } from "../../ai/moderation/moderator.ts";
import { screenWholeText } from "../../ai/moderation/whole-text.ts";
import { ageEvidence, preScreen } from "../../ai/moderation/pre-screen.ts";
import { fileScreeningReport } from "./reports.ts";

/** The sentence a refused character gets (422). */
export const CHARACTER_REFUSED_MESSAGE =
  "This character can't be saved: Fabled does not allow sexual content involving minors, in any form.";

/**
 * What a refused writer is told to do, after the reason (issue 35): change
 * the text, or ask for a review when the refusal is wrong.
 */
export const REFUSAL_ADVICE =
  "Every character in sexual content must be an adult: state an adult age, or remove the sexual content. If we got this wrong, ask for a review.";

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

/**
 * The text each write screens, by the route that stores it. Every function
 * takes the write as validated (the zod output) and keeps every string but
 * NOT_TEXT's fields (worker/test/screening-coverage.test.ts walks the
 * schemas against these).
 */
export const TEXT_OF = {
  /** `POST`/`PUT /api/characters`, `POST /api/characters/import` (with the card's `extensions`). */
  character: characterText,
  /** `POST /api/characters/:id/comments` (public). */
  comment: (input: unknown) => screenedText(input, NOT_TEXT.comment),
  /** `POST`/`PUT /api/personas` (in every prompt of the person's chats). */
  persona: (input: unknown) => screenedText(input, NOT_TEXT.persona),
  /** `PUT /api/profile` (public: the person's page, their comments). */
  profile: (input: unknown) => screenedText(input, NOT_TEXT.profile),
  /** `POST /api/conversations` (its title). */
  conversation: (input: unknown) => screenedText(input, NOT_TEXT.conversation),
  /** `POST`/`PUT /api/lorebooks`, `POST /api/lorebooks/import`: name, description, and each entry's keys, comment, content and kept fields. */
  lorebook: (input: unknown) => screenedText(input, NOT_TEXT.lorebook),
  /** `POST /api/conversations/import`: every message and swipe of the file. */
  chatImport: (messages: readonly { content: string; alternatives: readonly string[] }[]) =>
    screenedText(messages.map((message) => [message.content, ...message.alternatives])),
};

/**
 * Longest text one write may have screened, characters: 200 windows
 * (ai/moderation/whole-text.ts), about ten seconds of Llama Guard at six
 * requests at a time, well inside a Worker's subrequest limit. A maximal
 * character of the form is about 1.8 million; longer writes (a card's huge
 * `extensions`, a long chat file) are refused with 413 — what cannot be
 * screened is not stored.
 */
export const MAX_SCREENED_CHARS = 2_000_000;

/** Whether the character is marked NSFW (the context its comments and chats are judged in); false when it is gone. */
export async function characterIsNsfw(db: D1Database, characterId: number): Promise<boolean> {
  const row = await db.prepare("SELECT is_nsfw AS isNsfw FROM characters WHERE id = ?").bind(characterId).first<{ isNsfw: number }>();
  return row?.isNsfw === 1;
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
  /**
   * The write's text field by field (`path` as the JSON error shape's
   * `issues[].path` names it, e.g. "description", "characterBook.entries.2.content",
   * "messages.14"): on a refusal, the 422 names the field and why
   * (refusalIssues). Default: the whole text, path "".
   */
  fields?: readonly ScreenedField[];
  /** How a field is called in the sentence (default: its path). */
  label?: (path: string) => string;
}

/** One field of a write's text, for the refusal's `issues`. */
export interface ScreenedField {
  path: string;
  text: string;
}

/**
 * The leaf strings of a value with their JSON paths ("characterBook.entries.2.keys.0"),
 * in the order screenedText reads them; `prefix` goes before each path.
 */
export function fieldsOf(value: unknown, prefix = ""): ScreenedField[] {
  const out: ScreenedField[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === "string") {
      if (node.trim() !== "") out.push({ path, text: node });
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, path ? `${path}.${index}` : String(index)));
    } else if (node && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) walk(item, path ? `${path}.${key}` : key);
    }
  };
  walk(value, prefix);
  return out;
}

/** A quoted excerpt of what matched, at most 60 characters. */
const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 57)}…` : text}"`;

/**
 * Why a write was refused, field by field, for the 422's `issues` (issue 35:
 * "tell the person which field was refused and why"). Cheap and local: the
 * pre-screen's rules read each field (ai/moderation/pre-screen.ts). A field
 * refused on its own is named with what it says; otherwise the field that
 * states the age under 18 (the sexual content being elsewhere, or the
 * character NSFW); otherwise — the moderation model refused what no rule
 * reads — one issue on the whole write (path "").
 */
export function refusalIssues(fields: readonly ScreenedField[], nsfw: boolean, label: (path: string) => string = (path) => path || "This text", now: number = Date.now()): { path: string; message: string }[] {
  const year = new Date(now).getUTCFullYear();
  const alone = fields
    .map((field) => ({ field, result: preScreen(field.text, nsfw, now) }))
    .filter(({ result }) => result.refused && result.marker);
  if (alone.length > 0) {
    return alone.slice(0, 5).map(({ field, result }) => ({
      path: field.path,
      message: `${label(field.path)} says ${quoted(result.marker!.match)}, which places someone under 18, beside sexual content${nsfw ? " (or on an NSFW character)" : ""}. ${REFUSAL_ADVICE}`,
    }));
  }
  const aged = fields.map((field) => ({ field, marker: ageEvidence(field.text, year).marker })).filter(({ marker }) => marker !== null);
  if (aged.length > 0) {
    return aged.slice(0, 5).map(({ field, marker }) => ({
      path: field.path,
      message: `${label(field.path)} says ${quoted(marker!.match)}, which places someone under 18, and ${nsfw ? "the character is marked NSFW" : "another part has sexual content"}. ${REFUSAL_ADVICE}`,
    }));
  }
  return [{ path: "", message: `Our moderation model found sexual content involving a minor in this text. ${REFUSAL_ADVICE}` }];
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
  if (text.length > MAX_SCREENED_CHARS) {
    throw new ApiError("payload_too_large", "This is too long for us to check. Please shorten it and try again.");
  }
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
    const issues = refusalIssues(request.fields ?? [{ path: "", text }], request.nsfw, request.label ?? ((path) => path || "This text"));
    throw new ApiError("content_refused", request.refusedMessage ?? CONTENT_REFUSED_MESSAGE, { issues });
  }
  return verdict;
}

/** What screening decided for a character that may be stored. */
export interface CharacterVerdict {
  /** True: store it flagged for review. */
  flagged: boolean;
  /**
   * True: flagged and held back from the public until an operator reviews
   * it (stored inactive; activating it is refused while the hold report is
   * open): the pre-screen doubted and the model said S4 (ModerationVerdict
   * `review`, docs/decisions/0028).
   */
  held: boolean;
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
      fields: characterFields(character),
      label: characterFieldLabel,
    },
    moderator,
  );
  // A doubt the model shared (verdict.review) is flagged for a person to review, never refused (docs/decisions/0028).
  const held = verdict.review === true;
  return { flagged: (!verdict.safe && !character.isNsfw) || held, held, categories: verdict.categories, provider: moderator.name, text };
}

/** A character's text field by field (characterText's fields, with their paths). */
export function characterFields(character: ScreenedCharacter | Record<string, unknown>): ScreenedField[] {
  const picked: Record<string, unknown> = {};
  for (const key of CHARACTER_TEXT_KEYS) picked[key] = (character as Record<string, unknown>)[key];
  return fieldsOf(picked);
}

/** How the form and the card call a character's field ("description" → "The description", "characterBook.entries.2.content" → "Lorebook entry 3"). */
export function characterFieldLabel(path: string): string {
  const [field, ...rest] = path.split(".");
  const entry = /^entries\.(\d+)/.exec(rest.join("."));
  if (field === "characterBook") return entry ? `Lorebook entry ${Number(entry[1]) + 1}` : "The lorebook";
  if (field === "alternateGreetings") return rest[0] !== undefined ? `Alternate greeting ${Number(rest[0]) + 1}` : "An alternate greeting";
  if (field === "extensions") return `The card's extension field ${rest.join(".") || ""}`.trim();
  const names: Record<string, string> = {
    name: "The name", description: "The description", personality: "The personality", scenario: "The scenario", greeting: "The greeting",
    exampleConversation: "The example dialogue", systemPrompt: "The system prompt", postHistoryInstructions: "The post-history instructions",
    creatorNotes: "The creator's notes", tags: "A tag", creator: "The creator name", appearance: "The appearance for pictures",
  };
  return names[field ?? ""] ?? `The field ${path}`;
}

/** How a chat file's message is called in a refusal ("messages.14" → "Message 15 of the file", a swipe "Swipe 2 of message 15 of the file"). */
export function chatImportFieldLabel(path: string): string {
  const [, message, , swipe] = path.split(".");
  const n = Number(message) + 1;
  return swipe !== undefined ? `Swipe ${Number(swipe) + 1} of message ${n} of the file` : `Message ${n} of the file`;
}

/** Whether character `id` is held back for review: an open automatic report says so (flagCharacter). */
export async function isHeldForReview(db: D1Database, id: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS held FROM reports WHERE reporter_id IS NULL AND target_type = 'character' AND target_id = ? AND status = 'open' AND details = ?")
    .bind(String(id), HELD_REPORT_DETAILS)
    .first<{ held: number }>();
  return row !== null;
}

/** Whether an update changes anything screening reads (the text, or the NSFW flag it is judged with). */
export function changesScreenedText(before: ScreenedCharacter, after: ScreenedCharacter): boolean {
  return before.isNsfw !== after.isNsfw || characterText(before) !== characterText(after);
}

/** The details of the automatic report that holds a character back from the public (HELD_REPORT_DETAILS; isHeldForReview). */
export const HELD_REPORT_DETAILS = "Automatic screening: held for review (the rules saw a doubt about age, the model said S4)";

/** The sentence of the 403 when a held character is activated. */
export const HELD_MESSAGE = "This character is waiting for a moderator's review and can be listed once it is cleared.";

/**
 * After a flagged character is stored: `moderation_status = 'flagged'`
 * (unless an operator already removed it), an automatic report, a log entry.
 * A held one (`verdict.held`) is also made inactive, and its report says it
 * is held: activating it is refused until an operator closes that report
 * (isHeldForReview).
 */
export async function flagCharacter(
  db: D1Database,
  character: { id: number; creatorId: string | null; name: string; description: string },
  verdict: CharacterVerdict,
): Promise<void> {
  const categories = verdict.categories.length > 0 ? verdict.categories : ["unsafe, no category named"];
  await db
    .prepare(
      verdict.held
        ? "UPDATE characters SET moderation_status = 'flagged', is_active = 0 WHERE id = ? AND moderation_status != 'removed'"
        : "UPDATE characters SET moderation_status = 'flagged' WHERE id = ? AND moderation_status = 'ok'",
    )
    .bind(character.id)
    .run();
  await fileScreeningReport(db, character, categories, verdict.held ? HELD_REPORT_DETAILS : undefined);
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
