/**
 * The Create/Edit Character form's values and their mapping to and from the
 * API (SPEC.md §2, §5, §7). The form holds plain strings (empty = not set);
 * the shared characterInputSchema turns them into the request body and says
 * SPEC.md §5's messages, the same ones the server answers with.
 */
import type { Character } from "../../../../schema/api.ts";
import { type CharacterInput, characterInputSchema } from "../../../../schema/inputs.ts";
import { type LoreEntryValues, loreEntriesOf, parseKeys, withLoreEntries } from "../../../../schema/lorebook.ts";

/** A lorebook entry as the form edits it: keys as typed (comma-separated), the rest as schema/lorebook.ts has it. */
export type LoreRow = Omit<LoreEntryValues, "keys" | "secondaryKeys"> & { keys: string; secondaryKeys: string };

/** The stored lorebook's entries as form rows. */
export function loreRowsOf(book: Record<string, unknown> | null): LoreRow[] {
  return loreEntriesOf(book).map((entry) => ({ ...entry, keys: entry.keys.join(", "), secondaryKeys: entry.secondaryKeys.join(", ") }));
}

/** Form rows as lorebook entries (keys split at commas). */
function loreEntriesOfRows(rows: readonly LoreRow[]): LoreEntryValues[] {
  return rows.map((row) => ({ ...row, keys: parseKeys(row.keys), secondaryKeys: parseKeys(row.secondaryKeys) }));
}

export interface CharacterFormValues {
  name: string;
  description: string;
  longDescription: string;
  personality: string;
  scenario: string;
  exampleConversation: string;
  /** An https URL, or the `/objects/avatars/…` path an upload registered; "" for none. */
  avatarUrl: string;
  tags: string[];
  isNsfw: boolean;
  /** Whether others may fork it (issue 40); on by default. */
  allowForks: boolean;
  /** The card's first message (`first_mes`). */
  greeting: string;
  alternateGreetings: string[];
  systemPrompt: string;
  postHistoryInstructions: string;
  creatorNotes: string;
  /** A voice id of GET /api/voices; "" for the site's default voice. */
  voice: string;
  /** "Appearance for pictures": how they look, for pictures of their chats and a drawn avatar; "" for none. */
  appearance: string;
  /** The stored lorebook (`character_book`) as it came, for the fields the form does not show; null for none. */
  characterBook: Record<string, unknown> | null;
  /** Its entries as edited. */
  lorebook: LoreRow[];
}

/** The character-card fields of the "Advanced (character card)" section. */
export const ADVANCED_FIELDS = [
  "alternateGreetings",
  "systemPrompt",
  "postHistoryInstructions",
  "creatorNotes",
  "lorebook",
] as const satisfies readonly (keyof CharacterFormValues)[];

export const EMPTY_CHARACTER_FORM: CharacterFormValues = {
  name: "",
  description: "",
  longDescription: "",
  personality: "",
  scenario: "",
  exampleConversation: "",
  avatarUrl: "",
  tags: [],
  isNsfw: false,
  allowForks: true,
  greeting: "",
  alternateGreetings: [],
  systemPrompt: "",
  postHistoryInstructions: "",
  creatorNotes: "",
  voice: "",
  appearance: "",
  characterBook: null,
  lorebook: [],
};

/** A stored character as form values: missing texts become "". */
export function characterToFormValues(character: Character): CharacterFormValues {
  return {
    name: character.name,
    description: character.description,
    longDescription: character.longDescription ?? "",
    personality: character.personality,
    scenario: character.scenario ?? "",
    exampleConversation: character.exampleConversation ?? "",
    avatarUrl: character.avatarUrl ?? "",
    tags: [...character.tags],
    isNsfw: character.isNsfw,
    allowForks: character.allowForks,
    greeting: character.greeting ?? "",
    alternateGreetings: [...character.alternateGreetings],
    systemPrompt: character.systemPrompt ?? "",
    postHistoryInstructions: character.postHistoryInstructions ?? "",
    creatorNotes: character.creatorNotes ?? "",
    voice: character.voice ?? "",
    appearance: character.appearance ?? "",
    characterBook: character.characterBook,
    lorebook: loreRowsOf(character.characterBook),
  };
}

