/**
 * The offline model's quotations: only the words between a pair of
 * quotation marks are taken as the character's lines, never the narration
 * between two separate quotes.
 */
import { describe, expect, it } from "vitest";
import { type OfflineCharacter, offlineReply, quotedSpans } from "./offline-model.ts";

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
