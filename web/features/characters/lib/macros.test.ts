import { describe, expect, it } from "vitest";
import { fillMacros } from "./macros.ts";

describe("fillMacros", () => {
  it("puts the character's name for {{char}} and You for {{user}}", () => {
    expect(fillMacros("{{user}}: Hi!\n{{char}}: *waves* Hello, {{user}}.", "Luna")).toBe(
      "You: Hi!\nLuna: *waves* Hello, You.",
    );
  });

  it("ignores case and knows the older <BOT>/<USER> spellings", () => {
    expect(fillMacros("{{Char}} and <BOT> meet <user>", "Rex")).toBe("Rex and Rex meet You");
  });

  it("leaves other text alone", () => {
    expect(fillMacros("{{random}} {char}", "Rex")).toBe("{{random}} {char}");
  });
});
