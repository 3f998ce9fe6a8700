import { describe, expect, it } from "vitest";
import { labelFromFileName } from "./expression-label.ts";

describe("labelFromFileName", () => {
  it.each([
    ["joy.png", "joy"],
    ["Joy_2.webp", "joy"],
    ["wren-anger.png", "anger"],
    ["03 surprise.gif", "surprise"],
    ["Smug Grin.png", "smug grin"],
    ["12.png", "neutral"],
  ])("%s → %s", (name, label) => {
    expect(labelFromFileName(name)).toBe(label);
  });
});
