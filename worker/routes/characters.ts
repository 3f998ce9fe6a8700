/**
 * `/api/characters` — the catalog and a creator's writes (SPEC.md §7; rules
 * in DESIGN.md "Inactive characters" and "Ownership"). A character's
 * `avatarUrl` may be an outside https URL, the demo artwork or the creator's
 * own upload, never someone else's (400, `assertOwnPicture`).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { catalogQuerySchema, characterInputSchema, characterUpdateSchema, forksQuerySchema } from "../../schema/inputs.ts";
import { assertKnownVoice } from "../lib/voices.ts";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import { queuePublication } from "../lib/notifications/fan-out.ts";
import { listCharacters, viewCharacter } from "../lib/catalog.ts";
import { viewerById } from "../lib/catalog-rows.ts";
import { catalogCacheQuery } from "../lib/edge-cache.ts";
import {
  createCharacter,
  defaultCreator,
  deleteCharacter,
  deleteConversationStorage,
  findOwnCharacter,
  removedByModeration,
  toggleCharacterActive,
  updateCharacter,
  withoutUndefined,
} from "../lib/characters.ts";
import { ApiError, forbidden, notFound, suspended, unauthorized, validationFailed } from "../lib/errors.ts";
import { parseCharacterId } from "../lib/ids.ts";
import { changesScreenedText, flagCharacter, HELD_MESSAGE, isHeldForReview, screenCharacter } from "../lib/screening.ts";
import { sessionUserSql } from "../lib/sessions.ts";
import { forgetSharePictures } from "../lib/share-pictures.ts";
import { characterShareTokens } from "../lib/shares.ts";
import { isUsernameAvailable } from "../lib/users.ts";
import { refuseIfBlocked } from "../lib/blocks.ts";
import { createFork, findForkable, forkInput, listForks } from "../lib/forks.ts";
import { validate } from "../lib/validate.ts";
import { sendView } from "../lib/views.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { assertOwnPicture, deleteUnusedAvatar } from "../lib/uploads.ts";
import { assetKeyOfUrl, deleteUnusedAssetObjects } from "../lib/cards/assets.ts";
import { characterTarget, edgeCache, purgeCharacterCache, purgeShareCache } from "../middleware/edge-cache.ts";
import { pendingSessionLookup, requireUser, settlePendingSession } from "../middleware/session.ts";

/** Largest JSON body of a character write, bytes; larger bodies get 413 before parsing. */
const MAX_CHARACTER_BODY_BYTES = 4 * 1024 * 1024;

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

/** 400 for an edit whose shown creator name is another person's username (in any spelling). */
export const CREATOR_NAME_TAKEN = "That name belongs to another creator. Use your own name or a pen name nobody holds.";

/** Sends a view to the views queue after the answer; a failed send loses this one view (logged), never the page. */
const queueView = (queue: Queue, id: number) =>
  sendView(queue, id).catch((error: unknown) => console.error("view not sent to the queue", String(error)));

const cachedList = edgeCache({
  target: () => ({ path: "/api/characters" }),
  validatedQuery: true,
  keyQuery: catalogCacheQuery,
  caseless: ["creator"],
});

const cachedDetail = edgeCache({
  target: (c) => characterTarget(c, ""),
  // A page served from the cache is still a view, counted through the views queue.
  onHit: (c) => queueView(c.env.VIEWS, parseCharacterId(c.req.param("id")!)),
});

