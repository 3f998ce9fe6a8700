import { describe, expect, it } from "vitest";
import { isSaveBlocked, shouldCheckUsername, usernameAvailability, withAtPrefix } from "./username.ts";

describe("withAtPrefix", () => {
  it("adds a missing @", () => {
    expect(withAtPrefix("mira")).toBe("@mira");
    expect(withAtPrefix("m")).toBe("@m");
  });

  it("keeps an @ that is there and leaves an empty input empty", () => {
    expect(withAtPrefix("@mira")).toBe("@mira");
    expect(withAtPrefix("@")).toBe("@");
    expect(withAtPrefix("")).toBe("");
  });
});

describe("shouldCheckUsername", () => {
  it("checks a changed, non-empty name only", () => {
    expect(shouldCheckUsername("@new", "@old")).toBe(true);
    expect(shouldCheckUsername("", "@old")).toBe(false);
    expect(shouldCheckUsername("@old", "@old")).toBe(false);
  });
});

describe("usernameAvailability", () => {
  const idle = { isFetching: false, isError: false, data: undefined };
  const base = { username: "@new", current: "@old", checked: "@new" };

  it("is unknown for an empty or unchanged name", () => {
    expect(usernameAvailability({ ...base, username: "", checked: "", check: idle })).toBe("unknown");
    expect(usernameAvailability({ ...base, username: "@old", checked: "@old", check: idle })).toBe("unknown");
  });

  it("is checking while typing goes on or the answer is awaited", () => {
    expect(usernameAvailability({ ...base, checked: "@ne", check: idle })).toBe("checking");
    expect(usernameAvailability({ ...base, check: { ...idle, isFetching: true } })).toBe("checking");
  });

  it("is available or taken from the answer", () => {
    expect(usernameAvailability({ ...base, check: { ...idle, data: { available: true } } })).toBe("available");
    expect(usernameAvailability({ ...base, check: { ...idle, data: { available: false } } })).toBe("taken");
  });

  it("is unknown after a failed check", () => {
    expect(usernameAvailability({ ...base, check: { ...idle, isError: true } })).toBe("unknown");
  });
});

describe("isSaveBlocked", () => {
  it("blocks only a known-taken name that differs from the own one", () => {
    expect(isSaveBlocked("taken", "@bob", "@old")).toBe(true);
    expect(isSaveBlocked("taken", "@old", "@old")).toBe(false);
    expect(isSaveBlocked("available", "@bob", "@old")).toBe(false);
    expect(isSaveBlocked("checking", "@bob", "@old")).toBe(false);
    expect(isSaveBlocked("unknown", "@bob", "@old")).toBe(false);
  });
});
