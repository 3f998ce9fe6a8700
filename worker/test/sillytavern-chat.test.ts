/**
 * Chat export and import in SillyTavern's chat file format and as Markdown
 * (worker/lib/sillytavern-chat.ts): a file written the way SillyTavern
 * writes it imports to the right messages, an export reads back to the
 * same messages and the same file, and broken or oversized files get a
 * 400 (413 for size) saying what is wrong and where.
 */
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../schema/chat.ts";
import { ApiError } from "../lib/errors.ts";
import {
  MAX_CHAT_IMPORT_BYTES,
  MAX_CHAT_IMPORT_MESSAGES,
  MAX_IMPORTED_MESSAGE_LENGTH,
  MAX_IMPORTED_SWIPES,
  humanizedDateTime,
  parseSillyTavernDate,
  readSillyTavernJsonl,
  writeChatMarkdown,
  writeSillyTavernJsonl,
  type ExportChat,
  type ImportedMessage,
} from "../lib/sillytavern-chat.ts";

type Json = Record<string, any>;

/** The error `run` throws (fails the test when it throws none). */
function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected an error");
}

const rejects = (text: string, sentence: string, status = 400) => {
  const error = errorOf(() => readSillyTavernJsonl(text));
  expect({ status: error.status, message: error.message }).toEqual({ status, message: sentence });
};

const jsonl = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n");
const HEADER = { user_name: "Mira", character_name: "Seraphina", create_date: "2025-11-23@14h05m09s123ms", chat_metadata: {} };
const userLine = (mes: unknown, extra: Json = {}) => ({
  name: "Mira",
  is_user: true,
  is_system: false,
  send_date: "2025-11-23T14:06:00.000Z",
  mes,
  extra: {},
  ...extra,
});
const replyLine = (mes: unknown, extra: Json = {}) => ({ ...userLine(mes), name: "Seraphina", is_user: false, ...extra });

/**
 * A chat as SillyTavern 1.12 writes it (public/script.js `saveChat`,
 * `getFirstMessage`, `sendMessageAsUser`, `saveReply`; dates from
 * `humanizedDateTime` and `getMessageTimeStamp`), continued in a
 * SillyTavern of November 2025 or later (ISO `send_date`), saved on Windows (CRLF)
 * with a trailing line end: the greeting, a person's message, a reply with
 * three swipes showing the second, a system notice, a message hidden with
 * /hide, a later exchange.
 */
