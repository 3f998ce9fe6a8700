/**
 * Chats out and in: SillyTavern's chat file (JSONL) and a Markdown
 * transcript. Pure functions, no I/O; the caller reads the upload (bytes,
 * limited to MAX_CHAT_IMPORT_BYTES) and stores what comes out.
 *
 * SillyTavern's chat file, as its server writes and reads it
 * (github.com/SillyTavern/SillyTavern `src/endpoints/chats.js`, `/save`,
 * `/get`, `/import`; client `public/script.js` `saveChat`, `getChat`,
 * `saveReply`, `sendMessageAsUser`):
 * - UTF-8 text, one JSON object per line, lines joined by "\n" with no
 *   newline after the last (`chat.map(JSON.stringify).join('\n')`).
 * - Line 1 is the chat's metadata: `{ user_name, character_name,
 *   create_date, chat_metadata }`. `getChat` takes it off whatever it is,
 *   and adds its own `chat_metadata.integrity` when there is none.
 * - Every other line is a message: `name` (who is speaking, shown as is;
 *   SillyTavern's chat list calls a file whose last line has no `name`
 *   corrupted), `is_user`, `is_system` (its own notices, named "SillyTavern
 *   System", and messages hidden with /hide: left out of the prompt; a
 *   narrator message, /sys, is not one), `send_date`, `mes` (the text shown and
 *   prompted), `extra` (an object SillyTavern writes on every message and
 *   reads fields of). A character reply that was swiped also has `swipes`
 *   (every version, in the order they were written), `swipe_id` (the index
 *   of the one in `mes`) and `swipe_info` (one `{ send_date, extra, … }` per
 *   swipe). When SillyTavern swipes it reads `swipe_info[swipe_id]?.send_date`
 *   and falls back to the message's own, so entries only need to exist.
 * - Dates: `send_date` is ISO 8601 since November 2025
 *   (`getMessageTimeStamp`, SillyTavern PR #4806); before, "June 19, 2023
 *   2:20pm" in the writer's local time. `create_date` is `humanizedDateTime`:
 *   "2025-11-23@14h05m09s123ms" (before PR #4806 "2024-9-28@01h02m36s",
 *   and "2024-6-5 @14h 56m 50s 682ms" from its server), which its
 *   `parseTimestamp` reads as UTC. Unix milliseconds (a number, or digits)
 *   come from its Kobold Lite and RisuAI importers.
 *
 * Writing: what SillyTavern writes today, in UTC (`send_date` ISO 8601,
 * `create_date` humanized with milliseconds), so a round trip keeps every
 * millisecond. A SillyTavern older than its ISO reader (2025) opens the
 * file and shows those messages without a time.
 *
 * Reading: everything above, and Chub's variant of the format
 * (`mes: { message }`, swipes as `{ message }`), which SillyTavern's
 * importer flattens the same way (`flattenChubChat`).
 */
import { conversationTitle, type ChatMessage } from "../../schema/chat.ts";
import { chooseVersion, replyVersions } from "../../schema/chat-frames.ts";
import { ApiError } from "./errors.ts";

/** Largest chat file accepted for import, bytes (5 MiB). The caller checks the bytes; `readSillyTavernJsonl` checks the text. */
export const MAX_CHAT_IMPORT_BYTES = 5 * 1024 * 1024;
/** Most messages one import may hold (after system and empty ones are left out). */
export const MAX_CHAT_IMPORT_MESSAGES = 5_000;
/**
 * Longest imported message or swipe, in characters (UTF-16 code units,
 * after trimming): the longest reply the app writes itself (MAX_REPLY_CHARS
 * in durable-objects/conversation-room.ts).
 */
export const MAX_IMPORTED_MESSAGE_LENGTH = 16_000;
/** Most versions (swipes) one imported message may have. */
export const MAX_IMPORTED_SWIPES = 32;

/** Name written for a person or character whose name is empty (SillyTavern's own default persona name is "User"). */
const FALLBACK_USER_NAME = "User";
const FALLBACK_CHARACTER_NAME = "Character";

