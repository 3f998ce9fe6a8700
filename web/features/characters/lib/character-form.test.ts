import { describe, expect, it } from "vitest";
import type { Character } from "../../../../schema/api.ts";
import {
  EMPTY_CHARACTER_FORM,
  type CharacterFormValues,
  characterToFormValues,
  formValuesToBody,
  hasAdvancedContent,
  isAdvancedError,
  issuesToFormErrors,
  validateCharacterForm,
} from "./character-form.ts";

const character: Character = {
  id: 12,
  name: "Seraphina",
  description: "A guardian of the forest glade who heals the lost.",
  longDescription: null,
  assets: [],
  creator: "mira",
  creatorId: "user-1",
  creatorUsername: "@mira",
  avatarUrl: "/objects/avatars/user-1/abc",
  tags: ["fantasy", "healer"],
  isNsfw: false,
  isActive: false,
  viewCount: 0,
  rating: 80,
  favoriteCount: 0,
  messageCount: 0,
  commentCount: 0,
  personality: "Gentle, protective and wise beyond her years.",
  scenario: null,
  exampleConversation: "{{user}}: Where am I?\n{{char}}: Safe, for now.",
  greeting: "*You wake in a glade.* Easy now.",
  createdAt: "2025-01-01T00:00:00.000Z",
  alternateGreetings: ["Hello again."],
  systemPrompt: null,
  postHistoryInstructions: null,
  creatorNotes: null,
  voice: null,
  appearance: "Silver hair to her waist, green eyes, a dress of woven leaves",
  characterBook: { entries: [] },
  extensions: { fabled: { appearance: "Silver hair to her waist, green eyes, a dress of woven leaves" } },
  ratingUp: 0,
  ratingDown: 0,
  updatedAt: "2025-01-02T00:00:00.000Z",
  moderationStatus: "ok",
  allowForks: false,
  forkedFrom: null,
  forkCount: 0,
};

const valid: CharacterFormValues = {
  ...EMPTY_CHARACTER_FORM,
  name: "Mira Vale",
  description: "A retired sky-pirate who runs a tea shop.",
  personality: "Warm, sarcastic and fiercely loyal.",
};

describe("characterToFormValues", () => {
  it("fills every field, missing texts as empty strings", () => {
    expect(characterToFormValues(character)).toEqual({
      name: "Seraphina",
      description: "A guardian of the forest glade who heals the lost.",
      longDescription: "",
      personality: "Gentle, protective and wise beyond her years.",
      scenario: "",
      exampleConversation: "{{user}}: Where am I?\n{{char}}: Safe, for now.",
      avatarUrl: "/objects/avatars/user-1/abc",
      tags: ["fantasy", "healer"],
      isNsfw: false,
      allowForks: false,
      greeting: "*You wake in a glade.* Easy now.",
      alternateGreetings: ["Hello again."],
      systemPrompt: "",
      postHistoryInstructions: "",
      creatorNotes: "",
      voice: "",
      appearance: "Silver hair to her waist, green eyes, a dress of woven leaves",
      characterBook: { entries: [] },
      lorebook: [],
    });
    expect(characterToFormValues({ ...character, appearance: null }).appearance).toBe("");
  });

  it("copies the lists, so editing the form never changes the cached character", () => {
    const values = characterToFormValues(character);
    values.tags.push("x");
    values.alternateGreetings.push("y");
    expect(character.tags).toEqual(["fantasy", "healer"]);
    expect(character.alternateGreetings).toEqual(["Hello again."]);
  });
});

describe("formValuesToBody", () => {
  it("drops blank alternate greetings and trims the avatar URL", () => {
    const body = formValuesToBody({ ...valid, alternateGreetings: ["Hi", "  ", "", "Hey"], avatarUrl: " https://x.example/a.png " });
    expect(body.alternateGreetings).toEqual(["Hi", "Hey"]);
    expect(body.avatarUrl).toBe("https://x.example/a.png");
  });
});

