/**
 * The offline chat model (DESIGN.md "Chat models"): no network, no weights,
 * deterministic. It answers in character from the card's own text — a short
 * action in the card's pronouns, an answer that takes up the message's key
 * word (never quoting the person back), a line the character says in its
 * greeting or example dialogue (else a sentence of its personality or
 * scenario), and a question back — and streams it word by word at a steady
 * pace, like a hosted model. The same conversation and message always give
 * the same reply; a regenerate (`attempt`) gives another one. Asked to
 * continue its last reply it adds an action and a line; asked for a summary
 * it writes one from the messages' own words (`offlineSummary`), at once.
 *
 * It exists so that local development, tests and the benchmark run with no
 * account and no network; the UI tells people when it is the one answering.
 */
import type { ChatModel, ChatModelOptions, PromptMessage } from "./chat-model.ts";
import type { Character } from "../schema/api.ts";
import { replaceMacros } from "../schema/macros.ts";
import { fnv1a } from "../schema/seeded-random.ts";

/** The card fields the offline model speaks from. */
export type OfflineCharacter = Pick<Character, "name" | "description" | "personality" | "scenario" | "exampleConversation" | "greeting"> &
  Partial<Pick<Character, "longDescription">>;

/** The pronouns a card gives its character (`cardPronouns`). */
export interface Pronouns {
  subject: "she" | "he" | "they";
  /** her / his / their */
  possessive: string;
}

const PRONOUNS: Record<Pronouns["subject"], Pronouns> = {
  she: { subject: "she", possessive: "her" },
  he: { subject: "he", possessive: "his" },
  they: { subject: "they", possessive: "their" },
};

/**
 * The character's pronouns as its card gives them: a stated "pronouns:
 * she/her" (or "(he/him)", "they/them") first; else whichever of she/her and
 * he/him the card's own text uses more; "they" when the card says so, says
 * neither, or uses both as often.
 */
