/**
 * Prompt assembly for a character's next reply (DESIGN.md "Chat models"), in
 * the order the leading roleplay front ends use (SillyTavern's "story
 * string"):
 *
 *   system prompt → lorebook (before) → description → personality →
 *   scenario → lorebook (after) → the person's persona → example dialogue → memory note → pinned
 *   memories → recalled memories → story so far (the running summary) →
 *   chat history → post-history instructions (→ the continue nudge)
 *
 * as an OpenAI-style messages array: one system message with the card, the
 * persona, the memory note, the pinned and recalled memories and the
 * summary (DESIGN.md "Memory"); the history as user/assistant
 * messages; the post-history instructions as a final system message; and,
 * to continue the last reply, SillyTavern's continue nudge after it
 * (docs/decisions/0007-steering-a-chat.md).
 *
 * - Budget: the prompt must fit in `contextTokens − maxTokens` tokens. Tokens
 *   are estimated as ceil(characters / 4) plus 4 per message for the role
 *   markers — a deliberately model-independent estimate (no tokenizer runs in
 *   the Durable Object); English text averages about 4 characters a token.
 *   The chat history is taken newest first until the budget is spent, so the
 *   oldest messages are dropped first. The system message and the latest
 *   message are never dropped: when they alone exceed the budget, the example
 *   dialogue goes first, then lorebook entries, and what remains is sent
 *   anyway.
 * - Macros: `{{char}}` and `{{user}}` in any case, and the older `<BOT>` and
 *   `<USER>`, become the character's and the person's names.
 * - Lorebooks (World Info; DESIGN.md turn 4 "Lorebooks"): the entries the
 *   room's activation fired (`lore`; schema/lorebook/activation.ts follows
 *   SillyTavern), else the cards' own books activated here (cardLore). As
 *   SillyTavern's story string places them: `before_char` right after the
 *   system prompt, `after_char` right after the scenario, `at_depth` as a
 *   message of its role `depth` messages before the end of the history.
 *   When the budget is short they go highest `order` first.
 * - Creator notes are for people and never enter the prompt.
 * - Group chats (DESIGN.md "Group chats"; SillyTavern's "swap" mode): the
 *   speaker's own card as above, then the cast block (each other member's
 *   name and a short description, after the persona), every history line
 *   prefixed with its speaker's or author's `Name: `, and last "Write the
 *   next reply only as {{char}}." Stop sequences (`stop`) name the other
 *   members and the person, so a reply never speaks for them. Every member's
 *   lorebook entries trigger on the shared history. When the budget is short,
 *   the cast's descriptions go after the examples and lorebook entries; the
 *   speaker's card and the latest message always stay.
 * - Shared rooms (DESIGN.md "Shared rooms"): `{{user}}` and the persona
 *   block are the author of the message being answered; the other people
 *   (`people`) are named after the persona ("Also playing with {{user}}:",
 *   each name and short description), every history line carries its
 *   author's or speaker's `Name: `, the prompt ends with "Write the next
 *   reply only as {{char}}", and stop sequences name every other person.
 * - Author's note (SillyTavern's): a system message inserted `depth`
 *   messages before the end of the history (0: after the last one); the
 *   caller decides whether it applies to this reply (its interval).
 * - Recalled memories (DESIGN.md "Memory"; room/memory.ts ranks them): when
 *   the history does not all fit or a summary stands for older messages, a
 *   share of the budget (`recall.maxTokens`, at most a fifth of it) is kept
 *   from the history for messages recalled from before the oldest one
 *   sent; what the history leaves over is theirs too. Pinned memories are always sent, like the memory note.
 * - Sections (the prompt inspector): the estimated tokens of each part of
 *   the prompt by kind (schema/chat.ts PROMPT_SECTION_KINDS), in prompt
 *   order; the system message's role markers count as `system`.
 */
import type { Character } from "../schema/api.ts";
import type { PromptSectionKind } from "../schema/chat.ts";
import { replaceMacros } from "../schema/macros.ts";
import type { PromptMessage } from "../ai/chat-model.ts";
import { type ActivatedEntry, activate, type ScannedMessage } from "../schema/lorebook/activation.ts";
import { contentOfCharacterBook, engineBook } from "../schema/lorebook/book.ts";

