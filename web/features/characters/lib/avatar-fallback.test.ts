import { describe, expect, it } from "vitest";
import { avatarGradient, avatarInitial } from "./avatar-fallback.ts";

describe("avatarGradient", () => {
  it("is the same for the same character", () => {
    expect(avatarGradient(7, "Aria")).toBe(avatarGradient(7, "Aria"));
  });

  it("differs between characters", () => {
    const gradients = new Set([1, 2, 3, 4, 5, 6].map((id) => avatarGradient(id, "Aria")));
    expect(gradients.size).toBeGreaterThan(3);
  });

  it("is a linear gradient of two hsl colours", () => {
    expect(avatarGradient(1, "x")).toMatch(/^linear-gradient\(135deg, hsl\(\d+ 65% 36%\), hsl\(\d+ 70% 20%\)\)$/);
  });
});

describe("avatarInitial", () => {
  it("is the first letter, upper case", () => {
    expect(avatarInitial("luna")).toBe("L");
    expect(avatarInitial("  élise")).toBe("É");
    expect(avatarInitial('"Captain" Rex')).toBe("C");
  });

  it("is ? when the name has no letter", () => {
    expect(avatarInitial("")).toBe("?");
    expect(avatarInitial("!!!")).toBe("?");
  });
});