/** A conversation as the export reads it. */
export interface ExportChat {
  /** The person's name (their persona), written as `user_name` and as `name` of their messages. */
  userName: string;
  /** The character's name, written as `character_name` and as `name` of its messages. */
  characterName: string;
  /** When the conversation was started, ISO 8601. */
  createdAt: string;
  /** Oldest first, as `history_sync` gives them; a reply still being written (`status: "streaming"`) is left out. */
  messages: ChatMessage[];
  /** Written as the first line's `chat_metadata`; `{}` when absent. */
  chatMetadata?: Record<string, unknown>;
  /** A group chat: each reply's speaker's name by character id (its `name`); others are `characterName`. */
  speakerNames?: ReadonlyMap<number, string>;
  /** The site's origin (e.g. "https://fabled.example"): a picture's path (`/objects/pictures/…`) is written as a full URL on it. */
  origin?: string;
}

/** A picture's URL as written: its path on `origin`, so the file opens elsewhere; the path alone without one. */
const pictureHref = (chat: ExportChat, path: string) => (chat.origin ? new URL(path, chat.origin).href : path);

/** One message read from a chat file, in the `content`/`alternatives`/`swipeIndex` convention of `ChatMessage`. */
export interface ImportedMessage {
  isUser: boolean;
  /** The version the chat goes on from (SillyTavern's `mes`), trimmed. */
  content: string;
  /** When it was sent, ms since the epoch (see `readSillyTavernJsonl` for unreadable dates). */
  createdAt: number;
  /** The other versions of a character reply, in written order (always empty for the person's messages). */
  alternatives: string[];
  /** Where `content` stands among all versions; absent when it is the newest. See `replyVersions`. */
  swipeIndex?: number;
  /** The line's `name` (who is speaking), trimmed; absent when it has none. */
  name?: string;
}

/** What `readSillyTavernJsonl` gives back. */
export interface ImportedChat {
  /** The header's `character_name`, else the `name` of the first character message, else null. */
  characterName: string | null;
  /** The header's `user_name`, else the `name` of the first message of the person, else null. */
  userName: string | null;
  /** The header's `create_date`, ms since the epoch; null when there is none or it cannot be read. */
  createdAt: number | null;
  /** Oldest first. */
  messages: ImportedMessage[];
}

/** Limits of one import (the exported constants by default), and the clock. */
export interface ChatImportOptions {
  /** Longest text, UTF-16 code units (default MAX_CHAT_IMPORT_BYTES). */
  maxChars?: number;
  maxMessages?: number;
  maxMessageLength?: number;
  maxSwipes?: number;
  /** The import time, ms: the date of a first message whose date cannot be read (default `Date.now()`). */
  now?: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const count = (n: number) => n.toLocaleString("en-US");

const invalid = (message: string) => new ApiError("validation_failed", message);

// ---------------------------------------------------------------------------
// Dates.

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * SillyTavern's `humanizedDateTime` (public/scripts/RossAscends-mods.js, since
 * PR #4806) for ms since the epoch, in UTC because its `parseTimestamp` reads
 * this form as UTC: "2025-11-23@14h05m09s123ms".
 */
export function humanizedDateTime(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `@${pad(d.getUTCHours())}h${pad(d.getUTCMinutes())}m${pad(d.getUTCSeconds())}s${pad(d.getUTCMilliseconds(), 3)}ms`
  );
}

const MONTHS = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december",
];

