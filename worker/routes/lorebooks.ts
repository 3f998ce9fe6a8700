/**
 * Lorebooks (World Info), DESIGN.md turn 4 "Lorebooks":
 *
 * - `GET /api/lorebooks` → 200 `{lorebooks: [{id, name, description,
 *   entryCount, characterId, updatedAt}]}` (the person's own, a
 *   character's own book included).
 * - `POST /api/lorebooks` `{name, description?, entries, settings?}` → 201
 *   the book; 409 past LOREBOOK_LIMITS.books.
 * - `GET /api/lorebooks/{id}` → 200 `{id, name, description, entries,
 *   settings, characterId, createdAt, updatedAt}`; `PUT` (the whole book) →
 *   200; `DELETE` → 204. Another person's book → 404.
 * - `POST /api/lorebooks/import` a SillyTavern World Info file, a V2/V3
 *   `character_book` or a whole V2/V3 card (`?name=` names a file that has
 *   none) → 201 the book; anything else → 400.
 * - `GET /api/lorebooks/{id}/export` → SillyTavern World Info JSON, as a
 *   download.
 * - `PUT /api/characters/{id}/lorebooks` `{lorebookIds}` (the creator's
 *   standalone books) → 200 `{lorebookIds}`; `GET` → 200 `{lorebookIds}`
 *   (the creator). The chat's own are in `PATCH /api/conversations/{id}`.
 *
 * Every write of text is screened (TEXT_OF.lorebook) before it is stored.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { lorebookAttachSchema, lorebookInputSchema } from "../../schema/inputs.ts";
import { contentOfImport, LOREBOOK_LIMITS, worldInfoOf } from "../../schema/lorebook/book.ts";
import type { AppEnv } from "../env.ts";
import { findOwnCharacter } from "../lib/characters.ts";
import { ApiError, validationFailed } from "../lib/errors.ts";
import { parseCharacterId } from "../lib/ids.ts";
import {
  attachToCharacter,
  characterLorebookIds,
  createLorebook,
  deleteLorebook,
  findOwnLorebook,
  listLorebooks,
  publicBook,
  updateLorebook,
} from "../lib/lorebooks.ts";
import { characterIsNsfw, screenWrite, TEXT_OF } from "../lib/screening.ts";
import { purgeCharacterCache } from "../middleware/edge-cache.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";
import { validate } from "../lib/validate.ts";

/** Largest body of a lorebook write or import, bytes (a book is at most 1,000,000 characters; SillyTavern files carry more fields per entry). */
const MAX_LOREBOOK_BODY_BYTES = 4 * 1024 * 1024;
const lorebookBodyLimit = bodyLimit({
  maxSize: MAX_LOREBOOK_BODY_BYTES,
  onError: () => {
    throw new ApiError("payload_too_large", "This lorebook is too large (at most 4 MB)");
  },
});

/**
 * Screens a book's text as it would be stored (422 when refused, 503 when
 * the screen is down). A character's own book is judged as that character's
 * text is (in the context of its NSFW flag); a standalone book as a
 * person's own text.
 */
async function screenBook(env: Env, userId: string, book: unknown, subjectId: string | null, characterId: number | null = null): Promise<void> {
  const nsfw = characterId !== null && (await characterIsNsfw(env.DB, characterId));
  await screenWrite(env, { subjectType: "lorebook", text: TEXT_OF.lorebook(book), nsfw, who: { userId, subjectId, characterId } });
}

/** A file name for the export: the book's name in safe characters. */
function fileName(name: string): string {
  return `${name.replace(/[^\w\- ]+/g, "").trim().replace(/\s+/g, "_").slice(0, 80) || "lorebook"}.json`;
}

export const lorebooksRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => {
    c.header("Cache-Control", "private, no-store");
    return c.json({ lorebooks: await listLorebooks(c.env.DB, c.get("user")!.id) }, 200);
  })
  .post("/", requireUser, limitWrites("WRITE_RATE_LIMITER"), lorebookBodyLimit, validate("json", lorebookInputSchema), async (c) => {
    const user = c.get("user")!;
    const input = c.req.valid("json");
    await screenBook(c.env, user.id, input, null);
    return c.json(publicBook(await createLorebook(c.env.DB, user.id, input)), 201);
  })
  .post("/import", requireUser, limitWrites("WRITE_RATE_LIMITER"), lorebookBodyLimit, async (c) => {
    const user = c.get("user")!;
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw validationFailed({ issues: [{ path: [], message: "Send the lorebook file as JSON" }] });
    }
    const name = c.req.query("name")?.trim().slice(0, LOREBOOK_LIMITS.name) || undefined;
    const content = contentOfImport(body, name);
    if (!content) {
      throw validationFailed({
        issues: [{ path: ["entries"], message: "This is not a lorebook: send SillyTavern World Info JSON, a character_book or a character card with one" }],
      });
    }
    if (name) content.name = name;
    // The file's entries are checked by the same rules as a book written here.
    const parsed = lorebookInputSchema.safeParse(content);
    if (!parsed.success) throw validationFailed(parsed.error);
    const book = { ...parsed.data, extensions: content.extensions };
    await screenBook(c.env, user.id, book, null);
    return c.json(publicBook(await createLorebook(c.env.DB, user.id, book)), 201);
  })
  .get("/:id", requireUser, async (c) => {
    const book = await findOwnLorebook(c.env.DB, c.req.param("id"), c.get("user")!.id);
    c.header("Cache-Control", "private, no-store");
    return c.json(publicBook(book), 200);
  })
  .get("/:id/export", requireUser, async (c) => {
    const book = await findOwnLorebook(c.env.DB, c.req.param("id"), c.get("user")!.id);
    c.header("Cache-Control", "private, no-store");
    c.header("Content-Disposition", `attachment; filename="${fileName(book.name)}"`);
    return c.json(worldInfoOf(book), 200);
  })
  .put("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), lorebookBodyLimit, validate("json", lorebookInputSchema), async (c) => {
    const user = c.get("user")!;
    const current = await findOwnLorebook(c.env.DB, c.req.param("id"), user.id);
    const input = c.req.valid("json");
    await screenBook(c.env, user.id, input, current.id, current.characterId);
    const updated = await updateLorebook(c.env.DB, current, input);
    // A character's own book is its card's character_book: its cached page must show the edit.
    if (current.characterId !== null) await purgeCharacterCache(c, current.characterId);
    return c.json(publicBook(updated), 200);
  })
  .delete("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const book = await findOwnLorebook(c.env.DB, c.req.param("id"), c.get("user")!.id);
    await deleteLorebook(c.env.DB, book);
    if (book.characterId !== null) await purgeCharacterCache(c, book.characterId);
    return c.body(null, 204);
  });

/** Under `/api/characters`: the standalone books a character's creator attached to it. */
export const characterLorebooksRoutes = new Hono<AppEnv>()
  .get("/:id/lorebooks", requireUser, async (c) => {
    const character = await findOwnCharacter(c.env.DB, parseCharacterId(c.req.param("id")), c.get("user")!.id);
    c.header("Cache-Control", "private, no-store");
    return c.json({ lorebookIds: await characterLorebookIds(c.env.DB, character.id) }, 200);
  })
  .put("/:id/lorebooks", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", lorebookAttachSchema), async (c) => {
    const user = c.get("user")!;
    const character = await findOwnCharacter(c.env.DB, parseCharacterId(c.req.param("id")), user.id);
    const { lorebookIds } = c.req.valid("json");
    await attachToCharacter(c.env.DB, character.id, user.id, lorebookIds);
    return c.json({ lorebookIds }, 200);
  });