export function cardPronouns(character: OfflineCharacter): Pronouns {
  const text = [character.description, character.longDescription ?? "", character.personality, character.scenario ?? "", character.greeting ?? "", character.exampleConversation ?? ""].join("\n");
  const stated = /\b(?:pronouns?\s*[:=(-]?\s*|\()(she|he|they)\s*\/\s*(?:her|him|them)\b/i.exec(text);
  if (stated) return PRONOUNS[stated[1]!.toLowerCase() as Pronouns["subject"]];
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const she = count(/\b(?:she|her|hers|herself)\b/gi);
  const he = count(/\b(?:he|him|his|himself)\b/gi);
  if (she > he) return PRONOUNS.she;
  if (he > she) return PRONOUNS.he;
  return PRONOUNS.they;
}

/**
 * Opening actions, `{p}` the possessive pronoun. Thirteen (a prime): stepping
 * through them by a chat's turn (which grows by two a round) meets every one
 * before any comes back, so a chat's openings keep changing.
 */
const ACTIONS = [
  "listens closely",
  "tilts {p} head, thinking it over",
  "smiles faintly",
  "leans in a little",
  "takes a slow breath",
  "considers your words for a moment",
  "meets your eyes",
  "lets out a quiet laugh",
  "glances away, then back at you",
  "sets down what {p} hands were busy with",
  "raises an eyebrow",
  "nods slowly",
  "lets the silence sit for a heartbeat",
];

/** How the character takes a greeting: answered in kind, never repeated. */
const GREETINGS = [(user: string) => `Hello, ${user}. I'm glad you came.`, (user: string) => `There you are, ${user}.`, (user: string) => `Well met, ${user}. Sit, if you like.`];

/** How the character takes up a question about `Word` (capitalised) or `word`. */
const ANSWERS = [
  (word: string, Word: string) => `${Word}? Few people think to ask me that.`,
  (word: string) => `If it's ${word} you want to know about, sit down. It's a long answer.`,
  (word: string) => `Ah, ${word}. I have thought about that more than I'd admit.`,
  (word: string, Word: string) => `${Word}... you ask as if the answer were simple.`,
];

/** How the character takes up something the person told it. */
const ACKNOWLEDGEMENTS = [
  (word: string, _Word: string, user: string) => `So it's ${word} that brought you here, ${user}.`,
  (word: string, Word: string) => `${Word}. I hear you.`,
  (word: string) => `I won't forget what you said about ${word}.`,
  (word: string, Word: string) => `${Word}, is it? That changes things.`,
];

/** The question back that ends a reply: the answer already took up the message's word, so these ask on without it. */
const QUESTIONS = [
  (user: string) => `What brings that to mind tonight, ${user}?`,
  (user: string) => `And what will you do now, ${user}?`,
  (user: string) => `Will you stay a while and tell me the rest, ${user}?`,
  (user: string) => `What would you have me do, ${user}?`,
  (user: string) => `Who else knows about this, ${user}?`,
];

/** When the message has no word to take up. */
const LISTENINGS = [(user: string) => `I hear you, ${user}.`, (user: string) => `Go on, ${user}. I'm listening.`, () => "Is that so?"];

const STOP_WORDS = new Set(
  "about above after again also been before being could does doing down each from have having here just more most only other over same should some such than that their them then there these they this those through under until very what when where which while will with would your yours you're i'm it's that's".split(
    " ",
  ),
);

/** One of `items`, chosen by `seed` and `salt`; `shift` steps to the next ones (a regenerate's attempt). */
function pick<T>(items: readonly T[], seed: number, salt: number, shift = 0): T {
  return items[(fnv1a(`${seed}:${salt}`) + shift) % items.length]!;
}

const clean = (text: string) => text.replace(/[*"“”]/g, "").replace(/\s+/g, " ").trim();

/**
 * The text inside each pair of quotation marks of `text`, in order: quotes
 * are paired as they come on each line (`"` or `“` opens, `"` or `”` closes),
 * so the narration between two quotes — `," she said. "` in
 * `"Hi," she said. "Bye."` — is never taken for speech. A quote left open at
 * the end of a line is dropped; a stray `”` is ignored; a `“` inside an open
 * quote starts the span again.
 */
export function quotedSpans(text: string): string[] {
  const spans: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let open = -1;
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (open < 0) {
        if (char === '"' || char === "“") open = i;
      } else if (char === '"' || char === "”") {
        spans.push(line.slice(open + 1, i));
        open = -1;
      } else if (char === "“") {
        open = i;
      }
    }
  }
  return spans;
}

/**
 * Lines the character says: quoted speech in its greeting and examples, and
 * `{{char}}:` lines without quotes (there, plain text is speech and `*…*`
 * actions; a line with quotes is narration around them, and its quotes are
 * already taken).
 */
function spokenLines(character: OfflineCharacter): string[] {
  const lines: string[] = [];
  for (const text of [character.greeting ?? "", character.exampleConversation ?? ""]) {
    for (const span of quotedSpans(text)) {
      if (span.length >= 20 && span.length <= 220) lines.push(clean(span));
    }
    for (const match of text.matchAll(/^\s*\{\{char\}\}:\s*(.{20,220})$/gim)) {
      if (/["“”]/.test(match[1]!)) continue;
      const speech = clean(match[1]!.replace(/\*[^*]*\*/g, ""));
      if (speech.length >= 20) lines.push(speech);
    }
  }
  return lines.filter((line) => !/[{}[\]=<>]/.test(line));
}

/** Plain sentences of the personality, scenario and description (W++ brackets and lists skipped). */
function describingSentences(character: OfflineCharacter): string[] {
  const text = [character.personality, character.scenario ?? "", character.longDescription ?? character.description].join("\n");
  return (text.match(/[^.!?\n]{20,200}[.!?]/g) ?? [])
    .map((s) => clean(s))
    .filter((s) => s.length >= 20 && !/[{}[\]=<>:]/.test(s));
}

/** The most telling word of a message: the longest one that is not a stop word. */
function keyWord(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}'-]{4,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
  if (words.length === 0) return null;
  return words.reduce((best, w) => (w.length > best.length ? w : best));
}

/** The start of a message, at most 12 words, for a summary to quote. */
function snippet(text: string): string {
  const firstClause = clean(text).split(/(?<=[.!?])\s/)[0] ?? "";
  const words = firstClause.split(" ").filter(Boolean);
  const short = words.slice(0, 12).join(" ").replace(/[.!?,;:]+$/, "");
  return words.length > 12 ? `${short}…` : short;
}

/** `template` with the possessive pronoun of `pronouns` for `{p}`. */
const withPronouns = (template: string, pronouns: Pronouns) => template.replaceAll("{p}", pronouns.possessive);

/**
 * The opening action of a reply: stepped by the chat's `turn` and the
 * `attempt`, so consecutive replies and regenerates open differently; and
 * never the one `previous` (the character's last reply) opened with, which
 * still holds once the history window stops the turn from growing.
 */
function opening(character: OfflineCharacter, turn: number, attempt: number, previous: string): string {
  const pronouns = cardPronouns(character);
  let index = (fnv1a(character.name) + turn * 5 + attempt) % ACTIONS.length;
  if (previous.includes(`${character.name} ${withPronouns(ACTIONS[index]!, pronouns)}`)) index = (index + 1) % ACTIONS.length;
  return withPronouns(ACTIONS[index]!, pronouns);
}

/** The character's answer to what the person said: a greeting back, or the message's key word taken up — never the message quoted. */
function answer(userText: string, userName: string, seed: number, attempt: number): string {
  const text = userText.trim();
  if (/^(?:hi|hello|hey|hiya|greetings|good (?:morning|afternoon|evening))\b/i.test(text) && text.split(/\s+/).length <= 4) {
    return pick(GREETINGS, seed, 2, attempt)(userName);
  }
  const word = keyWord(text);
  if (!word) return pick(LISTENINGS, seed, 2, attempt)(userName);
  const Word = word.charAt(0).toUpperCase() + word.slice(1);
  const asks = /\?\s*$/.test(text) || /^(?:who|what|when|where|why|how|which|can|could|will|would|do|does|did|is|are)\b/i.test(text);
  return pick(asks ? ANSWERS : ACKNOWLEDGEMENTS, seed, 2, attempt)(word, Word, userName);
}

/**
 * The whole reply the offline model gives to `userText` as the `turn`-th
 * message of a conversation (deterministic): an action in the card's
 * pronouns, an answer that takes up the message without quoting it, a line
 * the character says in its greeting or examples (else a sentence of its
 * personality or scenario), and a question back. Macros are replaced.
 * `attempt` counts the versions of this reply written before (0 for the
 * first; a regenerate adds one): each step moves every choice to the next
 * one, so the first thirteen attempts open with different actions.
 * `previous`: the character's last reply, whose opening is not used again.
 */
export function offlineReply(character: OfflineCharacter, userName: string, userText: string, turn: number, attempt = 0, previous = ""): string {
  const seed = fnv1a(`${character.name}\n${turn}\n${userText}`);
  const name = character.name;
  const parts = [`*${name} ${opening(character, turn, attempt, previous)}.*`, `"${answer(userText, userName, seed, attempt)}"`];
  const spoken = spokenLines(character);
  if (spoken.length > 0) {
    parts.push(`"${pick(spoken, seed, 3, attempt)}"`);
  } else {
    const sentences = describingSentences(character);
    if (sentences.length > 0) parts.push(`*${pick(sentences, seed, 3, attempt)}*`);
  }
  parts.push(keyWord(userText) ? pick(QUESTIONS, seed, 4, attempt)(userName) : `What happens next, ${userName}?`);
  return replaceMacros(parts.join(" "), name, userName);
}

/**
 * What the offline model adds when asked to continue `replyText`
 * (deterministic): an action and a line the character says (else a sentence
 * of its description). Macros are replaced.
 */
export function offlineContinuation(character: OfflineCharacter, userName: string, replyText: string, attempt = 0): string {
  const seed = fnv1a(`${character.name}\ncontinue\n${replyText}`);
  const name = character.name;
  const parts = [`*${name} ${withPronouns(pick(ACTIONS, seed, 5, attempt), cardPronouns(character))}, then goes on.*`];
  const spoken = spokenLines(character);
  const sentences = describingSentences(character);
  if (spoken.length > 0) parts.push(`"${pick(spoken, seed, 6, attempt)}"`);
  else if (sentences.length > 0) parts.push(`*${pick(sentences, seed, 6, attempt)}*`);
  else parts.push(`"There is more to tell, ${userName}."`);
  return replaceMacros(parts.join(" "), name, userName);
}

/**
 * The offline model's summary of a summary prompt's user message
 * (durable-objects/prompt.ts `summaryPrompt`: an optional "Summary so far:"
 * block, then "New messages:" and one `Name: text` line each): the summary
 * so far, then one sentence per message with the start of its own words.
 * Deterministic; at most 2,000 characters (the oldest sentences go first).
 */
export function offlineSummary(request: string): string {
  const [head = "", lines = ""] = request.split(/^New messages:\n/m);
  const earlier = head.replace(/^Summary so far:\n/, "").trim();
  const sentences = lines
    .split("\n")
    .map((line) => /^([^:]{1,80}):\s*(.*)$/.exec(line))
    .flatMap((match) => {
      const said = match ? snippet(match[2]!) : "";
      return match && said ? [`${match[1]} said: "${said}".`] : [];
    });
  let summary = [earlier, ...sentences].filter(Boolean).join(" ");
  while (summary.length > 2000) summary = summary.slice(summary.indexOf(" ", summary.length - 2000) + 1);
  return summary;
}

/** `text` up to (not including) the earliest of `stop` strings; all of it when none occurs. */
export function beforeStop(text: string, stop: readonly string[] = []): string {
  let end = text.length;
  for (const s of stop) {
    const at = text.indexOf(s);
    if (s !== "" && at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A pace of one beat every `ms` ms (ms > 0) from one interval timer, not a
 * timer per word (a busy object streams hundreds of replies at once):
 * `beat()` resolves on the next tick after it is asked. Ticks nobody waited
 * for are not saved up. `stop()` clears the timer.
 */
function pace(ms: number): { beat(): Promise<void>; stop(): void } {
  let waiting: (() => void) | null = null;
  const timer = setInterval(() => {
    const resolve = waiting;
    waiting = null;
    resolve?.();
  }, ms);
  return {
    beat: () => new Promise<void>((resolve) => (waiting = resolve)),
    stop: () => clearInterval(timer),
  };
}

export class OfflineChatModel implements ChatModel {
  readonly name = "offline" as const;
  private readonly character: OfflineCharacter;
  private readonly userName: string;
  /** Pause between words, ms; 0 still yields to the event loop between words. */
  private readonly wordDelayMs: number;

  constructor(character: OfflineCharacter, userName: string, options: { wordDelayMs: number }) {
    this.character = character;
    this.userName = userName;
    this.wordDelayMs = options.wordDelayMs;
  }

  /**
   * Streams the reply word by word. Like a hosted model it honours
   * `maxTokens` (here one word is one token: at most that many words) and
   * the stop strings, `stop` and the person's `sampling.stop` (the reply
   * ends before the first of them), so tests
   * see the person's settings at work; the other sampling settings change
   * nothing (it is deterministic). It never calls `onUsage`: it has no
   * tokenizer, and counting its words as tokens would show people a number
   * no model spent.
   */
  async *stream(prompt: PromptMessage[], { signal, attempt = 0, purpose = "reply", maxTokens, stop, sampling }: ChatModelOptions): AsyncGenerator<string> {
    // A group chat's lines carry "Name: " (durable-objects/prompt.ts): the person's words are what follows.
    const lastLine = prompt.findLast((m) => m.role === "user")?.content ?? "";
    const lastUser = lastLine.startsWith(`${this.userName}: `) ? lastLine.slice(this.userName.length + 2) : lastLine;
    if (purpose === "summary") {
      const summary = offlineSummary(lastUser);
      if (summary && !signal?.aborted) yield summary;
      return;
    }
    const turn = prompt.filter((m) => m.role !== "system").length;
    const text =
      purpose === "continue"
        ? offlineContinuation(this.character, this.userName, prompt.findLast((m) => m.role === "assistant")?.content ?? "", attempt)
        : offlineReply(this.character, this.userName, lastUser, turn, attempt, prompt.findLast((m) => m.role === "assistant")?.content);
    const words = (beforeStop(text, [...(stop ?? []), ...(sampling?.stop ?? [])]).match(/\S+\s*/g) ?? []).slice(0, Math.max(1, maxTokens));
    // 0 still yields to the event loop between words; a real pause comes from one timer per reply.
    const ticks = this.wordDelayMs > 0 && words.length > 1 ? pace(this.wordDelayMs) : null;
    try {
      for (let i = 0; i < words.length; i++) {
        if (signal?.aborted) return;
        if (i > 0) await (ticks ? ticks.beat() : sleep(0));
        if (signal?.aborted) return;
        yield words[i]!;
      }
    } finally {
      ticks?.stop();
    }
  }
}