/**
 * The card fields a prompt is built from (creator notes deliberately absent).
 * `description` is the short blurb; `longDescription` (the card's full
 * description) is used instead when present.
 */
export type PromptCharacter = Pick<
  Character,
  "name" | "description" | "personality" | "scenario" | "exampleConversation" | "systemPrompt" | "postHistoryInstructions"
> &
  Partial<Pick<Character, "longDescription" | "characterBook">>;

/** One message of the conversation, oldest first. */
export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
  /** The stored message's id (recall starts before the oldest one sent); absent for a text that is no stored message. */
  id?: string;
  /** Who wrote it (a member's or the person's name): group chats prefix each line with `Name: `. */
  name?: string;
}

/** Another member of a group chat as the speaker's prompt names it. */
export interface CastEntry {
  name: string;
  /** Its short description ("" for none). */
  description: string;
  /** Its card's lorebook: its entries trigger on the shared history too. */
  characterBook?: Record<string, unknown> | null;
  /** The member's id (group chats: the room reads its lorebooks by it). */
  characterId?: number;
}

/** Longest description of another member in the cast block, characters. */
export const CAST_DESCRIPTION_CHARS = 300;

export interface PromptOptions {
  /** The person's name for `{{user}}`: their persona's, else their first name. */
  userName: string;
  /** Context window of the model, tokens (`AI_CONTEXT_TOKENS`). */
  contextTokens: number;
  /** Room kept for the reply, tokens (`AI_MAX_TOKENS`). */
  maxTokens: number;
  /** The persona's description, right after the scenario (SillyTavern's `{{persona}}`); "" or absent for none. */
  personaDescription?: string;
  /** The conversation's memory note, always in the prompt. */
  memory?: string;
  /** The running summary of the messages before `history`. */
  summary?: string;
  /** The last message of `history` is a reply to continue: the continue nudge goes last. */
  continueLast?: boolean;
  /** A group chat: the other members (may be empty when the others cannot speak). Absent: a one-to-one chat. */
  cast?: CastEntry[];
  /**
   * A room of several people: everyone but `userName` (the author of the
   * message being answered), each with their persona's name and description.
   * Absent: one person plays.
   */
  people?: CastEntry[];
  /** The author's note for this reply (text, depth in messages from the end); absent or "" for none. */
  authorNote?: { text: string; depth: number };
  /** Pinned memories (DESIGN.md "Memory"), oldest first: always sent, after the memory note. */
  pinned?: string[];
  /** Where recalled memories come from; absent: none. */
  recall?: RecallSource;
  /**
   * The lorebook entries that fired for this reply (the room's activation:
   * every attached book, timers, seeded rolls), lowest `order` first.
   * Absent: the cards' own books activated here (cardLore).
   */
  lore?: ActivatedEntry[];
  /**
   * A check-in (room/check-ins.ts): the person has been away this long, ms;
   * the check-in nudge goes last and the character writes first. Absent: a reply.
   */
  checkInAfterMs?: number;
}

/** A message recalled from before the history window, as the prompt shows it. */
export interface RecalledLine {
  id: string;
  content: string;
  /** Who said it. */
  name?: string;
}

/** The room's recall (room/memory.ts), asked once the history window is known. */
export interface RecallSource {
  /** Most tokens recalled memories take (a fifth of the budget at most). */
  maxTokens: number;
  /**
   * The best messages from before `beforeId` (the oldest history message
   * sent; null: before every message of the history) whose lines fit in
   * `budgetTokens` (each line's cost is `recalledLineTokens`), oldest first.
   */
  pick(beforeId: string | null, budgetTokens: number): RecalledLine[];
}

/** A prompt section's kind (schema/chat.ts PROMPT_SECTION_KINDS) and its estimated size. */
export interface PromptSection {
  kind: PromptSectionKind;
  tokens: number;
}

