/**
 * Lorebooks through the Worker (DESIGN.md turn 4 "Lorebooks",
 * worker/routes/lorebooks.ts): a person's own books (everyone else 404, a
 * visitor 401), clear 400s and limits, SillyTavern World Info in and out
 * with every field kept, a card's `character_book` as the character's own
 * book both ways, attaching books to characters (the creator) and chats
 * (the owner) from every wrong side, and screening of what people write.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Character } from "../../schema/api.ts";
import type { Conversation } from "../../schema/chat.ts";
import type { LorebookRecord, LorebookSummary } from "../../schema/lorebook/book.ts";
import { call, countRows, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { startChat } from "./room-chat.ts";

type Json = Record<string, any>;

const BOOK = {
  name: "The Drowned Coast",
  description: "Towns and tides of the coast.",
  entries: [
    { keys: ["Saltmere"], content: "Saltmere is a fishing town built on stilts.", comment: "Saltmere" },
    { keys: ["/light\\s?house/i"], secondaryKeys: ["storm"], selectiveLogic: "AND_ANY", content: "The lighthouse keeper is blind.", position: "at_depth", depth: 2, role: "system", sticky: 3 },
  ],
  settings: { scanDepth: 4, recursive: true },
};

const create = (user: TestUser, body: unknown = BOOK) => call("/api/lorebooks", { method: "POST", user, body });
const read = (user: TestUser, id: string) => call(`/api/lorebooks/${id}`, { user });

/** A SillyTavern World Info export as SillyTavern writes it (newWorldInfoEntryTemplate's fields, uids as keys), with fields this site does not read. */
const SILLYTAVERN_FILE = {
  entries: {
    "0": {
      uid: 0, key: ["Eldoria", "the capital"], keysecondary: ["king"], comment: "Capital city", content: "Eldoria is the capital; its king is old.",
      constant: false, vectorized: false, selective: true, selectiveLogic: 3, addMemo: true, order: 120, position: 4, disable: false,
      ignoreBudget: false, excludeRecursion: true, preventRecursion: false, matchPersonaDescription: false, matchCharacterDescription: false,
      delayUntilRecursion: false, probability: 60, useProbability: true, depth: 3, outletName: "", group: "cities", groupOverride: false,
      groupWeight: 40, scanDepth: null, caseSensitive: true, matchWholeWords: null, useGroupScoring: null, automationId: "auto-7", role: 2,
      sticky: 2, cooldown: 5, delay: 1, displayIndex: 0, triggers: ["normal"], characterFilter: { isExclude: false, names: [], tags: [] },
    },
    "7": {
      uid: 7, key: [], keysecondary: [], comment: "Always", content: "Magic is rare.", constant: true, selective: false, selectiveLogic: 0,
      order: 100, position: 1, disable: true, probability: 100, useProbability: true, depth: 4, group: "", groupWeight: 100, role: 0,
      displayIndex: 1, sticky: 0, cooldown: 0, delay: 0, vectorized: true,
    },
  },
  originalData: { name: "Eldoria World" },
};