/**
 * The body before validation: the values as they are, except that blank
 * alternate greetings (an added row left empty) are dropped and the avatar
 * URL is trimmed.
 */
export function formValuesToBody(values: CharacterFormValues): Record<string, unknown> {
  const { characterBook, lorebook, ...rest } = values;
  // An untouched lorebook is not sent: an update keeps it byte for byte.
  const edited = JSON.stringify(lorebook) !== JSON.stringify(loreRowsOf(characterBook));
  return {
    ...rest,
    avatarUrl: values.avatarUrl.trim(),
    alternateGreetings: values.alternateGreetings.filter((g) => g.trim() !== ""),
    ...(edited ? { characterBook: withLoreEntries(characterBook, loreEntriesOfRows(lorebook)) } : {}),
  };
}

/** Field messages by path: "name", "tags", "alternateGreetings.2". */
export type CharacterFormErrors = Partial<Record<string, string>>;

/**
 * Checks the values with the shared schema. Returns the request body of
 * `POST /api/characters` / `PUT /api/characters/:id` (texts trimmed where
 * the schema trims, empty optional texts as null; `characterBook` only when
 * its entries were edited, so an update keeps an untouched lorebook as it
 * was) or the first message of each refused field.
 *
 * A message about an alternate greeting is keyed by its row in the form
 * ("alternateGreetings.2"), not by its place in the body, which leaves blank
 * rows out.
 */
export function validateCharacterForm(
  values: CharacterFormValues,
): { data: CharacterInput; errors: CharacterFormErrors } | { data: null; errors: CharacterFormErrors } {
  const result = characterInputSchema.safeParse(formValuesToBody(values));
  if (result.success) return { data: result.data, errors: {} };
  const errors: CharacterFormErrors = {};
  const greetingRows = nonBlankGreetingIndexes(values.alternateGreetings);
  for (const issue of result.error.issues) {
    const [field, index] = issue.path;
    let key = String(field ?? "");
    // Point a greeting's message at its row in the form (blank rows are not sent).
    if (field === "alternateGreetings" && typeof index === "number") key = `alternateGreetings.${greetingRows[index] ?? index}`;
    errors[key] ??= issue.message;
  }
  return { data: null, errors };
}

/** Indexes of the greetings that are sent (not blank), in order. */
export function nonBlankGreetingIndexes(greetings: readonly string[]): number[] {
  return greetings.flatMap((g, i) => (g.trim() === "" ? [] : [i]));
}

/**
 * Server `issues` (`{path: "alternateGreetings.0", message}`) as form errors;
 * the first message of each path wins.
 */
export function issuesToFormErrors(
  issues: readonly { path: string; message: string }[],
  values: CharacterFormValues,
): CharacterFormErrors {
  const greetingRows = nonBlankGreetingIndexes(values.alternateGreetings);
  const errors: CharacterFormErrors = {};
  for (const { path, message } of issues) {
    const [field, index] = path.split(".");
    let key = field ?? "";
    if (field === "alternateGreetings" && index !== undefined && /^\d+$/.test(index)) {
      key = `alternateGreetings.${greetingRows[Number(index)] ?? Number(index)}`;
    }
    errors[key] ??= message;
  }
  return errors;
}

/** True when any card field of the advanced section holds something (the section then starts open). */
export function hasAdvancedContent(values: CharacterFormValues): boolean {
  return ADVANCED_FIELDS.some((field) => {
    const value = values[field];
    return Array.isArray(value) ? value.length > 0 : typeof value === "string" ? value.trim() !== "" : false;
  });
}

/** True when an error belongs to a field of the advanced section (which then opens to show it). */
export function isAdvancedError(key: string): boolean {
  const field = key.split(".")[0];
  // The lorebook's own messages (too large) are about `characterBook`, edited as `lorebook`.
  return [...ADVANCED_FIELDS, "characterBook"].includes(field ?? "");
}