export interface BuiltPrompt {
  messages: PromptMessage[];
  /** Estimated size of `messages`, tokens. */
  estimatedTokens: number;
  /** How many history messages made it in (the newest ones). */
  historyIncluded: number;
  /** Lorebook entries inserted (those the budget left), lowest `order` first. */
  lorebook: ActivatedEntry[];
  /** Whether the example dialogue made it in. */
  examplesIncluded: boolean;
  /** Whether the cast block and the people block kept their descriptions (group chats, shared rooms; true otherwise). */
  castDescriptionsIncluded: boolean;
  /** Stop sequences (group chats, shared rooms: a new line starting with another member's or a person's name); [] for none. */
  stop: string[];
  /** Each part's estimated tokens, in prompt order; kinds without text left out. */
  sections: PromptSection[];
  /** Ids of the recalled messages sent, oldest first. */
  recalled: string[];
}

/** The heading of the pinned memories in the system message. */
export const PINNED_HEADING = "Things to always remember:";
/** The heading of the recalled memories in the system message. */
export const RECALLED_HEADING = "Earlier in the story:";

/** The line of one recalled memory ("- Name: text"). */
export function recalledLine(line: RecalledLine): string {
  return `- ${line.name ? `${line.name}: ` : ""}${normalise(line.content).replace(/\s*\n+\s*/g, " ")}`;
}

/** Tokens one recalled memory costs in the prompt. */
export function recalledLineTokens(line: RecalledLine): number {
  return estimateTokens(recalledLine(line)) + 1;
}

/** The last instruction of a group chat's prompt. */
export const GROUP_NUDGE = "Write the next reply only as {{char}}.";

/** The last instruction when the character continues its last reply (SillyTavern's default continue nudge). */
export const CONTINUE_NUDGE = "[Continue your last message without repeating its original content.]";

/**
 * The nudge of a check-in (DESIGN.md turn 4 "Notifications"): the character
 * writes first after `awayMs` of quiet, in character, from what the chat
 * holds (its memory, summary and recalled messages are in the prompt as for
 * any reply). `{{user}}`/`{{char}}` are replaced like the card's fields.
 */
export function checkInNudge(awayMs: number): string {
  const hours = Math.round(awayMs / 3_600_000);
  const away = hours >= 48 ? `${Math.round(hours / 24)} days` : hours >= 2 ? `${hours} hours` : "a while";
  return `[{{user}} has not written for ${away}. Write one short message as {{char}}, reaching out to {{user}} first: check in on them in character, picking up from what you last shared. Do not write {{user}}'s part.]`;
}

/** The system prompt when the card has none; a card's own may embed it as `{{original}}`. */
export const DEFAULT_SYSTEM_PROMPT =
  "Write {{char}}'s next reply in a fictional roleplay chat between {{char}} and {{user}}. " +
  "Stay in character and write in {{char}}'s voice; describe actions between asterisks. " +
  "Never write {{user}}'s words or actions.";

/** Tokens of a text: ceil(characters / 4). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Role markers and separators around each message, tokens. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

const messageTokens = (content: string) => estimateTokens(content) + MESSAGE_OVERHEAD_TOKENS;

/**
 * The lorebook entries of a prompt built without the room (no timers, no
 * chat books: the summary's fitting, tests): the speaker's card
 * `character_book` and each other member's, activated by the engine
 * (schema/lorebook/activation.ts) on `history` with a fixed seed.
 */
export function cardLore(character: PromptCharacter, history: HistoryMessage[], cast: CastEntry[] | undefined, userName: string): ActivatedEntry[] {
  const books = [character.characterBook, ...(cast ?? []).map((member) => member.characterBook)]
    .map((book, index) => (book ? engineBook({ id: `card${index}`, ...contentOfCharacterBook(book) }) : null))
    .filter((book): book is NonNullable<typeof book> => book !== null);
  if (books.length === 0) return [];
  return activate(books, {
    messages: scannedMessages(history, character.name, userName),
    countTokens: estimateTokens,
    seed: "",
    substitute: (text) => replaceMacros(text, character.name, userName),
  }).entries;
}

/** `history` (oldest first) as the engine scans it: newest first, each with its speaker's name. */
export function scannedMessages(history: readonly HistoryMessage[], characterName: string, userName: string): ScannedMessage[] {
  return history
    .map((m) => ({ text: m.content, name: m.name ?? (m.role === "user" ? userName : characterName), isUser: m.role === "user" }))
    .reverse();
}

