/**
 * Issue 21: a test fails when a text field is added to an input schema
 * without being screened. The list of fields is derived from the zod schemas
 * themselves (schema/inputs.ts, schema/chat.ts, schema/chat-frames.ts, schema/shares.ts), never written by hand:
 *
 * 1. every zod schema those files export is either a write whose text is
 *    screened (SCREENED, with the function its route or the room screens
 *    with) or named in NOT_WRITES with the reason it holds no stored text;
 * 2. for each screened write, a sample with a distinct marker in every
 *    string the schema accepts (at any depth; a lorebook's free JSON gets
 *    markers in keys, comments, descriptions and extensions) is given to the
 *    screening function, and every marker must come out — unless its
 *    top-level field is in NOT_TEXT (schema/screened-text.ts), the one place
 *    that says what is not text;
 * 3. every client frame the room does not screen has no string but its type
 *    and ids.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as chat from "../../schema/chat.ts";
import * as chatFrames from "../../schema/chat-frames.ts";
import * as inputs from "../../schema/inputs.ts";
import * as notifications from "../../schema/notifications.ts";
import * as shares from "../../schema/shares.ts";
import { NOT_TEXT } from "../../schema/screened-text.ts";
import { frameText } from "../../durable-objects/room/screening.ts";
import { TEXT_OF } from "../lib/screening.ts";

/** The writes of text, by exported schema name: how their text is screened and which top-level fields are not text. */
const SCREENED: Record<string, { text: (input: any) => string; notText: readonly string[] }> = {
  characterInputSchema: { text: TEXT_OF.character, notText: NOT_TEXT.character },
  characterUpdateSchema: { text: TEXT_OF.character, notText: NOT_TEXT.character },
  personaInputSchema: { text: TEXT_OF.persona, notText: NOT_TEXT.persona },
  personaUpdateSchema: { text: TEXT_OF.persona, notText: NOT_TEXT.persona },
  profileInputSchema: { text: TEXT_OF.profile, notText: NOT_TEXT.profile },
  commentInputSchema: { text: TEXT_OF.comment, notText: NOT_TEXT.comment },
  conversationInputSchema: { text: TEXT_OF.conversation, notText: NOT_TEXT.conversation },
  conversationPatchSchema: { text: TEXT_OF.conversation, notText: NOT_TEXT.conversation },
  // Lorebooks (worker/routes/lorebooks.ts: create, replace and import screen the whole book).
  lorebookInputSchema: { text: TEXT_OF.lorebook, notText: NOT_TEXT.lorebook },
  // Pinned memories (worker/routes/memories.ts: the text given, else the pinned message's, already screened when stored).
  memoryInputSchema: { text: (input) => String(input.text ?? ""), notText: ["messageId", "scope"] },
  memoryPatchSchema: { text: (input) => String(input.text), notText: [] },
  // A drawn avatar's description (worker/routes/images.ts: screenWrite before anything is drawn).
  avatarDrawingSchema: { text: (input) => String(input.description), notText: [] },
  // The room's frames (durable-objects/room/steering.ts screenFrame, replies.ts receiveMessage).
  chatMessageFrameSchema: { text: frameText, notText: NOT_TEXT.frame },
  editMessageFrameSchema: { text: frameText, notText: NOT_TEXT.frame },
  setMemoryFrameSchema: { text: frameText, notText: NOT_TEXT.frame },
  setSummaryFrameSchema: { text: frameText, notText: NOT_TEXT.frame },
  setAuthorNoteFrameSchema: { text: frameText, notText: NOT_TEXT.frame },
  // A picture's prompt (durable-objects/room/images.ts `refused`): screened before anything is drawn.
  imagineFrameSchema: { text: frameText, notText: NOT_TEXT.frame },
};

/** The client frames the room screens (by `type`); every other frame must carry no text. */
const SCREENED_FRAMES = ["chat_message", "edit_message", "set_memory", "set_summary", "set_author_note", "imagine"];

