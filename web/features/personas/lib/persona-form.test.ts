import { describe, expect, it } from "vitest";
import type { Persona } from "../../../../schema/api.ts";
import { issuesToPersonaErrors, personaFormValues, personaInitial, validatePersonaForm } from "./persona-form.ts";

const wren: Persona = {
  id: "6f1c1f5e-3f7b-4a8e-9a59-0d3c2f0b1a11",
  name: "Wren",
  description: "A quiet archivist.",
  avatarUrl: null,
  isDefault: true,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
};

describe("personaFormValues", () => {
  it("starts empty for a new persona, with the default switch on only for the first", () => {
    expect(personaFormValues(null, true)).toEqual({ name: "", description: "", avatarUrl: "", isDefault: true });
    expect(personaFormValues(null, false).isDefault).toBe(false);
  });

  it("starts from the persona when editing, a missing avatar as an empty field", () => {
    expect(personaFormValues(wren, false)).toEqual({ name: "Wren", description: "A quiet archivist.", avatarUrl: "", isDefault: true });
  });
});

describe("validatePersonaForm", () => {
  it("trims and accepts a persona within the limits", () => {
    const { data, errors } = validatePersonaForm({ name: " Wren ", description: "d".repeat(2000), avatarUrl: "", isDefault: false });
    expect(errors).toEqual({});
    expect(data).toEqual({ name: "Wren", description: "d".repeat(2000), avatarUrl: null, isDefault: false });
  });

  it("says what is wrong with each field, as the server would", () => {
    const { data, errors } = validatePersonaForm({
      name: " ",
      description: "d".repeat(2001),
      avatarUrl: "ftp://example.com/a.png",
      isDefault: false,
    });
    expect(data).toBeNull();
    expect(errors).toEqual({
      name: "Persona name is required",
      description: "Description is too long (at most 2,000 characters)",
      avatarUrl: "Must be a valid URL",
    });
    expect(validatePersonaForm({ name: "n".repeat(51), description: "", avatarUrl: "", isDefault: false }).errors).toEqual({
      name: "Name is too long (at most 50 characters)",
    });
  });
});

describe("issuesToPersonaErrors", () => {
  it("keeps the first message of each known field and drops the rest", () => {
    expect(
      issuesToPersonaErrors([
        { path: "name", message: "first" },
        { path: "name", message: "second" },
        { path: "", message: "Nothing to change" },
        { path: "avatarUrl", message: "Must be a valid URL" },
      ]),
    ).toEqual({ name: "first", avatarUrl: "Must be a valid URL" });
  });
});

describe("personaInitial", () => {
  it("is the first letter or digit, upper case, else ?", () => {
    expect(personaInitial("  wren")).toBe("W");
    expect(personaInitial("«élan»")).toBe("É");
    expect(personaInitial("7th son")).toBe("7");
    expect(personaInitial("  …  ")).toBe("?");
  });
});