const normalise = (text: string | null | undefined) => (text ?? "").replace(/\r\n?/g, "\n").trim();

/** Example dialogue without its `<START>` separators (blocks stay apart by a blank line). */
function exampleDialogue(text: string | null): string {
  return normalise(text)
    .split(/^\s*<START>\s*$/im)
    .map((block) => block.trim())
    .filter(Boolean)
    .join("\n\n");
}

/**
 * Builds the prompt for the character's next reply to `history` (oldest
 * first; the last message is the one being answered).
 */
export function buildPrompt(character: PromptCharacter, history: HistoryMessage[], options: PromptOptions): BuiltPrompt {
  const char = character.name;
  const user = options.userName;
  const macros = (text: string) => replaceMacros(text, char, user);
  const budget = Math.max(0, options.contextTokens - options.maxTokens);

  const ownSystem = normalise(character.systemPrompt);
  const system = ownSystem ? ownSystem.replace(/\{\{original\}\}/gi, () => DEFAULT_SYSTEM_PROMPT) : DEFAULT_SYSTEM_PROMPT;
  const description = normalise(character.longDescription) || normalise(character.description);
  let personality = normalise(character.personality);
  // Imported cards often have no personality of their own and carry a copy of the description.
  if (personality === description) personality = "";
  const scenario = normalise(character.scenario);
  const examples = exampleDialogue(character.exampleConversation);
  const persona = normalise(options.personaDescription);
  const memory = normalise(options.memory);
  const summary = normalise(options.summary);

  const group = options.cast;
  const people = options.people;
  // Several speakers or several people: every line is named.
  const named = group !== undefined || people !== undefined;
  // Every member's lorebook triggers on the shared history (the room passes what fired; cardLore otherwise).
  let lore = options.lore ?? cardLore(character, history, group, user);
  const castBlock = (withDescriptions: boolean) =>
    group && group.length > 0
      ? `{{char}} is in a group chat with {{user}} and:\n${group
          .map((member) => {
            const about = withDescriptions ? normalise(member.description).replace(/\s+/g, " ").slice(0, CAST_DESCRIPTION_CHARS) : "";
            return `- ${member.name}${about ? `: ${about}` : ""}`;
          })
          .join("\n")}`
      : "";

  const peopleBlock = (withDescriptions: boolean) =>
    people && people.length > 0
      ? `Also playing with {{user}}:\n${people
          .map((person) => {
            const about = withDescriptions ? normalise(person.description).replace(/\s+/g, " ").slice(0, CAST_DESCRIPTION_CHARS) : "";
            return `- ${person.name}${about ? `: ${about}` : ""}`;
          })
          .join("\n")}`
      : "";

  const pinned = (options.pinned ?? []).map(normalise).filter(Boolean);
  let recalled: RecalledLine[] = [];
  // Each part of the system message with its kind, in prompt order (empty parts left out).
  // SillyTavern's story string: wiBefore before the description, wiAfter after the scenario; at-depth entries go into the history.
  const loreAt = (entries: ActivatedEntry[], position: ActivatedEntry["position"]) =>
    entries
      .filter((e) => e.position === position)
      .map((e) => normalise(e.content))
      .filter(Boolean)
      .join("\n");
  const systemParts = (withLore: ActivatedEntry[], withExamples: boolean, withCastDescriptions = true): [PromptSectionKind, string][] =>
    (
      [
        ["system", system],
        ["lorebook", loreAt(withLore, "before_char")],
        ["character", description && `{{char}}'s description:\n${description}`],
        ["character", personality && `{{char}}'s personality: ${personality}`],
        ["character", scenario && `Scenario: ${scenario}`],
        ["lorebook", loreAt(withLore, "after_char")],
        ["persona", persona && `{{user}}'s persona: ${persona}`],
        ["persona", peopleBlock(withCastDescriptions)],
        ["character", castBlock(withCastDescriptions)],
        ["examples", withExamples && examples ? `Examples of how {{char}} speaks:\n${examples}` : ""],
        ["memory_note", memory && `Remember:\n${memory}`],
        ["pinned", pinned.length > 0 ? `${PINNED_HEADING}\n${pinned.map((text) => `- ${text}`).join("\n")}` : ""],
        ["recalled", recalled.length > 0 ? `${RECALLED_HEADING}\n${recalled.map(recalledLine).join("\n")}` : ""],
        ["summary", summary && `The story so far:\n${summary}`],
      ] as [PromptSectionKind, string][]
    )
      .filter(([, text]) => Boolean(text))
      .map(([kind, text]) => [kind, macros(text)]);
  const systemText = (withLore: ActivatedEntry[], withExamples: boolean, withCastDescriptions = true) =>
    systemParts(withLore, withExamples, withCastDescriptions)
      .map(([, text]) => text)
      .join("\n\n");
  const post = macros(normalise(character.postHistoryInstructions));
  const groupNudge = named ? macros(GROUP_NUDGE) : "";
  const nudge = options.continueLast ? CONTINUE_NUDGE : options.checkInAfterMs !== undefined ? macros(checkInNudge(options.checkInAfterMs)) : "";
  const note = macros(normalise(options.authorNote?.text));
  // At-depth entries are system (or their role's) messages in the history, counted with what never drops.
  const depthLore = (entries: ActivatedEntry[]) => entries.filter((e) => e.position === "at_depth" && normalise(e.content) !== "");
  const depthTokens = (entries: ActivatedEntry[]) => depthLore(entries).reduce((sum, e) => sum + messageTokens(macros(normalise(e.content))), 0);
  const postTokens = [post, groupNudge, nudge, note].reduce((sum, text) => sum + (text ? messageTokens(text) : 0), 0);
  // A group chat's or shared room's history lines carry their speaker's or author's name.
  const lines: HistoryMessage[] = named
    ? history.map((m) => ({ role: m.role, content: m.name ? `${m.name}: ${m.content}` : m.content, ...(m.id ? { id: m.id } : {}) }))
    : history;
  const latest = lines.at(-1);
  const latestTokens = latest ? messageTokens(latest.content) : 0;

  let includeExamples = examples !== "";
  let castDescriptions = true;
  let systemContent = systemText(lore, includeExamples);
  const fixed = () => messageTokens(systemContent) + postTokens + latestTokens + depthTokens(lore);
  if (fixed() > budget && includeExamples) {
    includeExamples = false;
    systemContent = systemText(lore, false);
  }
  while (fixed() > budget && lore.length > 0) {
    lore = lore.slice(0, -1);
    systemContent = systemText(lore, includeExamples);
  }
  if (fixed() > budget && ((group && group.length > 0) || (people && people.length > 0))) {
    castDescriptions = false;
    systemContent = systemText(lore, includeExamples, false);
  }

  // History, newest first, while it fits; the latest message always. When it does not all fit,
  // recalled memories keep a share of the budget (`recall.maxTokens`, at most a fifth).
  const fill = (available: number) => {
    let first = lines.length - (latest ? 1 : 0);
    while (first > 0) {
      const cost = messageTokens(lines[first - 1]!.content);
      if (cost > available) break;
      available -= cost;
      first -= 1;
    }
    return { first, left: available };
  };
  const remaining = budget - fixed();
  let { first, left } = fill(remaining);
  if (options.recall) {
    // Something lies before the window: history that did not fit, or messages under the summary.
    const older = first > 0 || summary !== "";
    const reserve = Math.max(0, Math.min(options.recall.maxTokens, Math.floor(budget / 5), remaining));
    if (older && reserve > 0) ({ first, left } = fill(remaining - reserve));
    // Recall reaches before the oldest message sent.
    const recallBudget = older ? reserve + left : 0;
    recalled = recallBudget > 0 ? options.recall.pick(lines[first]?.id ?? null, recallBudget) : [];
    if (recalled.length > 0) systemContent = systemText(lore, includeExamples, castDescriptions);
  }
  const kept: PromptMessage[] = lines.slice(first).map((m) => ({ role: m.role, content: m.content }));
  const historyTokens = kept.reduce((sum, m) => sum + messageTokens(m.content), 0);
  // The author's note, `depth` messages before the end (SillyTavern's "in-chat @ depth").
  if (note) kept.splice(Math.max(0, kept.length - Math.max(0, options.authorNote!.depth)), 0, { role: "system", content: note });
  // At-depth lorebook entries, `depth` messages from the end with their role (SillyTavern's "@ D"), deepest first so depths count in the history.
  const atDepth = depthLore(lore);
  for (const entry of [...atDepth].sort((a, b) => (b.depth ?? 0) - (a.depth ?? 0))) {
    kept.splice(Math.max(0, kept.length - Math.max(0, entry.depth ?? 0)), 0, { role: entry.role ?? "system", content: macros(normalise(entry.content)) });
  }

  // Strict chat templates want user and assistant to alternate: neighbours of one role are joined.
  const turns: PromptMessage[] = [];
  for (const message of kept) {
    const previous = turns.at(-1);
    if (previous && previous.role === message.role && message.role !== "system") previous.content += `\n\n${message.content}`;
    else turns.push({ role: message.role, content: message.content });
  }

  const messages: PromptMessage[] = [{ role: "system", content: systemContent }, ...turns];
  if (post) messages.push({ role: "system", content: post });
  if (groupNudge) messages.push({ role: "system", content: groupNudge });
  if (nudge) messages.push({ role: "system", content: nudge });
  const others = [...(group ?? []), ...(people ?? [])].map((entry) => entry.name);
  const stop = named ? [...new Set([...others, user])].filter((name) => name && name !== char).map((name) => `\n${name}:`) : [];

  // The inspector's sections: the system message's parts by kind (its role markers count as `system`), then the rest.
  const sizes = new Map<PromptSectionKind, number>([["system", MESSAGE_OVERHEAD_TOKENS]]);
  const count = (kind: PromptSectionKind, tokens: number) => {
    if (tokens > 0) sizes.set(kind, (sizes.get(kind) ?? 0) + tokens);
  };
  for (const [kind, text] of systemParts(lore, includeExamples, castDescriptions)) count(kind, estimateTokens(text));
  count("history", historyTokens);
  if (note) count("author_note", messageTokens(note));
  count("lorebook", depthTokens(lore));
  count("post_history", [post, groupNudge, nudge].reduce((sum, text) => sum + (text ? messageTokens(text) : 0), 0));
  const sections = [...sizes].map(([kind, tokens]) => ({ kind, tokens }));
  return {
    messages,
    estimatedTokens: messages.reduce((sum, m) => sum + messageTokens(m.content), 0),
    historyIncluded: kept.length - (note ? 1 : 0) - atDepth.length,
    lorebook: lore,
    examplesIncluded: includeExamples,
    castDescriptionsIncluded: castDescriptions,
    stop,
    sections,
    recalled: recalled.map((line) => line.id),
  };
}