/** Ms for UTC date parts, or null when they name no real time (month 13, 30 February, 25 o'clock). */
function utc(year: number, month: number, day: number, hour: number, minute: number, second = 0, ms = 0): number | null {
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const d = new Date(time);
  const same =
    d.getUTCFullYear() === year &&
    d.getUTCMonth() === month - 1 &&
    d.getUTCDate() === day &&
    d.getUTCHours() === hour &&
    d.getUTCMinutes() === minute &&
    d.getUTCSeconds() === second;
  return same ? time : null;
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/i;
/** "June 19, 2023 2:20pm" (unanchored, as SillyTavern matches it). */
const MERIDIEM = /([a-z]+)\s(\d{1,2}),\s(\d{4})\s(\d{1,2}):(\d{1,2})(am|pm)/i;
/** "2025-11-23@14h05m09s123ms", "2024-7-12@01h31m37s", "2024-6-5 @14h 56m 50s 682ms". */
const HUMANIZED = [
  /(\d{4})-(\d{1,2})-(\d{1,2})@(\d{1,2})h(\d{1,2})m(\d{1,2})s(\d{1,3})ms/,
  /(\d{4})-(\d{1,2})-(\d{1,2})@(\d{1,2})h(\d{1,2})m(\d{1,2})s/,
  /(\d{4})-(\d{1,2})-(\d{1,2}) @(\d{1,2})h (\d{1,2})m (\d{1,2})s (\d{1,3})ms/,
];

/**
 * A SillyTavern date (`send_date`, `create_date`) as ms since the epoch, or
 * null when it cannot be read. Read as SillyTavern's `parseTimestamp`
 * (public/scripts/utils.js) reads them, in its order: unix ms (a number or
 * digits), ISO 8601 (without an offset: UTC), "June 19, 2023 2:20pm"
 * (written in the writer's local time, which the file does not say: read
 * as UTC), and the humanized forms (UTC).
 */
export function parseSillyTavernDate(value: unknown): number | null {
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) {
    const ms = Number(value);
    return Number.isFinite(ms) && ms >= 0 && Number.isFinite(new Date(ms).getTime()) ? ms : null;
  }
  if (typeof value !== "string") return null;
  const text = value.trim();

  const iso = ISO_8601.exec(text);
  if (iso) {
    const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = ""] = iso;
    const [sign, offsetHours = "0", offsetMinutes = "0"] = iso.slice(9);
    const local = utc(+year!, +month!, +day!, +hour, +minute, +second, +fraction.padEnd(3, "0").slice(0, 3));
    if (local === null || +offsetHours > 23 || +offsetMinutes > 59) return null;
    return local - (sign === "-" ? -1 : 1) * (+offsetHours * 60 + +offsetMinutes) * 60_000;
  }

  const meridiem = MERIDIEM.exec(text);
  if (meridiem) {
    const [, monthName = "", day, year, hour, minute, half = ""] = meridiem;
    const name = monthName.toLowerCase();
    // moment's English month parsing, which SillyTavern uses: the full name or its first three letters.
    const month = MONTHS.findIndex((full) => name.startsWith(full.slice(0, 3)));
    const h = Number(hour);
    if (month < 0 || h < 1 || h > 12) return null;
    return utc(Number(year), month + 1, Number(day), (h % 12) + (half.toLowerCase() === "pm" ? 12 : 0), Number(minute));
  }

  for (const pattern of HUMANIZED) {
    const match = pattern.exec(text);
    if (!match) continue;
    const [year, month, day, hour, minute, second, ms] = match.slice(1).map(Number);
    return utc(year!, month!, day!, hour!, minute!, second!, ms ?? 0);
  }
  return null;
}

// ---------------------------------------------------------------------------
// Export.

/** Ms of an ISO 8601 date we wrote ourselves; a RangeError for anything else. */
function msOf(iso: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new RangeError(`Not an ISO 8601 date: ${JSON.stringify(iso)}`);
  return ms;
}

const exportedMessages = (chat: ExportChat) => chat.messages.filter((message) => message.status !== "streaming");

const names = (chat: ExportChat) => ({
  user: chat.userName.trim() || FALLBACK_USER_NAME,
  character: chat.characterName.trim() || FALLBACK_CHARACTER_NAME,
});

/**
 * The conversation as a SillyTavern chat file (JSONL, see the top of this
 * file): the metadata line, then one line per message, joined by "\n",
 * no newline at the end. Each message has `name`, `is_user`,
 * `is_system: false`, `send_date` (ISO 8601), `mes` (its `content`) and
 * `extra: {}`; a character reply with alternatives also has `swipes` (every
 * version in written order, `replyVersions`), `swipe_id` (the index of
 * `content`) and `swipe_info` (one `{ send_date, extra: {} }` per swipe,
 * each with the reply's date: we keep one date per reply). An empty name
 * is written as "User" or "Character" (SillyTavern needs a `name`).
 * A picture of the chat (`kind: "image"`, DESIGN.md "Pictures") is a line
 * as SillyTavern's image generation writes one (its
 * `public/scripts/extensions/stable-diffusion` `sendMessage`): `mes` the
 * prompt, `extra.media: [{url, type: "image", title: prompt, source:
 * "generated"}]` with `media_display: "gallery"`, `media_index: 0`,
 * `inline_image: false`, and the older `extra.image`/`extra.title` that
 * SillyTavern before its media list reads; `is_system: true`, because
 * Fabled never sends a picture to the text model and SillyTavern leaves
 * system lines out of the prompt. `url` is the picture's full URL on
 * `chat.origin`.
 * Dates must be ISO 8601 (throws RangeError otherwise).
 */
