import { describe, expect, it } from "vitest";
import { backgroundPicture, expressionPicture } from "./expressions.ts";

const joy = { type: "emotion", name: "joy", url: "/objects/assets/a", ext: "png" };
const neutral = { type: "emotion", name: "neutral", url: "/objects/assets/b", ext: "png" };

describe("expressionPicture", () => {
  it("the reply's label, else neutral, else none", () => {
    expect(expressionPicture([joy, neutral], "joy")).toBe(joy);
    expect(expressionPicture([joy, neutral], null)).toBe(neutral);
    expect(expressionPicture([joy, neutral], "anger")).toBe(neutral);
    expect(expressionPicture([joy], undefined)).toBeNull();
    expect(expressionPicture([], "joy")).toBeNull();
  });
});

describe("backgroundPicture", () => {
  it("finds the named background only", () => {
    const harbor = { type: "background", name: "harbor", url: "/objects/assets/c", ext: "jpg" };
    expect(backgroundPicture([joy, harbor], "harbor")).toBe(harbor);
    expect(backgroundPicture([joy, harbor], "joy")).toBeNull();
    expect(backgroundPicture([harbor], null)).toBeNull();
  });
});