export const charactersRoutes = new Hono<AppEnv>()
  .get("/", validate("query", catalogQuerySchema), cachedList, async (c) => {
    const query = c.req.valid("query");
    // One D1 round trip: a signed-in person's session is looked up in the
    // list's own batch and their personal parts computed from it in SQL
    // (worker/middleware/session.ts BATCHED_SESSION_ROUTES).
    const pending = c.get("pendingSession");
    const { characters, total, leading } = await listCharacters(
      c.env.DB,
      query,
      pending?.sid ? { viewer: sessionUserSql(pending.sid, pending.now) } : { userId: c.get("user")?.id },
      pendingSessionLookup(c),
    );
    const user = await settlePendingSession(c, leading[0]?.[0]);
    // Home's Following tab: whose characters depends on who asks.
    if (query.following === "true" && query.creator === undefined) {
      if (!user) throw c.get("suspended") ? suspended() : unauthorized();
      c.header("Cache-Control", "private, no-store");
    }
    // A cookie that names nobody (signed out, expired, suspended) reads as a visitor.
    const shown = user ? characters : characters.map(({ isFavorited: _, ...character }) => character);
    return c.json({ characters: shown, total }, 200);
  })
  .get("/:id", cachedDetail, async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    // One round trip signed in too: the session is looked up in the character's own batch.
    const pending = c.get("pendingSession");
    const signedIn = c.get("user");
    const { character, leading } = await viewCharacter(
      c.env.DB,
      id,
      pending?.sid ? sessionUserSql(pending.sid, pending.now) : signedIn ? viewerById(signedIn.id) : null,
      pendingSessionLookup(c),
    );
    const user = await settlePendingSession(c, leading[0]?.[0]);
    if (!character) throw notFound("Character not found");
    // Every view but the owner's own (their edit page reads the character this way) is counted,
    // through the views queue after the answer; the read writes nothing.
    if (!user || character.creatorId !== user.id) {
      await afterResponse(c, queueView(c.env.VIEWS, id));
    }
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
      const input = c.req.valid("json");
      assertOwnPicture(input.avatarUrl, user.id, "avatarUrl");
      assertKnownVoice(c.env, input.voice);
      const verdict = await screenCharacter(c.env, { ...input, characterBook: input.characterBook ?? null }, {
        userId: user.id,
        characterId: null,
      });
      const character = await createCharacter(c.env.DB, {
        ...input,
        creator: defaultCreator(user.username),
        creatorId: user.id,
      });
      // Followers hear of a listed character through the notifications queue, after the answer.
      if (!verdict.flagged || !verdict.held) {
        if (character.isActive) await afterResponse(c, queuePublication(c.env, character.id, user.id));
      }
      if (!verdict.flagged) return c.json(character, 201);
      await flagCharacter(c.env.DB, character, verdict);
      return c.json({ ...character, moderationStatus: "flagged" as const, ...(verdict.held ? { isActive: false } : {}) }, 201);
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
      const patch = c.req.valid("json");
      // The shown creator name may be any handle but another person's username (issue 16: no impersonation).
      if (patch.creator !== undefined && patch.creator !== current.creator && !(await isUsernameAvailable(c.env.DB, patch.creator, user.id))) {
        throw validationFailed({ issues: [{ path: ["creator"], message: CREATOR_NAME_TAKEN }] });
      }
      // Checked when it changes: a picture the character already shows stays editable around.
      if (patch.avatarUrl !== current.avatarUrl) assertOwnPicture(patch.avatarUrl, user.id, "avatarUrl");
      // Checked when it changes: a voice of an earlier configuration reads in the default until then.
      if (patch.voice !== undefined && patch.voice !== current.voice) assertKnownVoice(c.env, patch.voice);
      const next = { ...current, ...withoutUndefined(patch) };
      const verdict = changesScreenedText(current, next)
        ? await screenCharacter(c.env, next, { userId: user.id, characterId: id })
        : null;
      let updated = await updateCharacter(c.env.DB, current, patch);
      if (verdict?.flagged) {
        await flagCharacter(c.env.DB, updated, verdict);
        if (updated.moderationStatus === "ok") updated = { ...updated, moderationStatus: "flagged" };
        if (verdict.held) updated = { ...updated, isActive: false };
      }
      if (updated.avatarUrl !== current.avatarUrl) await afterResponse(c, deleteUnusedAvatar(c.env, current.avatarUrl, user.id));
      await purgeCharacterCache(c, id);
      return c.json(updated, 200);
    },
  )
  .get("/:id/forks", validate("query", forksQuerySchema), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    return c.json(await listForks(c.env.DB, id, c.get("user")?.id ?? null, c.req.valid("query")), 200);
  })
  .post("/:id/fork", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const user = c.get("user")!;
    const original = await findForkable(c.env.DB, id, user.id);
    await refuseIfBlocked(c.env.DB, user.id, original.creatorId, "fork");
    // The same rules as a new character: the input schema, then the pre-screen, before anything is written.
    const input = forkInput(original);
    const verdict = await screenCharacter(c.env, { ...input, characterBook: input.characterBook ?? null }, {
      userId: user.id,
      characterId: null,
    });
    const fork = await createFork(c.env, original, input, user);
    // The original's page shows the new count.
    await purgeCharacterCache(c, id);
    if (!verdict.flagged) return c.json(fork, 201);
    await flagCharacter(c.env.DB, fork, verdict);
    return c.json({ ...fork, moderationStatus: "flagged" as const }, 201);
  })
  .patch("/:id/toggle-active", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const current = await findOwnCharacter(c.env.DB, id, c.get("user")!.id);
    if (current.moderationStatus === "removed") throw removedByModeration();
    // Held back for review (docs/decisions/0028): it may be deactivated, not listed, until an operator clears it.
    if (!current.isActive && current.moderationStatus === "flagged" && (await isHeldForReview(c.env.DB, id))) throw forbidden(HELD_MESSAGE);
    const character = await toggleCharacterActive(c.env.DB, id);
    if (!character) throw notFound("Character not found");
    await purgeCharacterCache(c, id);
    // Published (again): followers hear of it through the queue; one unread notification per character.
    if (character.isActive) await afterResponse(c, queuePublication(c.env, id, c.get("user")!.id));
    return c.json(character, 200);
  })
  .delete("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const user = c.get("user")!;
    const current = await findOwnCharacter(c.env.DB, id, user.id);
    // Share links of chats that may go with it (a group chat stays, its links too): their cached copies are purged and their pictures follow the rows.
    const shareTokens = await characterShareTokens(c.env.DB, id);
    const conversationIds = await deleteCharacter(c.env.DB, id);
    await purgeCharacterCache(c, id);
    await purgeShareCache(c, shareTokens);
    // The D1 rows are gone; the rooms' own storage and the avatar are cleaned up after the answer.
    await afterResponse(
      c,
      Promise.all([
        deleteConversationStorage(c.env, conversationIds),
        forgetSharePictures(c.env, shareTokens),
        deleteUnusedAvatar(c.env, current.avatarUrl, user.id),
        // Its asset files, unless another character has the same bytes (worker/lib/cards/assets.ts).
        deleteUnusedAssetObjects(c.env, current.assets.map((asset) => assetKeyOfUrl(asset.url)).filter((key) => key !== null)),
      ]),
    );
    return c.json({ deleted: true }, 200);
  });