export function writeSillyTavernJsonl(chat: ExportChat): string {
  const who = names(chat);
  const lines: string[] = [
    JSON.stringify({
      user_name: who.user,
      character_name: who.character,
      create_date: humanizedDateTime(msOf(chat.createdAt)),
      chat_metadata: chat.chatMetadata ?? {},
    }),
  ];
  for (const message of exportedMessages(chat)) {
    const sendDate = new Date(msOf(message.createdAt)).toISOString();
    if (message.kind === "image" && message.imageUrl) {
      const url = pictureHref(chat, message.imageUrl);
      const title = message.prompt ?? "";
      lines.push(
        JSON.stringify({
          name: (message.characterId !== undefined ? chat.speakerNames?.get(message.characterId)?.trim() : undefined) || who.character,
          is_user: false,
          is_system: true,
          send_date: sendDate,
          mes: title,
          extra: {
            media: [{ url, type: "image", title, source: "generated" }],
            media_display: "gallery",
            media_index: 0,
            inline_image: false,
            image: url,
            title,
          },
        }),
      );
      continue;
    }
    const line: Json = {
      name: message.isUser
        ? who.user
        : ((message.characterId !== undefined ? chat.speakerNames?.get(message.characterId)?.trim() : undefined) || who.character),
      is_user: message.isUser,
      is_system: false,
      send_date: sendDate,
      mes: message.content,
      extra: {},
    };
    if (!message.isUser && message.alternatives.length > 0) {
      const { versions, current } = replyVersions(message);
      line.swipe_id = current;
      line.swipes = versions;
      line.swipe_info = versions.map(() => ({ send_date: sendDate, extra: {} }));
    }
    lines.push(JSON.stringify(line));
  }
  return lines.join("\n");
}

/** "2025-03-05 14:02 UTC" */
const readableDate = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A name safe inside `**…**`: Markdown's punctuation escaped. */
const escapeName = (name: string) => name.replace(/[\\`*_[\]<>#|~]/g, "\\$&");

/**
 * The conversation as a Markdown transcript for people to read:
 *
 *     # Chat with {character}
 *
 *     {user} and {character}, started {date}, exported {date}.
 *
 *     **{name}** — {date}
 *
 *     {text}
 *
 * one block per message, oldest first, dates in UTC ("2025-03-05 14:02
 * UTC"); ends with "\n". Only the version each reply goes on from is
 * written; a reply with others says which of how many it is, "(2 of 3)",
 * so nobody mistakes the transcript for every swipe. Text is written as it
 * is (it is already Markdown-ish roleplay text); names are escaped. A
 * picture is a Markdown image, `![prompt](url)`, its URL on `chat.origin`.
 * `exportedAt` in ms (default now).
 */
export function writeChatMarkdown(chat: ExportChat, exportedAt: number = Date.now()): string {
  const who = names(chat);
  const blocks = [
    `# ${conversationTitle(escapeName(who.character))}`,
    `${escapeName(who.user)} and ${escapeName(who.character)}, started ${readableDate(msOf(chat.createdAt))}, ` +
      `exported ${readableDate(exportedAt)}.`,
  ];
  for (const message of exportedMessages(chat)) {
    const { versions, current } = replyVersions(message);
    const which = !message.isUser && versions.length > 1 ? ` (${current + 1} of ${versions.length})` : "";
    const name = escapeName(
      message.isUser
        ? who.user
        : ((message.characterId !== undefined ? chat.speakerNames?.get(message.characterId)?.trim() : undefined) || who.character),
    );
    const text =
      message.kind === "image" && message.imageUrl
        ? `![${(message.prompt ?? "Picture").replace(/[\\[\]]/g, "\\$&").replace(/\s+/g, " ")}](<${pictureHref(chat, message.imageUrl)}>)`
        : message.content;
    blocks.push(`**${name}** — ${readableDate(msOf(message.createdAt))}${which}`, text);
  }
  return `${blocks.join("\n\n")}\n`;
}

// ---------------------------------------------------------------------------
// Import.

/** Text of a `mes` or swipe: a string, or Chub's `{ message }`. */
function textOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (isObject(value) && typeof value.message === "string") return value.message;
  return null;
}

/** A header line: an object without `mes` that has one of the fields `saveChat` writes. */
const isHeader = (line: Json) =>
  !("mes" in line) &&
  ("user_name" in line || "character_name" in line || "create_date" in line || "chat_metadata" in line);