const SILLYTAVERN_CHAT = [
  `{"user_name":"Mira","character_name":"Seraphina","create_date":"2024-09-28@01h02m36s","chat_metadata":{"integrity":"6f1c1b3e-2d1e-4c47-9a0c-5e2f0d1b7a44","note_prompt":"","note_interval":1,"note_position":1,"note_depth":4,"tainted":true}}`,
  `{"name":"Seraphina","is_user":false,"is_system":false,"send_date":"September 28, 2024 1:02am","mes":"*Seraphina's eyes flutter open.* Welcome to the glade, {{user}}.","extra":{}}`,
  `{"name":"Mira","is_user":true,"is_system":false,"send_date":"September 28, 2024 1:03am","mes":"  Where am I?\\n","extra":{"isSmallSys":false},"force_avatar":"User Avatars/1727484156542-Mira.png"}`,
  `{"extra":{"api":"openai","model":"gpt-4o-mini"},"name":"Seraphina","is_user":false,"send_date":"September 28, 2024 1:05pm","mes":"You are safe here, in my glade.","title":"","gen_started":"2024-09-28T13:04:58.120Z","gen_finished":"2024-09-28T13:05:03.441Z","swipe_id":1,"swipes":["The forest brought you to me.","You are safe here, in my glade.","*She smiles.* Rest first; questions later."],"swipe_info":[{"send_date":"September 28, 2024 1:04pm","gen_started":"2024-09-28T13:04:01.000Z","gen_finished":"2024-09-28T13:04:06.000Z","extra":{"api":"openai","model":"gpt-4o-mini"}},{"send_date":"September 28, 2024 1:05pm","gen_started":"2024-09-28T13:04:58.120Z","gen_finished":"2024-09-28T13:05:03.441Z","extra":{"api":"openai","model":"gpt-4o-mini"}},{"send_date":"September 28, 2024 1:05pm","gen_started":"2024-09-28T13:05:10.000Z","gen_finished":"2024-09-28T13:05:14.000Z","extra":{"api":"openai","model":"gpt-4o-mini"}}]}`,
  `{"name":"SillyTavern System","force_avatar":"img/five.png","is_user":false,"is_system":true,"send_date":"September 28, 2024 1:06pm","mes":"Chat bookmark created.","extra":{"type":"comment","isSmallSys":true}}`,
  `{"name":"Mira","is_user":true,"is_system":true,"send_date":"September 28, 2024 1:07pm","mes":"(ooc: ignore this)","extra":{"isSmallSys":false}}`,
  `{"name":"Mira","is_user":true,"is_system":false,"send_date":"2025-11-23T14:05:09.123Z","mes":"Thank you, Seraphina.","extra":{"isSmallSys":false}}`,
  `{"extra":{"api":"openai","model":"gpt-4o-mini"},"name":"Seraphina","is_user":false,"send_date":"2025-11-23T14:05:20.456Z","mes":"*She nods.*","title":"","gen_started":"2025-11-23T14:05:15.000Z","gen_finished":"2025-11-23T14:05:20.456Z","swipe_id":0,"swipes":["*She nods.*"],"swipe_info":[{"send_date":"2025-11-23T14:05:20.456Z","gen_started":"2025-11-23T14:05:15.000Z","gen_finished":"2025-11-23T14:05:20.456Z","extra":{"api":"openai","model":"gpt-4o-mini"}}]}`,
  ``,
].join("\r\n");

