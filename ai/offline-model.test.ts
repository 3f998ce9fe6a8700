/**
 * The offline model's quotations (only the words between a pair of
 * quotation marks are taken as the character's lines, never the narration
 * between two separate quotes) and its regenerates (another reply per
 * attempt, the same each time).
 */
import { describe, expect, it } from "vitest";
import { cardPronouns, OfflineChatModel, type OfflineCharacter, offlineContinuation, offlineReply, offlineSummary, quotedSpans } from "./offline-model.ts";

describe("quotedSpans", () => {
  it("pairs quotes in order, so the narration between two quotes is not a span", () => {
    expect(quotedSpans('"Hi," she said. "Bye."')).toEqual(["Hi,", "Bye."]);
    expect(quotedSpans("“Hi,” she said. “Bye.”")).toEqual(["Hi,", "Bye."]);
    expect(quotedSpans('*nods* "One." Then "two," and "three."')).toEqual(["One.", "two,", "three."]);
  });

  it("never pairs across lines; a quote left open, or a stray closing one, gives nothing", () => {
    expect(quotedSpans('"Unfinished line\nand the next one" ends here')).toEqual([]);
    expect(quotedSpans('He said ” nothing "at all"')).toEqual(["at all"]);
    expect(quotedSpans("“Wait — “Listen to me.”")).toEqual(["Listen to me."]);
    expect(quotedSpans("No quotes here.")).toEqual([]);
  });
});

const mara: OfflineCharacter = {
  name: "Mara",
  description: "A ferry pilot on a grey river.",
  personality: "Brisk and kind.",
  scenario: null,
  exampleConversation: null,
  greeting: '"Hi," she said, turning toward the fire at last. "The ferry leaves at dawn, so pack your things tonight."',
};

describe("offline replies quote only real speech", () => {
  const messages = ["Where are we going?", "Can I bring my dog along?", "Tell me about the river", "Is it safe at night?", "Why dawn?"];

  it("quotes the card's spoken line and never the narration between two quotes, the same each time", () => {
    for (const [turn, text] of messages.entries()) {
      const reply = offlineReply(mara, "Ines", text, turn + 2);
      expect(reply).toContain('"The ferry leaves at dawn, so pack your things tonight."');
      expect(reply).not.toContain("turning toward the fire");
      expect(offlineReply(mara, "Ines", text, turn + 2)).toBe(reply);
    }
  });

  it("with curly quotes and speech in the example dialogue too", () => {
    const curly: OfflineCharacter = {
      ...mara,
      greeting: "“Hi,” she said, turning toward the fire at last. “Hold on tight.”",
      exampleConversation: '{{user}}: Ready?\n{{char}}: "Nearly," she says, coiling the rope. "Mind the gap between the boards, they are wet."',
    };
    for (const [turn, text] of messages.entries()) {
      const reply = offlineReply(curly, "Ines", text, turn + 2);
      expect(reply).not.toMatch(/turning toward the fire|coiling the rope/);
      expect(reply).toContain('"Mind the gap between the boards, they are wet."');
    }
  });
});

describe("regenerating with the offline model", () => {
  it("each attempt gives another reply, the same one every time", async () => {
    const replies = Array.from({ length: 8 }, (_, attempt) => offlineReply(mara, "Ines", "Where are we going?", 2, attempt));
    expect(replies[0]).toBe(offlineReply(mara, "Ines", "Where are we going?", 2));
    expect(new Set(replies.map((reply) => reply.split(".*")[0])).size).toBe(8);
    expect(offlineReply(mara, "Ines", "Where are we going?", 2, 3)).toBe(replies[3]);

    const model = new OfflineChatModel(mara, "Ines", { wordDelayMs: 0 });
    const prompt = [
      { role: "system" as const, content: "card" },
      { role: "user" as const, content: "Where are we going?" },
    ];
    let streamed = "";
    for await (const piece of model.stream(prompt, { maxTokens: 100, attempt: 1 })) streamed += piece;
    expect(streamed).toBe(offlineReply(mara, "Ines", "Where are we going?", 1, 1));
  });
});

describe("offline continue and summary", () => {
  const card = {
    name: "Mara",
    description: "A ferry pilot.",
    personality: "Dry humour. Knows every current of the river by heart.",
    scenario: null,
    exampleConversation: null,
    greeting: '*Mara coils a rope.* "The river is high tonight, so hold on tight."',
  };

  it("a continuation is an action and a line of the character, the same every time", () => {
    const more = offlineContinuation(card, "Ines", "*Mara waves.* Welcome aboard.");
    expect(more).toMatch(/^\*Mara [^*]+, then goes on\.\* "The river is high tonight, so hold on tight\."$/);
    expect(offlineContinuation(card, "Ines", "*Mara waves.* Welcome aboard.")).toBe(more);
  });

  it("a summary is the summary so far and one sentence per message from its own words", () => {
    const request = "Summary so far:\nInes boarded.\n\nNew messages:\nInes: Where are we going tonight? I have a letter.\nMara: *shrugs* Downstream, as always.";
    expect(offlineSummary(request)).toBe('Ines boarded. Ines said: "Where are we going tonight". Mara said: "shrugs Downstream, as always".');
    expect(offlineSummary("New messages:\n" + "Ines: word ".repeat(1).trim() + "\n")).toBe('Ines said: "word".');
    const long = `New messages:\n${Array.from({ length: 200 }, (_, i) => `Ines: message number ${i} with some words`).join("\n")}`;
    const summary = offlineSummary(long);
    expect(summary.length).toBeLessThanOrEqual(2000);
    expect(summary.endsWith('Ines said: "message number 199 with some words".')).toBe(true);
  });
});