describe("a person's lorebooks", () => {
  it("the owner creates, reads, lists, replaces and deletes; anyone else gets 404 on each, a visitor 401", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const book = await json<LorebookRecord>(await create(mira), 201);
    expect(book).toMatchObject({ name: BOOK.name, description: BOOK.description, characterId: null, settings: { scanDepth: 4, recursive: true } });
    expect(book.entries.map((entry) => [entry.id, entry.keys, entry.content])).toEqual([
      ["0", ["Saltmere"], "Saltmere is a fishing town built on stilts."],
      ["1", ["/light\\s?house/i"], "The lighthouse keeper is blind."],
    ]);
    expect(book.entries[1]).toMatchObject({ secondaryKeys: ["storm"], position: "at_depth", depth: 2, role: "system", sticky: 3 });
    expect(await json(await read(mira, book.id), 200)).toEqual(book);
    const listed = await json<{ lorebooks: LorebookSummary[] }>(await call("/api/lorebooks", { user: mira }), 200);
    expect(listed.lorebooks).toEqual([{ id: book.id, name: BOOK.name, description: BOOK.description, entryCount: 2, characterId: null, updatedAt: book.updatedAt }]);
    expect((await json<{ lorebooks: unknown[] }>(await call("/api/lorebooks", { user: eve }), 200)).lorebooks).toEqual([]);

    const replaced = { ...BOOK, name: "The Drowned Coast, revised", entries: [{ id: "1", keys: ["lighthouse"], content: "The keeper sees again." }] };
    for (const [path, method, body] of [
      [`/api/lorebooks/${book.id}`, "GET", undefined],
      [`/api/lorebooks/${book.id}`, "PUT", replaced],
      [`/api/lorebooks/${book.id}`, "DELETE", undefined],
      [`/api/lorebooks/${book.id}/export`, "GET", undefined],
    ] as const) {
      expect(await json(await call(path, { method, user: eve, body }), 404)).toMatchObject({ code: "not_found", error: "Lorebook not found" });
      expect((await call(path, { method, body })).status).toBe(401);
    }
    expect(await json(await read(mira, book.id), 200)).toEqual(book);

    const updated = await json<LorebookRecord>(await call(`/api/lorebooks/${book.id}`, { method: "PUT", user: mira, body: replaced }), 200);
    expect(updated).toMatchObject({ id: book.id, name: "The Drowned Coast, revised", entries: [{ id: "1", keys: ["lighthouse"], content: "The keeper sees again." }] });
    expect((await call(`/api/lorebooks/${book.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await read(mira, book.id)).status).toBe(404);
    expect((await call(`/api/lorebooks/${"x".repeat(200)}`, { user: mira })).status).toBe(404);
  });

  it("refuses what is not a lorebook with a 400 that names the field, and stores nothing", async () => {
    const mira = await signIn();
    const cases: [unknown, string, RegExp][] = [
      [{ ...BOOK, name: "  " }, "name", /name/],
      [{ ...BOOK, entries: "many" }, "entries", /list/],
      [{ ...BOOK, entries: [{ keys: ["a"], content: "b", position: "top" }] }, "entries.0.position", /before_char, after_char, at_depth/],
      [{ ...BOOK, entries: [{ keys: ["a"], content: "b", selectiveLogic: "SOME" }] }, "entries.0.selectiveLogic", /AND_ANY/],
      [{ ...BOOK, entries: [{ keys: ["a"], content: "b", probability: 150 }] }, "entries.0.probability", /0–100/],
      [{ ...BOOK, entries: [{ keys: ["a"], content: "x".repeat(20_001) }] }, "entries.0.content", /20,000/],
      [{ ...BOOK, entries: [{ id: "a", keys: ["a"] }, { id: "a", keys: ["b"] }] }, "entries.1.id", /Two entries/],
      [{ ...BOOK, entries: Array.from({ length: 1_001 }, () => ({ keys: ["k"], content: "c" })) }, "entries", /1,000 entries/],
      [{ ...BOOK, settings: { tokenBudget: -5 } }, "settings.tokenBudget", /./],
    ];
    for (const [body, path, message] of cases) {
      const error = await json<{ code: string; error: string; issues: { path: string; message: string }[] }>(await create(mira, body), 400);
      expect(error.code).toBe("validation_failed");
      expect(error.issues[0]!.path).toBe(path);
      expect(error.issues[0]!.message).toMatch(message);
    }
    expect((await call("/api/lorebooks", { method: "POST", user: mira, body: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect(await countRows("lorebooks", "owner_id = ?", mira.id)).toBe(0);
  });

  it("screens names, keys, comments and content like a character's text: refused with 422, nothing stored", async () => {
    const mira = await signIn();
    const s4 = "She is 15 years old and naked.";
    for (const body of [
      { ...BOOK, entries: [{ keys: ["harbor"], content: s4 }] },
      { ...BOOK, entries: [{ keys: [s4], content: "The harbor." }] },
      { ...BOOK, entries: [{ keys: ["harbor"], comment: s4, content: "The harbor." }] },
      { ...BOOK, description: s4 },
    ]) {
      expect(await json(await create(mira, body), 422)).toMatchObject({ code: "content_refused" });
    }
    expect(await json(await call("/api/lorebooks/import", { method: "POST", user: mira, body: { entries: { "0": { uid: 0, key: ["x"], content: s4 } } } }), 422)).toMatchObject({
      code: "content_refused",
    });
    expect(await countRows("lorebooks", "owner_id = ?", mira.id)).toBe(0);
    const book = await json<LorebookRecord>(await create(mira), 201);
    expect(await json(await call(`/api/lorebooks/${book.id}`, { method: "PUT", user: mira, body: { ...BOOK, entries: [{ keys: ["x"], content: s4 }] } }), 422)).toMatchObject({
      code: "content_refused",
    });
    expect((await json<LorebookRecord>(await read(mira, book.id), 200)).entries).toEqual(book.entries);

    // An NSFW character's own book is judged as its character is: a stated age under 18 alone is refused there.
    const nsfw = await json<Character>(
      await call("/api/characters", {
        method: "POST",
        user: mira,
        body: { name: "Vex", description: "A tavern dancer.", personality: "Bold and teasing.", isNsfw: true, characterBook: { entries: [{ id: 0, keys: ["tavern"], content: "The tavern is loud." }] } },
      }),
      201,
    );
    const own = (await json<{ lorebooks: LorebookSummary[] }>(await call("/api/lorebooks", { user: mira }), 200)).lorebooks.find((b) => b.characterId === nsfw.id)!;
    const aged = { name: "Vex's notes", entries: [{ id: "0", keys: ["tavern"], content: "She is 15 years old." }] };
    expect(await json(await call(`/api/lorebooks/${own.id}`, { method: "PUT", user: mira, body: aged }), 422)).toMatchObject({ code: "content_refused" });
    expect((await json<Character>(await call(`/api/characters/${nsfw.id}`, { user: mira }), 200)).characterBook).toMatchObject({ entries: [{ content: "The tavern is loud." }] });
  });
});

describe("SillyTavern World Info in and out", () => {
  it("imports a World Info file with every field and exports it back as SillyTavern wrote it, the fields it does not read kept", async () => {
    const mira = await signIn();
    const book = await json<LorebookRecord>(await call("/api/lorebooks/import", { method: "POST", user: mira, body: SILLYTAVERN_FILE }), 201);
    expect(book.name).toBe("Eldoria World");
    expect(book.entries[0]).toMatchObject({
      id: "0", keys: ["Eldoria", "the capital"], secondaryKeys: ["king"], selectiveLogic: "AND_ALL", comment: "Capital city", order: 120,
      position: "at_depth", depth: 3, role: "assistant", probability: 60, group: "cities", groupWeight: 40, caseSensitive: true,
      excludeRecursion: true, sticky: 2, cooldown: 5, delay: 1,
    });
    expect(book.entries[1]).toMatchObject({ id: "7", constant: true, disable: true, position: "after_char", selective: false });

    const res = await call(`/api/lorebooks/${book.id}/export`, { user: mira });
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Eldoria_World.json"');
    const exported = await json<Json>(res, 200);
    expect(Object.keys(exported.entries)).toEqual(["0", "7"]);
    // Every field of SillyTavern's file comes back with its value (those this site reads, and those it keeps).
    for (const uid of ["0", "7"] as const) {
      for (const [field, value] of Object.entries(SILLYTAVERN_FILE.entries[uid])) expect([uid, field, exported.entries[uid][field]]).toEqual([uid, field, value]);
    }
    expect(exported.originalData).toEqual(SILLYTAVERN_FILE.originalData);
    // And it imports again to a book that exports the same file.
    const again = await json<LorebookRecord>(await call("/api/lorebooks/import", { method: "POST", user: mira, body: exported }), 201);
    expect(again.entries.map((entry) => [entry.id, entry.keys, entry.content])).toEqual(book.entries.map((entry) => [entry.id, entry.keys, entry.content]));
    expect(await json(await call(`/api/lorebooks/${again.id}/export`, { user: mira }), 200)).toEqual(exported);
  });

  it("imports a card's character_book and a whole V2 card; refuses a file that is neither with 400", async () => {
    const mira = await signIn();
    const characterBook = {
      name: "Seaside",
      scan_depth: 6,
      token_budget: 900,
      recursive_scanning: true,
      entries: [{ id: 3, keys: ["pier"], secondary_keys: [], content: "The pier is long.", enabled: true, insertion_order: 5, extensions: { depth: 1, position: 4, role: 1, sticky: 2, x_custom: "kept" }, priority: 9 }],
    };
    const book = await json<LorebookRecord>(await call("/api/lorebooks/import", { method: "POST", user: mira, body: characterBook }), 201);
    expect(book).toMatchObject({ name: "Seaside", settings: { scanDepth: 6, tokenBudget: 900, recursive: true } });
    expect(book.entries[0]).toMatchObject({ id: "3", keys: ["pier"], order: 5, position: "at_depth", depth: 1, role: "user", sticky: 2, extensions: { x_custom: "kept", priority: 9 } });

    const card = { spec: "chara_card_v2", spec_version: "2.0", data: { name: "Ilse", character_book: { entries: characterBook.entries } } };
    const fromCard = await json<LorebookRecord>(await call("/api/lorebooks/import?name=Ilse%20world", { method: "POST", user: mira, body: card }), 201);
    expect(fromCard.name).toBe("Ilse world");
    expect(fromCard.entries).toEqual(book.entries);

    for (const body of [{ hello: "world" }, [1, 2], { spec: "chara_card_v2", data: { name: "No book" } }]) {
      expect(await json(await call("/api/lorebooks/import", { method: "POST", user: mira, body }), 400)).toMatchObject({ code: "validation_failed" });
    }
  });
});

describe("a card's character_book is the character's own lorebook", () => {
  it("is listed as the creator's book on create; its edits reach the card's character_book with the card's other fields kept", async () => {
    const mira = await signIn();
    const eve = await signIn();
    const characterBook = { name: "Wren's notes", entries: [{ id: 1, keys: ["mill"], content: "The mill is old.", enabled: true, insertion_order: 10, extensions: {}, x_card_only: 1 }], x_top: "kept" };
    const character = await json<Character>(
      await call("/api/characters", { method: "POST", user: mira, body: { name: "Wren", description: "A miller by the river.", personality: "Quiet and careful.", characterBook } }),
      201,
    );
    const { lorebooks } = await json<{ lorebooks: LorebookSummary[] }>(await call("/api/lorebooks", { user: mira }), 200);
    expect(lorebooks).toMatchObject([{ name: "Wren's notes", entryCount: 1, characterId: character.id }]);
    const own = await json<LorebookRecord>(await read(mira, lorebooks[0]!.id), 200);
    expect(own.entries[0]).toMatchObject({ id: "1", keys: ["mill"], content: "The mill is old.", order: 10 });
    expect((await read(eve, own.id)).status).toBe(404);

    await json(await call(`/api/lorebooks/${own.id}`, { method: "PUT", user: mira, body: { name: "Wren's notes", entries: [{ ...own.entries[0], content: "The mill burned down." }] } }), 200);
    const after = await json<Character>(await call(`/api/characters/${character.id}`, { user: mira }), 200);
    expect(after.characterBook).toMatchObject({ x_top: "kept", entries: [{ id: 1, keys: ["mill"], content: "The mill burned down.", enabled: true, insertion_order: 10, x_card_only: 1 }] });
    const card = await json<Json>(await call(`/api/characters/${character.id}/card.json`, { user: mira }), 200);
    expect(card.data.character_book.entries[0].content).toBe("The mill burned down.");

    // The character form's edit of character_book reaches the book; removing it removes the book.
    await json(await call(`/api/characters/${character.id}`, { method: "PUT", user: mira, body: { characterBook: { entries: [{ id: 1, keys: ["wheel"], content: "The wheel turns." }] } } }), 200);
    expect((await json<LorebookRecord>(await read(mira, own.id), 200)).entries).toMatchObject([{ keys: ["wheel"], content: "The wheel turns." }]);
    await json(await call(`/api/characters/${character.id}`, { method: "PUT", user: mira, body: { characterBook: null } }), 200);
    expect((await read(mira, own.id)).status).toBe(404);
  });
});

describe("attaching books", () => {
  it("to a character: its creator attaches their standalone books; anyone else 403 or 404; another's book or a character's own book is a 400", async () => {
    const mira = await signIn();
    const eve = await signIn();
    const characterId = await insertCharacter({ name: "Tarn", creatorId: mira.id });
    const first = await json<LorebookRecord>(await create(mira), 201);
    const second = await json<LorebookRecord>(await create(mira, { ...BOOK, name: "Second" }), 201);
    const evesBook = await json<LorebookRecord>(await create(eve), 201);
    const path = `/api/characters/${characterId}/lorebooks`;
    expect(await json(await call(path, { method: "PUT", user: mira, body: { lorebookIds: [second.id, first.id] } }), 200)).toEqual({ lorebookIds: [second.id, first.id] });
    expect(await json(await call(path, { user: mira }), 200)).toEqual({ lorebookIds: [second.id, first.id] });

    expect((await call(path, { method: "PUT", user: eve, body: { lorebookIds: [evesBook.id] } })).status).toBe(403);
    expect((await call(path, { user: eve })).status).toBe(403);
    expect((await call(path, { method: "PUT", body: { lorebookIds: [] } })).status).toBe(401);
    const refused = await json<{ issues: { path: string }[] }>(await call(path, { method: "PUT", user: mira, body: { lorebookIds: [first.id, evesBook.id] } }), 400);
    expect(refused.issues[0]!.path).toBe("lorebookIds.1");
    const withBook = await json<Character>(
      await call("/api/characters", { method: "POST", user: mira, body: { name: "Other", description: "Another character.", personality: "Bright and loud.", characterBook: { entries: [{ keys: ["k"], content: "c" }] } } }),
      201,
    );
    const ownOfOther = (await json<{ lorebooks: LorebookSummary[] }>(await call("/api/lorebooks", { user: mira }), 200)).lorebooks.find((b) => b.characterId === withBook.id)!;
    expect((await call(path, { method: "PUT", user: mira, body: { lorebookIds: [ownOfOther.id] } })).status).toBe(400);
    expect((await call(path, { method: "PUT", user: mira, body: { lorebookIds: [first.id, first.id] } })).status).toBe(400);
    expect((await call(path, { method: "PUT", user: mira, body: { lorebookIds: "all" } })).status).toBe(400);
    expect(await json(await call(path, { user: mira }), 200)).toEqual({ lorebookIds: [second.id, first.id] });
    expect((await call(`/api/characters/999999999/lorebooks`, { method: "PUT", user: mira, body: { lorebookIds: [] } })).status).toBe(404);

    // Deleting a book detaches it.
    expect((await call(`/api/lorebooks/${second.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect(await json(await call(path, { user: mira }), 200)).toEqual({ lorebookIds: [first.id] });
  });

  it("to a chat: its owner attaches their own books and reads them back; a member of the shared room 403 and sees no ids, anyone else 404; another's book 400", async () => {
    const mira = await signIn();
    const tom = await signIn();
    const eve = await signIn();
    const characterId = await insertCharacter({ name: "Brook" });
    const chat = await startChat(mira, characterId);
    const book = await json<LorebookRecord>(await create(mira), 201);
    const tomsBook = await json<LorebookRecord>(await create(tom), 201);
    const path = `/api/conversations/${chat.id}`;
    const patched = await json<Conversation & { lorebookIds: string[] }>(await call(path, { method: "PATCH", user: mira, body: { lorebookIds: [book.id] } }), 200);
    expect(patched).toMatchObject({ id: chat.id, lorebookIds: [book.id] });
    expect(await env.DB.prepare("SELECT lorebook_id AS id FROM conversation_lorebooks WHERE conversation_id = ?").bind(chat.id).all()).toMatchObject({ results: [{ id: book.id }] });

    const invite = await json<{ token: string }>(await call(`/api/conversations/${chat.id}/invites`, { method: "POST", user: mira }), 201);
    await json(await call(`/api/invites/${invite.token}`, { method: "POST", user: tom }), 200);
    expect((await call(path, { method: "PATCH", user: tom, body: { lorebookIds: [tomsBook.id] } })).status).toBe(403);
    // Reading the chat: the owner sees her books in order; a member sees none of her ids (no field at all), anyone else 404.
    const second = await json<LorebookRecord>(await create(mira), 201);
    await json(await call(path, { method: "PATCH", user: mira, body: { lorebookIds: [second.id, book.id] } }), 200);
    expect(await json<Conversation>(await call(path, { user: mira }), 200)).toMatchObject({ id: chat.id, lorebookIds: [second.id, book.id] });
    const asMember = await json<Conversation>(await call(path, { user: tom }), 200);
    expect(asMember.id).toBe(chat.id);
    expect(asMember).not.toHaveProperty("lorebookIds");
    expect((await call(path, { user: eve })).status).toBe(404);
    // Any other change answers the owner with the books still attached.
    expect(await json(await call(path, { method: "PATCH", user: mira, body: { title: "Lantern night" } }), 200)).toMatchObject({
      title: "Lantern night",
      lorebookIds: [second.id, book.id],
    });
    await json(await call(path, { method: "PATCH", user: mira, body: { lorebookIds: [book.id] } }), 200);
    expect((await call(path, { method: "PATCH", user: eve, body: { lorebookIds: [] } })).status).toBe(404);
    expect((await call(path, { method: "PATCH", body: { lorebookIds: [] } })).status).toBe(401);
    expect((await call(path, { method: "PATCH", user: mira, body: { lorebookIds: [tomsBook.id] } })).status).toBe(400);
    expect((await call(path, { method: "PATCH", user: mira, body: { lorebookIds: Array.from({ length: 11 }, (_, i) => `b${i}`) } })).status).toBe(400);
    expect(await countRows("conversation_lorebooks", "conversation_id = ?", chat.id)).toBe(1);
    expect(await json(await call(path, { method: "PATCH", user: mira, body: { lorebookIds: [] } }), 200)).toMatchObject({ lorebookIds: [] });
    expect(await countRows("conversation_lorebooks", "conversation_id = ?", chat.id)).toBe(0);
  });

  it("a branch takes the chat's books that are the brancher's own: the owner's branch has them, a shared room member's none", async () => {
    const mira = await signIn();
    const tom = await signIn();
    const characterId = await insertCharacter({ name: "Brook" });
    const chat = await startChat(mira, characterId);
    const first = await json<LorebookRecord>(await create(mira), 201);
    const second = await json<LorebookRecord>(await create(mira), 201);
    await json(await call(`/api/conversations/${chat.id}`, { method: "PATCH", user: mira, body: { lorebookIds: [second.id, first.id] } }), 200);
    const [greeting] = await json<{ id: string }[]>(await call(`/api/conversations/${chat.id}/messages`, { user: mira }), 200);
    const branch = async (user: TestUser) =>
      json<Conversation & { lorebookIds: string[] }>(await call(`/api/conversations/${chat.id}/branch`, { method: "POST", user, body: { messageId: greeting!.id } }), 201);

    const own = await branch(mira);
    expect(own.lorebookIds).toEqual([second.id, first.id]);
    expect(await json(await call(`/api/conversations/${own.id}`, { user: mira }), 200)).toMatchObject({ lorebookIds: [second.id, first.id] });

    const invite = await json<{ token: string }>(await call(`/api/conversations/${chat.id}/invites`, { method: "POST", user: mira }), 201);
    await json(await call(`/api/invites/${invite.token}`, { method: "POST", user: tom }), 200);
    const toms = await branch(tom);
    expect(toms.lorebookIds).toEqual([]);
    expect(await countRows("conversation_lorebooks", "conversation_id = ?", toms.id)).toBe(0);
  });
});
