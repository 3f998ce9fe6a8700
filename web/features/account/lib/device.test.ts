import { describe, expect, it } from "vitest";
import { deviceKind, deviceName } from "./device.ts";

const CASES: [string, string | null, string, "mobile" | "desktop"][] = [
  ["Chrome on Linux", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36", "Chrome on Linux", "desktop"],
  ["Safari on an iPhone", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", "Safari on iOS", "mobile"],
  ["Firefox on Windows", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox on Windows", "desktop"],
  ["Chrome on Android", "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", "Chrome on Android", "mobile"],
  ["no user agent", null, "Unknown device", "desktop"],
  ["a script", "curl/8.5.0", "curl", "desktop"],
];

describe("a session's device in words", () => {
  it.each(CASES)("%s", (_, userAgent, name, kind) => {
    expect(deviceName(userAgent)).toBe(name);
    expect(deviceKind(userAgent)).toBe(kind);
  });
});