/** Exported schemas that are not a stored write of text, and why. */
const NOT_WRITES: Record<string, string> = {
  catalogQuerySchema: "a query: nothing is stored",
  favoritesQuerySchema: "a query",
  forksQuerySchema: "a query",
  tagNameSchema: "part of characterInputSchema (tags), screened there",
  characterTagsSchema: "part of characterInputSchema (tags), screened there",
  avatarRegistrationSchema: "a URL of an upload, checked by its own rule",
  characterAssetInputSchema: "a picture's label on the creator's own character (emotion names such as joy), never prompted; the picture is an upload",
  neutralExpressionInputSchema: "names one of the creator's own expressions; no new text is stored",
  contentSettingsInputSchema: "two booleans (NSFW shown, 18 or older confirmed)",
  hiddenTagsInputSchema: "the person's own filter, tag names only, shown to nobody else and never in a prompt",
  voteInputSchema: "a number",
  notificationsQuerySchema: "a query of one's own notifications",
  notificationsReadInputSchema: "ids of one's own notifications, or all",
  notificationSettingsInputSchema: "booleans per notification kind, push, and quiet hours (times and a time zone name, checked against Intl)",
  pushSubscriptionInputSchema: "a push service address and the device's keys: never shown to anyone",
  pushUnsubscribeInputSchema: "a push service address to forget: nothing is stored",
  notificationFrameSchema: "a frame the server sends (the client parses it); nothing is stored from it",
  reportInputSchema: "read only by the operator (the report's details), never published or prompted",
  reviewRequestInputSchema: "read only by the operator (the review request's details), never published or prompted",
  newConversationInputSchema: "a character id",
  conversationListQuerySchema: "a query",
  branchInputSchema: "a message id (the branch copies text already screened)",
  conversationPersonaInputSchema: "a persona id (the persona was screened when written)",
  joinInviteInputSchema: "a persona id (the persona was screened when written)",
  chatExportQuerySchema: "a query",
  chatImportQuerySchema: "a character id (the file's messages are screened: TEXT_OF.chatImport)",
  ratingInputSchema: "a number",
  shareInputSchema: "a message id (the share copies the chat's messages, screened when they were written)",
  shareQuerySchema: "a query",
  clientFrameSchema: "the union of the frames: checked frame by frame below",
  joinFrameSchema: "ids only (checked below)",
  regenerateFrameSchema: "ids only (checked below)",
  stopFrameSchema: "ids only (checked below)",
  swipeFrameSchema: "ids only (checked below)",
  deleteMessageFrameSchema: "ids only (checked below)",
  rewindFrameSchema: "ids only (checked below)",
  continueFrameSchema: "ids only (checked below)",
  generateFrameSchema: "ids only (checked below)",
  typingFrameSchema: "ids only (checked below)",
  cancelImageFrameSchema: "ids only (checked below)",
  hideMessageFrameSchema: "an id and a flag (checked below)",
  castAddInputSchema: "a character id",
  lorebookEntrySchema: "part of lorebookInputSchema (entries), screened there",
  lorebookAttachSchema: "lorebook ids (the books were screened when written)",
  castMemberPatchSchema: "a flag and a number",
  chatMessageSchema: "what the server sends",
  serverFrameSchema: "what the server sends",
};

interface Leaf {
  path: string;
  marker: string;
}

/** A zod schema's definition (zod 4 keeps it at `_zod.def`). */
type Def = { type: string; [key: string]: any };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/**
 * A value the schema describes with a distinct marker in every string it
 * accepts, and those markers with their paths. Free JSON (`z.unknown()`, a
 * lorebook) gets the shapes of a character book: entries with keys, a
 * comment, content and extensions, a name and description, and a free key.
 */
