/** What the chat shows of a reply's tokens (lib/reply-usage.ts): per version, and in words. */
import { describe, expect, it } from "vitest";
import { tokensText, versionTokens } from "./reply-usage.ts";

const u = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens });

describe("versionTokens", () => {
  it("a reply of one version: its usage, or nothing", () => {
    expect(versionTokens({ content: "Hi", alternatives: [], usage: u(10, 2) }, 0)).toEqual(u(10, 2));
    expect(versionTokens({ content: "Hi", alternatives: [] }, 0)).toBeNull();
  });

  it("swipes: each version's own, in written order, wherever the shown one stands", () => {
    const reply = { content: "B", alternatives: ["A", "C"], swipeIndex: 1, usage: u(5, 6), versionUsage: [u(1, 2), u(5, 6), null] };
    expect([0, 1, 2].map((i) => versionTokens(reply, i))).toEqual([u(1, 2), u(5, 6), null]);
    // Without versionUsage only the version shown is known.
    expect(versionTokens({ content: "B", alternatives: ["A"], usage: u(5, 6) }, 1)).toEqual(u(5, 6));
    expect(versionTokens({ content: "B", alternatives: ["A"], usage: u(5, 6) }, 0)).toBeNull();
  });
});

describe("tokensText", () => {
  it("says the reply's tokens, and both counts with thousands separators for the tooltip", () => {
    expect(tokensText(u(2801, 312))).toEqual({ short: "312 tokens", detail: "prompt 2,801 · reply 312" });
    expect(tokensText(u(40, 1))).toEqual({ short: "1 token", detail: "prompt 40 · reply 1" });
  });
});