describe("reading SillyTavern's chat file", () => {
  it("imports a chat as SillyTavern writes it: names, dates, swipes; system and hidden messages left out", () => {
    expect(readSillyTavernJsonl(SILLYTAVERN_CHAT)).toEqual({
      characterName: "Seraphina",
      userName: "Mira",
      createdAt: Date.UTC(2024, 8, 28, 1, 2, 36),
      messages: [
        {
          isUser: false,
          content: "*Seraphina's eyes flutter open.* Welcome to the glade, {{user}}.",
          createdAt: Date.UTC(2024, 8, 28, 1, 2),
          alternatives: [],
          name: "Seraphina",
        },
        { isUser: true, content: "Where am I?", createdAt: Date.UTC(2024, 8, 28, 1, 3), alternatives: [], name: "Mira" },
        {
          isUser: false,
          content: "You are safe here, in my glade.",
          createdAt: Date.UTC(2024, 8, 28, 13, 5),
          alternatives: ["The forest brought you to me.", "*She smiles.* Rest first; questions later."],
          swipeIndex: 1,
          name: "Seraphina",
        },
        { isUser: true, content: "Thank you, Seraphina.", createdAt: Date.parse("2025-11-23T14:05:09.123Z"), alternatives: [], name: "Mira" },
        { isUser: false, content: "*She nods.*", createdAt: Date.parse("2025-11-23T14:05:20.456Z"), alternatives: [], name: "Seraphina" },
      ],
    } satisfies ReturnType<typeof readSillyTavernJsonl>);
  });

  it("drops a byte order mark and reads a file without a trailing line end", () => {
    const plain = jsonl(HEADER, userLine("Hi"));
    expect(readSillyTavernJsonl(`\uFEFF${plain}`)).toEqual(readSillyTavernJsonl(`${plain}\n`));
    expect(readSillyTavernJsonl(`\uFEFF${plain}`).messages.map((m) => m.content)).toEqual(["Hi"]);
  });

  it("reads a file whose first line is already a message, with the names from the messages", () => {
    const chat = readSillyTavernJsonl(jsonl(userLine("Hello?"), replyLine("Hello.")));
    expect(chat).toMatchObject({ userName: "Mira", characterName: "Seraphina", createdAt: null });
    expect(chat.messages.map((m) => [m.isUser, m.content])).toEqual([
      [true, "Hello?"],
      [false, "Hello."],
    ]);
  });

  it("skips empty messages and keeps text as written, trimmed", () => {
    const chat = readSillyTavernJsonl(jsonl(HEADER, userLine("  \n "), userLine("\t{{char}}, *waves*  \n"), replyLine("")));
    expect(chat.messages.map((m) => m.content)).toEqual(["{{char}}, *waves*"]);
  });

  it("takes `mes` as the shown swipe when it differs from swipes[swipe_id], and finds or adds it when swipe_id is off", () => {
    const versionsOf = (line: Json) => {
      const [message] = readSillyTavernJsonl(jsonl(HEADER, line)).messages as [ImportedMessage];
      return { content: message.content, alternatives: message.alternatives, swipeIndex: message.swipeIndex };
    };
    // Edited after it was written: `mes` is what SillyTavern shows and prompts with.
    expect(versionsOf(replyLine("B, edited", { swipe_id: 1, swipes: ["A", "B", "C"] }))).toEqual({
      content: "B, edited",
      alternatives: ["A", "C"],
      swipeIndex: 1,
    });
    expect(versionsOf(replyLine("A", { swipe_id: 7, swipes: ["A", "B"] }))).toEqual({
      content: "A",
      alternatives: ["B"],
      swipeIndex: 0,
    });
    expect(versionsOf(replyLine("D", { swipes: ["A", "B"] }))).toEqual({
      content: "D",
      alternatives: ["A", "B"],
      swipeIndex: undefined,
    });
    // Empty and non-text swipes are dropped; the index follows the kept ones.
    expect(versionsOf(replyLine("C", { swipe_id: 3, swipes: ["A", "", 5, "C", "D"] }))).toEqual({
      content: "C",
      alternatives: ["A", "D"],
      swipeIndex: 1,
    });
    // The person's messages have no versions.
    const [own] = readSillyTavernJsonl(jsonl(HEADER, userLine("Mine", { swipe_id: 0, swipes: ["Other", "Mine"] }))).messages;
    expect(own).toEqual({ isUser: true, content: "Mine", createdAt: Date.parse("2025-11-23T14:06:00.000Z"), alternatives: [], name: "Mira" });
  });

  it("reads Chub's variant ({ message } objects), as SillyTavern's importer flattens it", () => {
    const [message] = readSillyTavernJsonl(
      jsonl(HEADER, replyLine({ message: "Two" }, { swipe_id: 1, swipes: [{ message: "One" }, { message: "Two" }] })),
    ).messages;
    expect(message).toMatchObject({ content: "Two", alternatives: ["One"] });
    expect(message!.swipeIndex).toBeUndefined();
  });

  it("gives a message whose date cannot be read the previous message's time, else the chat's, else the import time", () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5);
    const times = (text: string) => readSillyTavernJsonl(text, { now }).messages.map((m) => m.createdAt);
    const noDate = { send_date: "yesterday-ish" };
    expect(times(jsonl(HEADER, userLine("a"), replyLine("b", noDate), userLine("c", { send_date: 12 })))).toEqual([
      Date.parse("2025-11-23T14:06:00.000Z"),
      Date.parse("2025-11-23T14:06:00.000Z"),
      12,
    ]);
    expect(times(jsonl(HEADER, userLine("a", noDate)))).toEqual([Date.UTC(2025, 10, 23, 14, 5, 9, 123)]);
    expect(times(jsonl({ ...HEADER, create_date: null }, userLine("a", { send_date: undefined })))).toEqual([now]);
  });
});

