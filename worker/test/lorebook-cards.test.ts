/**
 * A lorebook edited in the character form (schema/lorebook.ts, as the form
 * sends it with `PUT /api/characters/:id`) survives the card: exported as
 * V3 JSON and PNG, imported again, every entry's keys, secondary keys,
 * content, constant, enabled and insertion order are there, with the fields
 * the form never showed. Only the owner may change it.
 */
import { describe, expect, it } from "vitest";
import seraphinaUrl from "../../test-fixtures/cards/default_Seraphina.png?inline";
import type { Character } from "../../schema/api.ts";
import { loreEntriesOf, newLoreEntry, withLoreEntries } from "../../schema/lorebook.ts";
import { readPngTextJson } from "../lib/card-png.ts";
import { call, dataUrlBytes, json } from "./creator-api.ts";
import { signIn } from "./fixtures.ts";

const SERAPHINA = dataUrlBytes(seraphinaUrl);

type Json = Record<string, any>;

describe("an edited lorebook through the card", () => {
  it("PUT with the form's book, then card.json and card.png carry it and import back to the same book", async () => {
    const mira = await signIn();
    const imported = await json<Character>(
      await call("/api/characters/import", { method: "POST", user: mira, body: SERAPHINA, headers: { "content-type": "image/png" } }),
      201,
    );
    const original = imported.characterBook!;
    const [first, ...others] = loreEntriesOf(original);
    const edited = withLoreEntries(original, [
      { ...first!, keys: ["glade", "clearing"], secondaryKeys: ["night"], content: "The glade glows at night.", constant: true, enabled: false, insertionOrder: 3 },
      ...others,
      { ...newLoreEntry(), keys: ["moon"], content: "The Moon Queen watches over Eldoria." },
    ])!;
    const saved = await json<Character>(await call(`/api/characters/${imported.id}`, { method: "PUT", user: mira, body: { characterBook: edited } }), 200);
    expect(saved.characterBook).toEqual(edited);
    const entries = saved.characterBook!.entries as Json[];
    expect(entries[0]).toMatchObject({
      keys: ["glade", "clearing"],
      secondary_keys: ["night"],
      selective: true,
      content: "The glade glows at night.",
      constant: true,
      enabled: false,
      insertion_order: 3,
      // What the card had and the form does not show.
      extensions: (original.entries as Json[])[0]!.extensions,
      position: (original.entries as Json[])[0]!.position,
    });
    expect(entries.at(-1)).toMatchObject({ keys: ["moon"], content: "The Moon Queen watches over Eldoria.", enabled: true, insertion_order: 100, extensions: {} });

    const card = await json<Json>(await call(`/api/characters/${imported.id}/card.json`, { user: mira }), 200);
    expect(card.spec).toBe("chara_card_v3");
    expect(card.data.character_book).toEqual(edited);
    const again = await json<Character>(
      await call("/api/characters/import", { method: "POST", user: mira, body: new TextEncoder().encode(JSON.stringify(card)), headers: { "content-type": "application/json" } }),
      201,
    );
    expect(again.characterBook).toEqual(edited);

    const png = new Uint8Array(await (await call(`/api/characters/${imported.id}/card.png`, { user: mira })).arrayBuffer());
    expect((readPngTextJson(png, "chara") as Json).data.character_book).toEqual(edited);
    const fromPng = await json<Character>(
      await call("/api/characters/import", { method: "POST", user: mira, body: png, headers: { "content-type": "image/png" } }),
      201,
    );
    expect(fromPng.characterBook).toEqual(edited);
  });

  it("someone else cannot change the lorebook (404), and it stays as it was", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const imported = await json<Character>(
      await call("/api/characters/import", { method: "POST", user: mira, body: SERAPHINA, headers: { "content-type": "image/png" } }),
      201,
    );
    const res = await call(`/api/characters/${imported.id}`, { method: "PUT", user: theo, body: { characterBook: { entries: [] } } });
    expect(res.status).toBe(404);
    expect((await json<Character>(await call(`/api/characters/${imported.id}`, { user: mira }), 200)).characterBook).toEqual(imported.characterBook);
  });
});
