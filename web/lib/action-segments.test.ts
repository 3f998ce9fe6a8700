import { describe, expect, it } from "vitest";
import { parseSegments, plainText } from "./action-segments.ts";

describe("parseSegments", () => {
  it("reads **…** as an action and *…* as an emote", () => {
    expect(parseSegments("*waves* Hi there. **draws her sword** Ready?")).toEqual([
      { kind: "emote", text: "waves" },
      { kind: "text", text: " Hi there. " },
      { kind: "action", text: "draws her sword" },
      { kind: "text", text: " Ready?" },
    ]);
  });

  it("leaves text without asterisks alone", () => {
    expect(parseSegments("Just words.")).toEqual([{ kind: "text", text: "Just words." }]);
    expect(parseSegments("")).toEqual([]);
  });

  it("keeps an asterisk without a partner literal", () => {
    expect(parseSegments("5 * 3 is 15")).toEqual([{ kind: "text", text: "5 * 3 is 15" }]);
    expect(parseSegments("*sighs and looks away")).toEqual([{ kind: "text", text: "*sighs and looks away" }]);
    expect(parseSegments("**bold start only")).toEqual([{ kind: "text", text: "**bold start only" }]);
    expect(parseSegments("a ** b")).toEqual([{ kind: "text", text: "a ** b" }]);
  });

  it("needs a non-space inside each end of the run", () => {
    expect(parseSegments("2 * 3 * 4")).toEqual([{ kind: "text", text: "2 * 3 * 4" }]);
    expect(parseSegments("** spaced **")).toEqual([{ kind: "text", text: "** spaced **" }]);
    expect(parseSegments("****")).toEqual([{ kind: "text", text: "****" }]);
  });

  it("keeps line breaks and lets a segment span a single line break", () => {
    expect(parseSegments("*walks in*\n\"Hello.\"")).toEqual([
      { kind: "emote", text: "walks in" },
      { kind: "text", text: '\n"Hello."' },
    ]);
    expect(parseSegments("**leans in\nand whispers**")).toEqual([{ kind: "action", text: "leans in\nand whispers" }]);
  });

  it("never crosses a blank line: an unmatched asterisk does not style the next paragraph", () => {
    expect(parseSegments("*starts\n\nends*")).toEqual([{ kind: "text", text: "*starts\n\nends*" }]);
    expect(parseSegments("*one*\n\n*two*")).toEqual([
      { kind: "emote", text: "one" },
      { kind: "text", text: "\n\n" },
      { kind: "emote", text: "two" },
    ]);
  });

  it("reads several segments in a row and a segment beside punctuation", () => {
    expect(parseSegments("*nods*, **grins**!")).toEqual([
      { kind: "emote", text: "nods" },
      { kind: "text", text: ", " },
      { kind: "action", text: "grins" },
      { kind: "text", text: "!" },
    ]);
  });

  it("returns text for React to render, markup included verbatim", () => {
    expect(parseSegments("<b>*hi*</b>")).toEqual([
      { kind: "text", text: "<b>" },
      { kind: "emote", text: "hi" },
      { kind: "text", text: "</b>" },
    ]);
  });
});

describe("parseSegments while a reply streams", () => {
  it("styles an action or emote whose closing asterisks have not arrived yet", () => {
    expect(parseSegments("Hi *wav", { streaming: true })).toEqual([
      { kind: "text", text: "Hi " },
      { kind: "emote", text: "wav" },
    ]);
    expect(parseSegments("*nods* **draws her sw", { streaming: true })).toEqual([
      { kind: "emote", text: "nods" },
      { kind: "text", text: " " },
      { kind: "action", text: "draws her sw" },
    ]);
  });

  it("leaves finished text, a lone asterisk and a new paragraph alone", () => {
    expect(parseSegments("Hi *waves*", { streaming: true })).toEqual(parseSegments("Hi *waves*"));
    expect(parseSegments("2 * ", { streaming: true })).toEqual([{ kind: "text", text: "2 * " }]);
    expect(parseSegments("*a\n\nb", { streaming: true })).toEqual([{ kind: "text", text: "*a\n\nb" }]);
    expect(parseSegments("Hi *wav")).toEqual([{ kind: "text", text: "Hi *wav" }]);
  });
});

describe("plainText", () => {
  it("drops the asterisks and folds whitespace", () => {
    expect(plainText("*You drop the box.*\n\n\"Oh! Hi.\" **waves**")).toBe('You drop the box. "Oh! Hi." waves');
  });

  it("drops the opening asterisk of an action cut off by the preview's length", () => {
    expect(plainText("*The door slams behind you, and a young wo")).toBe("The door slams behind you, and a young wo");
  });
});