describe("SillyTavern's dates", () => {
  it.each([
    ["ISO 8601 (send_date since PR #4806)", "2025-11-23T14:05:09.123Z", Date.UTC(2025, 10, 23, 14, 5, 9, 123)],
    ["ISO 8601 with an offset", "2025-11-23T16:05:09+02:00", Date.UTC(2025, 10, 23, 14, 5, 9)],
    ["ISO 8601 date only", "2025-11-23", Date.UTC(2025, 10, 23)],
    ["ISO 8601 with a negative offset and microseconds", "2025-11-23T09:35:09.123456-04:30", Date.UTC(2025, 10, 23, 14, 5, 9, 123)],
    ["meridiem (send_date before PR #4806)", "June 19, 2023 2:20pm", Date.UTC(2023, 5, 19, 14, 20)],
    ["meridiem, 12 am is midnight", "January 1, 2024 12:05am", Date.UTC(2024, 0, 1, 0, 5)],
    ["meridiem, 12 pm is noon", "Dec 31, 2024 12:59PM", Date.UTC(2024, 11, 31, 12, 59)],
    ["humanized with ms (create_date since PR #4806)", "2025-11-23@14h05m09s123ms", Date.UTC(2025, 10, 23, 14, 5, 9, 123)],
    ["humanized (create_date before PR #4806)", "2024-7-12@01h31m37s", Date.UTC(2024, 6, 12, 1, 31, 37)],
    ["humanized, server import", "2024-6-5 @14h 56m 50s 682ms", Date.UTC(2024, 5, 5, 14, 56, 50, 682)],
    ["unix ms (Kobold Lite, RisuAI imports)", 1_700_000_000_000, 1_700_000_000_000],
    ["unix ms as digits", "1700000000000", 1_700_000_000_000],
  ])("reads %s", (_, value, ms) => {
    expect(parseSillyTavernDate(value)).toBe(ms);
  });

  it.each([[""], ["2025-02-30T00:00:00Z"], ["2025-11-23T24:00:00Z"], ["June 31, 2023 2:20pm"], ["Smarch 1, 2023 2:20pm"], ["2024-13-01@01h00m00s"], [-5], [{}], [null], ["soon"]])(
    "cannot read %j",
    (value) => {
      expect(parseSillyTavernDate(value)).toBeNull();
    },
  );

  it("writes create_date the way SillyTavern's humanizedDateTime does, in UTC", () => {
    expect(humanizedDateTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6))).toBe("2025-01-02@03h04m05s006ms");
    expect(parseSillyTavernDate(humanizedDateTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6)))).toBe(Date.UTC(2025, 0, 2, 3, 4, 5, 6));
  });
});

/** A stored message as `history_sync` gives it. */
function stored(fields: Partial<ChatMessage> & Pick<ChatMessage, "content" | "isUser" | "createdAt">): ChatMessage {
  return { id: crypto.randomUUID(), conversationId: "c1", clientId: null, rating: null, alternatives: [], ...fields };
}

const CHAT: ExportChat = {
  userName: "Mira",
  characterName: "Seraphina",
  createdAt: "2025-03-01T09:00:00.000Z",
  messages: [
    stored({ isUser: false, content: "Welcome, {{user}}.", createdAt: "2025-03-01T09:00:00.000Z" }),
    stored({ isUser: true, content: "Hi!\nWhere am I?", createdAt: "2025-03-01T09:01:30.250Z", clientId: "k1" }),
    stored({
      isUser: false,
      content: "In my glade.",
      createdAt: "2025-03-01T09:01:35.999Z",
      alternatives: ["In the forest.", "Safe."],
      swipeIndex: 1,
      rating: 1,
    }),
    stored({ isUser: true, content: "Thanks.", createdAt: "2025-03-01T09:02:00.000Z" }),
    stored({ isUser: false, content: "Rest now.", createdAt: "2025-03-01T09:02:04.000Z", alternatives: ["Sleep."] }),
  ],
};