describe("the offline model under a person's settings", () => {
  const prompt = [
    { role: "system" as const, content: "card" },
    { role: "user" as const, content: "Where are we going, and when do we get there?" },
  ];
  const stream = async (options: Parameters<OfflineChatModel["stream"]>[1]) => {
    let text = "";
    for await (const piece of new OfflineChatModel(mara, "Ines", { wordDelayMs: 0 }).stream(prompt, options)) text += piece;
    return text;
  };

  it("writes at most maxTokens words (one word is one token)", async () => {
    const full = await stream({ maxTokens: 512 });
    expect(full.trim().split(/\s+/).length).toBeGreaterThan(16);
    const short = await stream({ maxTokens: 16 });
    expect(short.trim().split(/\s+/)).toHaveLength(16);
    expect(full.startsWith(short)).toBe(true);
  });

  it("ends before the first stop string", async () => {
    const full = await stream({ maxTokens: 512 });
    const stopped = await stream({ maxTokens: 512, sampling: { stop: ["Ines", "."] } });
    expect(stopped).toBe(full.slice(0, Math.min(full.indexOf("Ines"), full.indexOf("."))));
    expect(stopped).not.toContain(".");
  });
});

describe("the offline model reads as a character (issue 41)", () => {
  const wren: OfflineCharacter = {
    name: "Wren",
    description: "A lighthouse keeper.",
    personality: "Patient, watchful and warm. She tells long stories about ships.",
    scenario: "A lighthouse on a stormy night.",
    exampleConversation: null,
    greeting: '*The keeper lights the lamp.* "Come in out of the rain, {{user}}."',
  };
  const said = ["Hi Wren", "Where do the ships go at night?", "I lost my brother at sea last winter.", "Can you teach me to light the lamp?", "The storm frightens me."];

  it("answers the message instead of quoting it back", () => {
    for (const [i, text] of said.entries()) {
      const reply = offlineReply(wren, "Ines", text, 2 * i + 1);
      expect(reply).not.toContain(text.replace(/[.?!]$/, ""));
      expect(reply).not.toMatch(/repeats softly|echoes|turning the words over/);
    }
    expect(offlineReply(wren, "Ines", "Hi Wren", 1)).toMatch(/"(Hello, Ines\. I'm glad you came\.|There you are, Ines\.|Well met, Ines\. Sit, if you like\.)"/);
    expect(offlineReply(wren, "Ines", "Where do the ships go at night?", 3)).toMatch(/ships/i);
  });

  it("uses the card's pronouns: her for a woman, his for a man, their only when the card says so or says nothing", () => {
    expect(cardPronouns(wren).possessive).toBe("her");
    expect(cardPronouns({ ...wren, personality: "Gruff. He mends nets and his hands are scarred." }).possessive).toBe("his");
    expect(cardPronouns({ ...wren, personality: "Calm. Pronouns: they/them. She is mentioned in old songs." }).possessive).toBe("their");
    expect(cardPronouns({ ...wren, personality: "Calm and exact.", greeting: '"Welcome."' }).possessive).toBe("their");
    const replies = Array.from({ length: 26 }, (_, turn) => offlineReply(wren, "Ines", "Tell me about the lamp", turn));
    expect(replies.some((reply) => reply.includes(" her "))).toBe(true);
    expect(replies.join(" ")).not.toMatch(/\btheir (head|hands)\b/);
  });

  it("opens differently from one reply to the next across a chat, and the same each time", () => {
    const openings = said.map((text, i) => offlineReply(wren, "Ines", text, 2 * i + 1).split(".*")[0]);
    for (let i = 1; i < openings.length; i++) expect(openings[i]).not.toBe(openings[i - 1]);
    expect(new Set(openings).size).toBe(openings.length);
    expect(said.map((text, i) => offlineReply(wren, "Ines", text, 2 * i + 1).split(".*")[0])).toEqual(openings);
    // Past the history window the turn stops growing: the last reply's opening is still not used again.
    const last = offlineReply(wren, "Ines", "The storm frightens me.", 40);
    const next = offlineReply(wren, "Ines", "Where do the ships go at night?", 40, 0, last);
    expect(next.split(".*")[0]).not.toBe(last.split(".*")[0]);
  });
});
