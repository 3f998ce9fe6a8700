import { describe, expect, it } from "vitest";
import { loginPath, suspensionText } from "./auth.ts";

const SENTENCE = "Your account has been suspended for breaking Fabled's rules. You can no longer post, chat or create characters.";

describe("suspensionText", () => {
  it("is the sentence of a 403 answer to GET /api/auth/user", () => {
    expect(suspensionText(new Error(`403: ${JSON.stringify({ error: SENTENCE, code: "forbidden" })}`))).toBe(SENTENCE);
  });

  it("is null for anything else: no error, a visitor's 401, a server failure", () => {
    expect(suspensionText(null)).toBeNull();
    expect(suspensionText(new Error('401: {"error":"Unauthorized","code":"unauthorized"}'))).toBeNull();
    expect(suspensionText(new Error("500: Internal Server Error"))).toBeNull();
  });
});

describe("loginPath", () => {
  it("carries the page to come back to", () => {
    expect(loginPath("/character/12")).toBe("/api/login?returnTo=%2Fcharacter%2F12");
    expect(loginPath("/?q=elf&tags=fantasy")).toBe("/api/login?returnTo=%2F%3Fq%3Delf%26tags%3Dfantasy");
  });

  it("is the plain sign-in path for Home and for anything that is not a path on this site", () => {
    for (const returnTo of [undefined, "", "/", "//evil.example", "https://evil.example"]) expect(loginPath(returnTo)).toBe("/api/login");
  });
});