describe("validateCharacterForm", () => {
  it("gives the request body: texts trimmed, empty optional texts as null, no lorebook", () => {
    const result = validateCharacterForm({ ...valid, name: "  Mira Vale  ", scenario: "   ", greeting: "Hello!", tags: ["tea"] });
    expect(result.errors).toEqual({});
    expect(result.data).toMatchObject({
      name: "Mira Vale",
      scenario: null,
      longDescription: null,
      exampleConversation: null,
      avatarUrl: null,
      greeting: "Hello!",
      tags: ["tea"],
      isNsfw: false,
      allowForks: true,
      alternateGreetings: [],
    });
    expect(result.data).not.toHaveProperty("characterBook");
    expect(JSON.parse(JSON.stringify(result.data))).not.toHaveProperty("characterBook");
  });

  it("says SPEC.md §5's messages under the fields", () => {
    const { data, errors } = validateCharacterForm({
      ...EMPTY_CHARACTER_FORM,
      description: "too short",
      personality: "short",
      avatarUrl: "not a url",
    });
    expect(data).toBeNull();
    expect(errors).toEqual({
      name: "Character name is required",
      description: "Description must be at least 10 characters",
      personality: "Personality must be at least 10 characters",
      avatarUrl: "Must be a valid URL",
    });
  });

  it("sends the appearance as typed, a blank one as none, and refuses one longer than a drawn avatar's description", () => {
    expect(validateCharacterForm({ ...valid, appearance: "Grey braid, scar over one eye" }).data).toMatchObject({ appearance: "Grey braid, scar over one eye" });
    expect(validateCharacterForm({ ...valid, appearance: "   " }).data).toMatchObject({ appearance: null });
    expect(validateCharacterForm({ ...valid, appearance: "a".repeat(1_000) }).errors).toEqual({});
    expect(validateCharacterForm({ ...valid, appearance: "a".repeat(1_001) }).errors).toEqual({ appearance: "Appearance is too long" });
  });

  it("checks the boundaries: name 100, description 10 to 300", () => {
    expect(validateCharacterForm({ ...valid, name: "n".repeat(100) }).errors).toEqual({});
    expect(validateCharacterForm({ ...valid, name: "n".repeat(101) }).errors).toEqual({ name: "Name is too long" });
    expect(validateCharacterForm({ ...valid, description: "d".repeat(10) }).errors).toEqual({});
    expect(validateCharacterForm({ ...valid, description: "d".repeat(300) }).errors).toEqual({});
    expect(validateCharacterForm({ ...valid, description: "d".repeat(301) }).errors).toEqual({
      description: "Description is too long",
    });
  });

  it("accepts an uploaded avatar's path and https links, not http", () => {
    expect(validateCharacterForm({ ...valid, avatarUrl: "/objects/avatars/u-1/f-2" }).errors).toEqual({});
    expect(validateCharacterForm({ ...valid, avatarUrl: "https://cdn.example/a.png" }).errors).toEqual({});
    expect(validateCharacterForm({ ...valid, avatarUrl: "http://cdn.example/a.png" }).errors).toEqual({
      avatarUrl: "Must be a valid URL",
    });
  });

  it("points an alternate greeting's message at its row, blank rows skipped", () => {
    const long = "g".repeat(20_001);
    const { errors } = validateCharacterForm({ ...valid, alternateGreetings: ["", "ok", " ", long] });
    expect(errors).toEqual({ "alternateGreetings.3": "Greeting is too long" });
  });
});

describe("issuesToFormErrors", () => {
  it("maps the server's issues to fields, the first message per field", () => {
    const errors = issuesToFormErrors(
      [
        { path: "description", message: "Description is too long" },
        { path: "description", message: "second" },
        { path: "tags.3", message: "Tags must be at least 2 characters" },
        { path: "alternateGreetings.1", message: "Greeting is too long" },
      ],
      { ...valid, alternateGreetings: ["a", "", "b"] },
    );
    expect(errors).toEqual({
      description: "Description is too long",
      tags: "Tags must be at least 2 characters",
      "alternateGreetings.2": "Greeting is too long",
    });
  });
});

describe("the advanced section", () => {
  it("starts open when a card field holds something", () => {
    expect(hasAdvancedContent(valid)).toBe(false);
    // The greeting is in the main part of the form (issue 26), not a card field of the advanced section.
    expect(hasAdvancedContent({ ...valid, greeting: "Hi" })).toBe(false);
    expect(hasAdvancedContent({ ...valid, alternateGreetings: [""] })).toBe(true);
    expect(hasAdvancedContent({ ...valid, creatorNotes: "v2" })).toBe(true);
    expect(hasAdvancedContent(characterToFormValues(character))).toBe(true);
  });

  it("knows which messages belong to it", () => {
    expect(isAdvancedError("greeting")).toBe(false);
    expect(isAdvancedError("alternateGreetings.4")).toBe(true);
    expect(isAdvancedError("systemPrompt")).toBe(true);
    expect(isAdvancedError("description")).toBe(false);
    expect(isAdvancedError("tags")).toBe(false);
  });
});

describe("the lorebook in the request body", () => {
  const book = { name: "Glade", scan_depth: 3, entries: [{ id: 1, keys: ["glade"], content: "A quiet glade.", enabled: true, insertion_order: 1, extensions: { x: 1 } }] };
  const edited = characterToFormValues({ ...character, characterBook: book });

  it("an untouched lorebook is not sent (an update keeps it as it was)", () => {
    const result = validateCharacterForm(edited);
    expect(result.data).not.toHaveProperty("characterBook");
  });

  it("an edited one is sent whole: the book's and entries' other fields kept, keys split at commas", () => {
    const rows = edited.lorebook.map((row) => ({ ...row, keys: "glade, clearing", constant: true }));
    const result = validateCharacterForm({ ...edited, lorebook: [...rows, { ...rows[0]!, keys: "", secondaryKeys: "", content: " ", rest: {} }] });
    expect(result.data?.characterBook).toEqual({
      name: "Glade",
      scan_depth: 3,
      extensions: {},
      entries: [{ id: 1, keys: ["glade", "clearing"], secondary_keys: [], content: "A quiet glade.", constant: true, enabled: true, insertion_order: 1, extensions: { x: 1 } }],
    });
  });
});