function sample(schema: unknown, path: string, leaves: Leaf[]): unknown {
  const def = defOf(schema);
  const mark = (where: string) => {
    const marker = `mk${leaves.length}x${where.replace(/\W/g, "")}`;
    leaves.push({ path: where, marker });
    return marker;
  };
  switch (def.type) {
    case "string":
      return mark(path);
    case "object":
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([key, s]) => [key, sample(s, path ? `${path}.${key}` : key, leaves)]));
    case "array":
      return [sample(def.element, `${path}[]`, leaves)];
    case "record":
      return { [mark(`${path}{key}`)]: sample(def.valueType, `${path}{}`, leaves) };
    case "unknown":
    case "any":
      return {
        entries: [{ keys: [mark(`${path}.entries[].keys[]`)], comment: mark(`${path}.entries[].comment`), content: mark(`${path}.entries[].content`), extensions: { depth_prompt: { prompt: mark(`${path}.entries[].extensions`) } } }],
        name: mark(`${path}.name`),
        description: mark(`${path}.description`),
        [mark(`${path}{key}`)]: true,
      };
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return sample(def.innerType, path, leaves);
    case "pipe":
      return sample(def.in, path, leaves);
    case "union": {
      const options = def.options as unknown[];
      const text = options.find((option) => defOf(option).type === "string");
      return sample(text ?? options[0], path, leaves);
    }
    case "literal":
      return (def.values as unknown[])[0];
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "number":
    case "int":
      return 1;
    case "boolean":
      return false;
    default:
      return undefined;
  }
}

const isSchema = (value: unknown) => value instanceof z.ZodType;
const exported = { ...inputs, ...chat, ...chatFrames, ...notifications, ...shares } as Record<string, unknown>;
const schemaNames = Object.keys(exported).filter((name) => isSchema(exported[name]));

describe("every input schema is screened or says why not", () => {
  it("finds the schemas (the walk is not empty)", () => {
    expect(schemaNames).toEqual(expect.arrayContaining(["characterInputSchema", "commentInputSchema", "editMessageFrameSchema"]));
  });

  it.each(schemaNames)("%s is a screened write or named in NOT_WRITES", (name) => {
    expect(name in SCREENED || name in NOT_WRITES, `${name}: screen its text (SCREENED) or say why it holds none (NOT_WRITES)`).toBe(true);
  });
});

describe("every string of a screened write reaches the screen", () => {
  it.each(Object.keys(SCREENED))("%s", (name) => {
    const { text, notText } = SCREENED[name]!;
    const leaves: Leaf[] = [];
    const value = sample(exported[name], "", leaves);
    expect(leaves.length).toBeGreaterThan(0);
    const screened = text(value);
    const missing = leaves.filter((leaf) => !notText.includes(leaf.path.split(/[.[{]/)[0]!) && !screened.includes(leaf.marker));
    expect(missing.map((leaf) => leaf.path), `not screened: add them to the screen or to NOT_TEXT`).toEqual([]);
    // Nothing NOT_TEXT names is text the person writes freely: each is an id, a URL, a flag or a machine word.
    const skipped = leaves.filter((leaf) => !screened.includes(leaf.marker)).map((leaf) => leaf.path.split(/[.[{]/)[0]);
    for (const field of skipped) expect(notText).toContain(field);
  });

  it("the lorebook and the card extensions are screened to the last key", () => {
    const leaves: Leaf[] = [];
    const value = sample(inputs.characterInputSchema, "", leaves) as Record<string, unknown>;
    const screened = TEXT_OF.character({ ...value, extensions: { depth_prompt: { prompt: "mkdepth" } } });
    expect(leaves.filter((leaf) => leaf.path.startsWith("characterBook")).length).toBeGreaterThanOrEqual(6);
    expect(screened).toContain("mkdepth");
  });
});

describe("frames the room does not screen carry no text", () => {
  const options = defOf(chatFrames.clientFrameSchema).options as unknown[];
  it.each(options.map((option) => [defOf(defOf(option).shape.type).values[0] as string, option]))("%s", (type, option) => {
    const leaves: Leaf[] = [];
    sample(option, "", leaves);
    const text = leaves.filter((leaf) => !(NOT_TEXT.frame as readonly string[]).includes(leaf.path.split(/[.[{]/)[0]!));
    if (SCREENED_FRAMES.includes(type)) expect(text.length).toBeGreaterThan(0);
    else expect(text.map((leaf) => leaf.path), `${type} carries text: screen it in the room and add it to SCREENED_FRAMES`).toEqual([]);
  });
});