describe("writing SillyTavern's chat file", () => {
  it("writes the metadata line and one line per message in SillyTavern's shape", () => {
    const text = writeSillyTavernJsonl({ ...CHAT, chatMetadata: { note_prompt: "" } });
    expect(text.endsWith("\n")).toBe(false);
    const [header, ...lines] = text.split("\n").map((line) => JSON.parse(line) as Json);
    expect(Object.keys(header!)).toEqual(["user_name", "character_name", "create_date", "chat_metadata"]);
    expect(header).toEqual({
      user_name: "Mira",
      character_name: "Seraphina",
      create_date: "2025-03-01@09h00m00s000ms",
      chat_metadata: { note_prompt: "" },
    });
    expect(lines).toHaveLength(5);
    expect(lines[1]).toEqual({
      name: "Mira",
      is_user: true,
      is_system: false,
      send_date: "2025-03-01T09:01:30.250Z",
      mes: "Hi!\nWhere am I?",
      extra: {},
    });
    expect(lines[2]).toEqual({
      name: "Seraphina",
      is_user: false,
      is_system: false,
      send_date: "2025-03-01T09:01:35.999Z",
      mes: "In my glade.",
      extra: {},
      swipe_id: 1,
      swipes: ["In the forest.", "In my glade.", "Safe."],
      swipe_info: [
        { send_date: "2025-03-01T09:01:35.999Z", extra: {} },
        { send_date: "2025-03-01T09:01:35.999Z", extra: {} },
        { send_date: "2025-03-01T09:01:35.999Z", extra: {} },
      ],
    });
    // The newest version shown: swipe_id is the last.
    expect(lines[4]).toMatchObject({ mes: "Rest now.", swipe_id: 1, swipes: ["Sleep.", "Rest now."] });
    // No versions, no swipes (SillyTavern makes them itself on the first swipe).
    expect(lines[0]).not.toHaveProperty("swipes");
    expect(lines.every((line) => line.swipes === undefined || line.swipes[line.swipe_id] === line.mes)).toBe(true);
  });

  it("writes `{}` as chat_metadata when there is none, a name for empty names, and leaves out a reply still being written", () => {
    const text = writeSillyTavernJsonl({
      ...CHAT,
      userName: " ",
      messages: [CHAT.messages[1]!, stored({ isUser: false, content: "Half a rep", createdAt: CHAT.createdAt, status: "streaming" })],
    });
    const [header, ...lines] = text.split("\n").map((line) => JSON.parse(line) as Json);
    expect(header).toMatchObject({ user_name: "User", chat_metadata: {} });
    expect(lines.map((line) => [line.name, line.mes])).toEqual([["User", "Hi!\nWhere am I?"]]);
  });

  it("round-trips: export, import, export gives the same messages and the same file", () => {
    const first = writeSillyTavernJsonl(CHAT);
    const imported = readSillyTavernJsonl(first);
    expect(imported).toMatchObject({ userName: "Mira", characterName: "Seraphina", createdAt: Date.parse(CHAT.createdAt) });
    const versionFields = (m: ChatMessage | ImportedMessage) => ({
      isUser: m.isUser,
      content: m.content,
      alternatives: m.alternatives,
      swipeIndex: m.swipeIndex,
      createdAt: typeof m.createdAt === "number" ? m.createdAt : Date.parse(m.createdAt),
    });
    expect(imported.messages.map(versionFields)).toEqual(CHAT.messages.map(versionFields));

    const again: ExportChat = {
      userName: imported.userName!,
      characterName: imported.characterName!,
      createdAt: new Date(imported.createdAt!).toISOString(),
      messages: imported.messages.map((m) =>
        stored({ ...m, createdAt: new Date(m.createdAt).toISOString() }),
      ),
    };
    expect(writeSillyTavernJsonl(again)).toBe(first);
  });

  it("writes a picture as SillyTavern's image generation does: its full URL in extra.media and extra.image, the prompt as mes, left out of prompts", () => {
    const picture = stored({
      isUser: false,
      content: "",
      createdAt: "2025-03-01T09:03:00.000Z",
      kind: "image",
      imageUrl: "/objects/pictures/c1/p1",
      prompt: "Seraphina in a moonlit glade",
      width: 768,
      height: 768,
      characterId: 7,
    });
    const chat: ExportChat = { ...CHAT, messages: [CHAT.messages[0]!, picture], origin: "https://fabled.example", speakerNames: new Map([[7, "Seraphina"]]) };
    const [, greeting, line] = writeSillyTavernJsonl(chat).split("\n").map((text) => JSON.parse(text) as Json);
    expect(greeting).toMatchObject({ mes: "Welcome, {{user}}.", is_system: false });
    const url = "https://fabled.example/objects/pictures/c1/p1";
    expect(line).toEqual({
      name: "Seraphina",
      is_user: false,
      is_system: true,
      send_date: "2025-03-01T09:03:00.000Z",
      mes: "Seraphina in a moonlit glade",
      extra: {
        media: [{ url, type: "image", title: "Seraphina in a moonlit glade", source: "generated" }],
        media_display: "gallery",
        media_index: 0,
        inline_image: false,
        image: url,
        title: "Seraphina in a moonlit glade",
      },
    });
    // Read back, it is a system line: left out, as SillyTavern leaves it out of the prompt.
    expect(readSillyTavernJsonl(writeSillyTavernJsonl(chat)).messages.map((m) => m.content)).toEqual(["Welcome, {{user}}."]);
    // The Markdown transcript shows it as an image.
    expect(writeChatMarkdown(chat)).toContain(`**Seraphina** — 2025-03-01 09:03 UTC\n\n![Seraphina in a moonlit glade](<${url}>)\n`);
  });

  it("round-trips SillyTavern's own file to the same messages", () => {
    const imported = readSillyTavernJsonl(SILLYTAVERN_CHAT);
    const text = writeSillyTavernJsonl({
      userName: imported.userName!,
      characterName: imported.characterName!,
      createdAt: new Date(imported.createdAt!).toISOString(),
      messages: imported.messages.map((m) => stored({ ...m, createdAt: new Date(m.createdAt).toISOString() })),
    });
    expect(readSillyTavernJsonl(text)).toEqual(imported);
  });
});