const nameOf = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/**
 * The versions of a character reply and the index of the shown one, from
 * `swipes` and `swipe_id`, with `mes` (trimmed, not empty) as the shown
 * version: SillyTavern keeps `swipes[swipe_id]` equal to `mes`, and `mes`
 * is what it shows and prompts with, so `mes` wins when they differ.
 * Swipes that are not text or are empty after trimming are dropped. When
 * `swipe_id` does not point at a kept swipe, the swipe equal to `mes` is the
 * shown one, else `mes` is added as the newest version.
 */
function readVersions(line: Json, content: string): { versions: string[]; shown: number } {
  if (!Array.isArray(line.swipes)) return { versions: [content], shown: 0 };
  const versions: string[] = [];
  let shown = -1;
  line.swipes.forEach((swipe: unknown, index: number) => {
    const text = textOf(swipe)?.trim();
    if (!text) return;
    if (index === line.swipe_id) {
      shown = versions.length;
      versions.push(content);
    } else {
      versions.push(text);
    }
  });
  if (shown < 0) shown = versions.indexOf(content);
  if (shown < 0) shown = versions.push(content) - 1;
  return { versions, shown };
}

/**
 * Reads a SillyTavern chat file (JSONL, see the top of this file) into
 * messages in our convention, oldest first. `text` is the decoded file; a
 * byte order mark is dropped, lines may end in "\n" or "\r\n", blank lines
 * (the trailing newline included) are skipped.
 *
 * - Line 1 is the chat's metadata when it is an object without `mes` that
 *   has `user_name`, `character_name`, `create_date` or `chat_metadata`.
 *   SillyTavern's importer also accepts a file whose first line is a
 *   message (it only asks for `user_name` or `name`), and its loader then
 *   drops that line as if it were the metadata; here such a line is read as
 *   the first message, and the names come from the messages.
 * - Messages with `is_system` (SillyTavern's own notices and messages
 *   hidden with /hide, which it leaves out of prompts and of its own text
 *   export; skipped whatever else the line holds) and messages whose `mes`
 *   is empty after trimming are left out. Narrator messages (/sys) are not
 *   `is_system` and come in as the character's.
 * - Text is kept as written (no macro such as {{user}} is replaced), with
 *   leading and trailing whitespace trimmed.
 * - `swipes` and `swipe_id` of a character reply become `alternatives` and
 *   `swipeIndex` (`chooseVersion`; see `readVersions`); swipes on the
 *   person's messages are ignored.
 * - A `send_date` that cannot be read (`parseSillyTavernDate`) takes the
 *   previous message's time; for the first message, the chat's
 *   `create_date`, else the import time (`options.now`).
 *
 * Throws 413 `payload_too_large` when the text is longer than
 * MAX_CHAT_IMPORT_BYTES (in UTF-16 code units, never more than the UTF-8
 * bytes the caller already limited). Throws 400 `validation_failed` with a
 * sentence naming the line for: an empty file, a line that is not JSON, a
 * first line that is neither metadata nor a message, a line that is not a
 * JSON object, a message without text in `mes`, more than
 * MAX_CHAT_IMPORT_MESSAGES messages, a message or swipe longer than
 * MAX_IMPORTED_MESSAGE_LENGTH, more than MAX_IMPORTED_SWIPES swipes, and no
 * messages at all.
 */
