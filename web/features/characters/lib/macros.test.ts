import { describe, expect, it } from "vitest";
import { fillMacros } from "./macros.ts";

describe("fillMacros", () => {
  it("puts the character's name for {{char}} and User for {{user}}", () => {
    expect(fillMacros("{{user}}: Hi!\n{{char}}: *waves* Hello, {{user}}.", "Luna")).toBe(
      "User: Hi!\nLuna: *waves* Hello, User.",
    );
  });

  it("uses a given persona name", () => {
    expect(fillMacros("{{user}} has just moved in.", "Echo", "Sam")).toBe("Sam has just moved in.");
  });

  it("ignores case and knows the older <BOT>/<USER> spellings", () => {
    expect(fillMacros("{{Char}} and <BOT> meet <user>", "Rex")).toBe("Rex and Rex meet User");
  });

  it("leaves other text alone, even names with $ patterns", () => {
    expect(fillMacros("{{random}} {char}", "Rex")).toBe("{{random}} {char}");
    expect(fillMacros("{{char}}", "$& Co")).toBe("$& Co");
  });
});