describe("the Markdown transcript", () => {
  it("has a title, the dates, and each message's shown version with which of how many it is", () => {
    expect(writeChatMarkdown({ ...CHAT, userName: "Mira_*" }, Date.UTC(2025, 2, 5, 14, 2, 59))).toBe(
      [
        "# Chat with Seraphina",
        "",
        "Mira\\_\\* and Seraphina, started 2025-03-01 09:00 UTC, exported 2025-03-05 14:02 UTC.",
        "",
        "**Seraphina** — 2025-03-01 09:00 UTC",
        "",
        "Welcome, {{user}}.",
        "",
        "**Mira\\_\\*** — 2025-03-01 09:01 UTC",
        "",
        "Hi!\nWhere am I?",
        "",
        "**Seraphina** — 2025-03-01 09:01 UTC (2 of 3)",
        "",
        "In my glade.",
        "",
        "**Mira\\_\\*** — 2025-03-01 09:02 UTC",
        "",
        "Thanks.",
        "",
        "**Seraphina** — 2025-03-01 09:02 UTC (2 of 2)",
        "",
        "Rest now.",
        "",
      ].join("\n"),
    );
  });
});

describe("broken chat files", () => {
  it.each([
    ["an empty file", "", "The chat file is empty."],
    ["only blank lines and a BOM", "\uFEFF\r\n  \r\n", "The chat file is empty."],
    ["a line that is not JSON", `${jsonl(HEADER, userLine("a"))}\n\n{"mes": "b"`, "Line 4 is not JSON."],
    ["a character card", JSON.stringify({ spec: "chara_card_v2", data: { name: "Seraphina" } }), "This is not a SillyTavern chat: line 1 is neither chat metadata (user_name) nor a message (mes)."],
    ["a JSON array", "[1, 2]", "This is not a SillyTavern chat: line 1 is neither chat metadata (user_name) nor a message (mes)."],
    ["a JSON array after a blank line", "\n[1, 2]", "This is not a SillyTavern chat: line 2 is neither chat metadata (user_name) nor a message (mes)."],
    ["a message line that is not an object", jsonl(HEADER, userLine("a"), "b"), "Line 3 is not a chat message."],
    ["a line without mes", jsonl(HEADER, userLine("a"), { name: "Mira", is_user: true }), "Line 3 has no message text (mes)."],
    ["mes that is not text", jsonl(HEADER, userLine(42)), "Line 2 has no message text (mes)."],
    ["a second metadata line", jsonl(HEADER, userLine("a"), HEADER), "Line 3 has no message text (mes)."],
    ["no messages", jsonl(HEADER), "The chat has no messages to import."],
    ["only system and empty messages", jsonl(HEADER, userLine("a", { is_system: true }), replyLine(" ")), "The chat has no messages to import."],
  ])("%s", (_, text, sentence) => {
    rejects(text, sentence);
  });
});