/** A message to fold into the summary. */
export interface SummaryMessage {
  isUser: boolean;
  content: string;
  /** Its speaker's name in a group chat; absent: the character's (or the person's). */
  name?: string;
}

/**
 * The prompt that asks the chat model for the story's running summary: the
 * summary so far (if any) and the messages to fold into it, as a transcript
 * with the speakers' names; the answer replaces the summary (at most about
 * 200 words, past tense, names and facts kept).
 */
export function summaryPrompt(characterName: string, userName: string, summarySoFar: string, messages: SummaryMessage[]): PromptMessage[] {
  const transcript = messages
    .map((m) => `${m.name ?? (m.isUser ? userName : characterName)}: ${normalise(replaceMacros(m.content, m.name ?? characterName, userName))}`)
    .join("\n");
  const earlier = normalise(summarySoFar);
  return [
    {
      role: "system",
      content:
        `You keep the running summary of a roleplay between ${characterName} and ${userName}. ` +
        "Rewrite the summary so far together with the new messages into one summary of at most 200 words: " +
        "past tense, third person, every name, place, promise and fact that later scenes may need. Answer with the summary alone.",
    },
    { role: "user", content: `${earlier ? `Summary so far:\n${earlier}\n\n` : ""}New messages:\n${transcript}` },
  ];
}
