import { describe, expect, it } from "vitest";
import { userAvatarLetter, userMenuName } from "./user-display.ts";

describe("userAvatarLetter", () => {
  it("is the first letter of the first name, upper case", () => {
    expect(userAvatarLetter({ firstName: "mira", email: "zed@example.com" })).toBe("M");
    expect(userAvatarLetter({ firstName: "élodie", email: null })).toBe("É");
  });

  it("falls back to the e-mail, then to U", () => {
    expect(userAvatarLetter({ firstName: null, email: "zed@example.com" })).toBe("Z");
    expect(userAvatarLetter({ firstName: "  ", email: "zed@example.com" })).toBe("Z");
    expect(userAvatarLetter({ firstName: null, email: null })).toBe("U");
    expect(userAvatarLetter({ firstName: "", email: "" })).toBe("U");
  });
});

describe("userMenuName", () => {
  it("is the display name once the person chose one", () => {
    expect(userMenuName({ name: "Captain Mira", firstName: "Mira", email: "m@example.com" })).toBe("Captain Mira");
    expect(userMenuName({ name: " ", firstName: "Mira", email: "m@example.com" })).toBe("Mira");
  });

  it("is the first name, else the e-mail", () => {
    expect(userMenuName({ firstName: "Mira", email: "m@example.com" })).toBe("Mira");
    expect(userMenuName({ firstName: null, email: "m@example.com" })).toBe("m@example.com");
  });
});