describe("limits", () => {
  it("documents them", () => {
    expect([MAX_CHAT_IMPORT_BYTES, MAX_CHAT_IMPORT_MESSAGES, MAX_IMPORTED_MESSAGE_LENGTH, MAX_IMPORTED_SWIPES]).toEqual([
      5 * 1024 * 1024,
      5_000,
      16_000,
      32,
    ]);
  });

  it(`takes a file of ${MAX_CHAT_IMPORT_BYTES} characters and refuses one more with 413`, () => {
    const start = `${JSON.stringify(HEADER)}\n{"mes":"a","is_user":true`;
    const exact = `${start}${" ".repeat(MAX_CHAT_IMPORT_BYTES - start.length - 1)}}`;
    expect(exact.length).toBe(MAX_CHAT_IMPORT_BYTES);
    expect(readSillyTavernJsonl(exact).messages).toHaveLength(1);
    rejects(`${exact}\n`, "The chat file is too large (at most 5 MB)", 413);
  });

  it(`takes ${MAX_CHAT_IMPORT_MESSAGES} messages and refuses ${MAX_CHAT_IMPORT_MESSAGES + 1}`, () => {
    const lines = Array.from({ length: MAX_CHAT_IMPORT_MESSAGES }, (_, i) => (i % 2 ? replyLine(`r${i}`) : userLine(`u${i}`)));
    expect(readSillyTavernJsonl(jsonl(HEADER, ...lines)).messages).toHaveLength(MAX_CHAT_IMPORT_MESSAGES);
    // Left-out messages do not count.
    expect(readSillyTavernJsonl(jsonl(HEADER, ...lines, userLine("x", { is_system: true }), userLine(""))).messages).toHaveLength(
      MAX_CHAT_IMPORT_MESSAGES,
    );
    rejects(jsonl(HEADER, ...lines, userLine("one more")), "The chat has more than 5,000 messages; at most 5,000 can be imported.");
  });

  it(`takes a message of ${MAX_IMPORTED_MESSAGE_LENGTH} characters (after trimming) and refuses one more`, () => {
    const longest = "x".repeat(MAX_IMPORTED_MESSAGE_LENGTH);
    expect(readSillyTavernJsonl(jsonl(HEADER, userLine(`  ${longest}\n`))).messages[0]!.content).toBe(longest);
    rejects(
      jsonl(HEADER, userLine("a"), userLine(`${longest}x`)),
      "The message on line 3 is 16,001 characters long; at most 16,000 can be imported.",
    );
    rejects(
      jsonl(HEADER, replyLine("a", { swipe_id: 0, swipes: ["a", longest, `${longest}x`] })),
      "A swipe of the message on line 2 is 16,001 characters long; at most 16,000 can be imported.",
    );
  });

  it(`takes a reply with ${MAX_IMPORTED_SWIPES} swipes and refuses one with more`, () => {
    const swipes = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    const [reply] = readSillyTavernJsonl(jsonl(HEADER, replyLine("v0", { swipe_id: 0, swipes: swipes(32) }))).messages;
    expect(reply).toMatchObject({ content: "v0", swipeIndex: 0 });
    expect(reply!.alternatives).toHaveLength(31);
    rejects(
      jsonl(HEADER, replyLine("v0", { swipe_id: 0, swipes: swipes(33) })),
      "The message on line 2 has 33 swipes; at most 32 can be imported.",
    );
  });
});