export function readSillyTavernJsonl(text: string, options: ChatImportOptions = {}): ImportedChat {
  const maxChars = options.maxChars ?? MAX_CHAT_IMPORT_BYTES;
  const maxMessages = options.maxMessages ?? MAX_CHAT_IMPORT_MESSAGES;
  const maxLength = options.maxMessageLength ?? MAX_IMPORTED_MESSAGE_LENGTH;
  const maxSwipes = options.maxSwipes ?? MAX_IMPORTED_SWIPES;

  if (text.length > maxChars) {
    throw new ApiError("payload_too_large", `The chat file is too large (at most ${(maxChars / 1_048_576).toFixed(0)} MB)`);
  }
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines.every((line) => line.trim() === "")) throw invalid("The chat file is empty.");

  const result: ImportedChat = { characterName: null, userName: null, createdAt: null, messages: [] };
  let previousTime: number | null = null;
  let firstLine = true;

  lines.forEach((raw, index) => {
    if (raw.trim() === "") return;
    const lineNo = count(index + 1);
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      throw invalid(`Line ${lineNo} is not JSON.`);
    }
    const isFirst = firstLine;
    firstLine = false;
    const notAChat = () =>
      invalid(`This is not a SillyTavern chat: line ${lineNo} is neither chat metadata (user_name) nor a message (mes).`);
    if (!isObject(line)) throw isFirst ? notAChat() : invalid(`Line ${lineNo} is not a chat message.`);
    if (isFirst && isHeader(line)) {
      result.userName = nameOf(line.user_name);
      result.characterName = nameOf(line.character_name);
      result.createdAt = parseSillyTavernDate(line.create_date);
      return;
    }
    if (isFirst && !("mes" in line)) throw notAChat();

    if (line.is_system) return;
    const mes = textOf(line.mes);
    if (mes === null) throw invalid(`Line ${lineNo} has no message text (mes).`);
    const content = mes.trim();
    if (content === "") return;
    if (result.messages.length >= maxMessages) {
      throw invalid(`The chat has more than ${count(maxMessages)} messages; at most ${count(maxMessages)} can be imported.`);
    }

    const isUser = line.is_user === true;
    const tooLong = (what: string, length: number) =>
      invalid(`${what} on line ${lineNo} is ${count(length)} characters long; at most ${count(maxLength)} can be imported.`);
    if (content.length > maxLength) throw tooLong("The message", content.length);
    const { versions, shown } = isUser ? { versions: [content], shown: 0 } : readVersions(line, content);
    if (versions.length > maxSwipes) {
      throw invalid(
        `The message on line ${lineNo} has ${count(versions.length)} swipes; at most ${count(maxSwipes)} can be imported.`,
      );
    }
    const longest = Math.max(...versions.map((version) => version.length));
    if (longest > maxLength) throw tooLong("A swipe of the message", longest);

    const createdAt: number =
      parseSillyTavernDate(line.send_date) ?? previousTime ?? result.createdAt ?? options.now ?? Date.now();
    previousTime = createdAt;
    const newest = versions.length - 1;
    const chosen = chooseVersion({ content: versions[newest]!, alternatives: versions.slice(0, newest) }, shown)!;
    const message: ImportedMessage = { isUser, content: chosen.content, createdAt, alternatives: chosen.alternatives };
    if (chosen.swipeIndex !== undefined) message.swipeIndex = chosen.swipeIndex;
    const speaker = nameOf(line.name);
    if (speaker !== null) message.name = speaker;
    result.messages.push(message);

    if (isUser) result.userName ??= nameOf(line.name);
    else result.characterName ??= nameOf(line.name);
  });

  if (result.messages.length === 0) throw invalid("The chat has no messages to import.");
  return result;
}

/**
 * The messages of an imported chat mapped onto a cast (a SillyTavern group
 * chat: `POST /api/conversations/import?characterIds=…`): each reply goes to
 * the member whose name equals its `name` (case and surrounding spaces
 * ignored); a reply without a name goes to the first member. With one
 * member, every reply is that member's whatever its name (a one-to-one
 * import, as before). Throws 400 naming every reply name that matches no
 * member.
 */
export function castImportedMessages(
  messages: readonly ImportedMessage[],
  cast: readonly { id: number; name: string }[],
): (ImportedMessage & { characterId?: number })[] {
  if (cast.length <= 1) return messages.map((message) => ({ ...message }));
  const byName = new Map(cast.map((member) => [member.name.trim().toLowerCase(), member.id]));
  const unknown = new Set<string>();
  const mapped = messages.map((message) => {
    if (message.isUser) return { ...message };
    const id = message.name === undefined ? cast[0]!.id : byName.get(message.name.trim().toLowerCase());
    if (id === undefined) {
      unknown.add(message.name!);
      return { ...message };
    }
    return { ...message, characterId: id };
  });
  if (unknown.size > 0) {
    const names = [...unknown].slice(0, 10).map((name) => `"${name.slice(0, 80)}"`);
    throw invalid(
      `The chat has replies from ${names.join(", ")}${unknown.size > 10 ? " and others" : ""}, who ${unknown.size === 1 ? "is" : "are"} not among the chosen characters (${cast.map((member) => member.name).join(", ")}). Choose a character for every name in the chat.`,
    );
  }
  return mapped;
}
