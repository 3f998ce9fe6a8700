/**
 * `/api/characters` — the catalog and a creator's writes (SPEC.md §7; rules
 * in DESIGN.md "Inactive characters" and "Ownership").
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { Character } from "../../schema/api.ts";
import { catalogQuerySchema, characterInputSchema, characterUpdateSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { getCharacter, listCharacters, viewCharacter } from "../lib/catalog.ts";
import {
  createCharacter,
  deleteCharacter,
  deleteConversationStorage,
  toggleCharacterActive,
  updateCharacter,
} from "../lib/characters.ts";
import { ApiError, forbidden, notFound } from "../lib/errors.ts";
import { parseIntegerId } from "../lib/ids.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { deleteUnusedAvatar } from "../lib/uploads.ts";
import { requireUser } from "../middleware/session.ts";

/** Parses a path id; anything but a positive integer is a 404 (it names no character). */
export const parseCharacterId = (raw: string) => parseIntegerId(raw, "Character");

/** Largest JSON body of a character write, bytes; larger bodies get 413 before parsing. */
export const MAX_CHARACTER_BODY_BYTES = 4 * 1024 * 1024;

/** `creator` by default: the username without its leading "@" (it is shown as "@" + creator). */
export const defaultCreator = (username: string) => username.replace(/^@+/, "");

/**
 * The character `id` if `userId` may change it. Someone else's character is
 * 403, or 404 when it is inactive (its existence is private to its owner).
 */
export async function findOwnCharacter(db: D1Database, id: number, userId: string): Promise<Character> {
  const character = await getCharacter(db, id);
  if (!character || (!character.isActive && character.creatorId !== userId)) throw notFound("Character not found");
  if (character.creatorId !== userId) throw forbidden("Only the character's creator can change it");
  return character;
}

/**
 * Lets `work` finish after the response (waitUntil); awaits it instead when
 * there is no ExecutionContext (app.fetch called directly, as some tests do).
 */
async function afterResponse(c: { readonly executionCtx: Pick<ExecutionContext, "waitUntil"> }, work: Promise<unknown>): Promise<void> {
  let executionCtx: Pick<ExecutionContext, "waitUntil">;
  try {
    executionCtx = c.executionCtx;
  } catch {
    await work;
    return;
  }
  executionCtx.waitUntil(work);
}

const jsonBodyLimit = bodyLimit({ maxSize: MAX_CHARACTER_BODY_BYTES });

/**
 * Character bodies are JSON (SPEC.md §7). Without a JSON Content-Type the
 * validator would see no fields at all — for a partial update, a silent
 * no-op — so such a request is refused with 415.
 */
const jsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new ApiError("unsupported_media_type", "Send the character as JSON (Content-Type: application/json)");
  }
  await next();
});

export const charactersRoutes = new Hono<AppEnv>()
  .get("/", validate("query", catalogQuerySchema), async (c) => {
    const result = await listCharacters(c.env.DB, c.req.valid("query"), { userId: c.get("user")?.id });
    return c.json(result, 200);
  })
  .get("/:id", async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const character = await viewCharacter(c.env.DB, id, c.get("user")?.id);
    if (!character) throw notFound("Character not found");
    return c.json(character, 200);
  })
  .post(
    "/",
    requireUser,
    limitWrites("WRITE_RATE_LIMITER"),
    jsonBody,
    jsonBodyLimit,
    validate("json", characterInputSchema),
    async (c) => {
      const user = c.get("user")!;
      const character = await createCharacter(c.env.DB, {
        ...c.req.valid("json"),
        creator: defaultCreator(user.username),
        creatorId: user.id,
      });
      return c.json(character, 201);
    },
  )
  .put(
    "/:id",
    requireUser,
    limitWrites("WRITE_RATE_LIMITER"),
    jsonBody,
    jsonBodyLimit,
    validate("json", characterUpdateSchema),
    async (c) => {
      const id = parseCharacterId(c.req.param("id"));
      const user = c.get("user")!;
      const current = await findOwnCharacter(c.env.DB, id, user.id);
      const updated = await updateCharacter(c.env.DB, current, c.req.valid("json"));
      if (updated.avatarUrl !== current.avatarUrl) await afterResponse(c, deleteUnusedAvatar(c.env, current.avatarUrl, user.id));
      return c.json(updated, 200);
    },
  )
  .patch("/:id/toggle-active", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    await findOwnCharacter(c.env.DB, id, c.get("user")!.id);
    const character = await toggleCharacterActive(c.env.DB, id);
    if (!character) throw notFound("Character not found");
    return c.json(character, 200);
  })
  .delete("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const user = c.get("user")!;
    const current = await findOwnCharacter(c.env.DB, id, user.id);
    const conversationIds = await deleteCharacter(c.env.DB, id);
    // The D1 rows are gone; the rooms' own storage and the avatar are cleaned up after the answer.
    await afterResponse(
      c,
      Promise.all([deleteConversationStorage(c.env, conversationIds), deleteUnusedAvatar(c.env, current.avatarUrl, user.id)]),
    );
    return c.json({ deleted: true }, 200);
  });
