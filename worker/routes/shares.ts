/**
 * Share links of chats (DESIGN.md "Sharing and forks"; docs/decisions/0036;
 * rules and SQL in worker/lib/shares.ts):
 * - `POST /api/conversations/{id}/shares` `{upToMessageId?}` (the owner) →
 *   201 `{token, url}`: a snapshot of the visible history then;
 * - `GET /api/conversations/{id}/shares` (the owner) → 200 `{shares: [ShareLink]}`, newest first;
 * - `DELETE /api/conversations/{id}/shares/{token}` (the owner) → 204, then 404;
 * - `GET /api/shares/{token}` (anyone, visitors included) → 200 SharedChat,
 *   an NSFW one withheld without `showNsfw=true`; visitors' reads from the
 *   edge cache within its staleness bound (worker/middleware/edge-cache.ts);
 * - `POST /api/shares/{token}/continue` (signed in) → 201 `{conversationId}`:
 *   a new chat of the reader's own holding the snapshot.
 * A share's pictures are copied to files of its own when it is made and
 * deleted with it (worker/lib/share-pictures.ts).
 * A member of a shared room gets 403 on the owner's routes, anyone else 404
 * (as the conversation routes answer), a visitor 401.
 */
import { Hono } from "hono";
import { chatModelName } from "../../ai/chat-models.ts";
import { conversationTitle } from "../../schema/chat.ts";
import { SHARE_TOKEN_PATTERN, shareInputSchema, shareQuerySchema, type ContinuedShare } from "../../schema/shares.ts";
import type { AppEnv } from "../env.ts";
import { shareCacheTag } from "../lib/edge-cache.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  chatCharacters,
  createConversation,
  findConversationFor,
  findOwnConversationPersona,
  moderatedRoom,
  promptName,
} from "../lib/conversations.ts";
import type { SessionUser } from "../lib/sessions.ts";
import { chatPictureKey, copySharePictures, deleteSharePictures, forgetSharePictures } from "../lib/share-pictures.ts";
import { requireOwner } from "../lib/shared-rooms.ts";
import {
  createShare,
  findShare,
  listShares,
  newShareToken,
  personNamer,
  readShare,
  revokeShare,
  SHARE_NOT_FOUND,
  shareSeed,
  snapshotMessages,
} from "../lib/shares.ts";
import { validate } from "../lib/validate.ts";
import { edgeCache, purgeShareCache } from "../middleware/edge-cache.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** The owner's conversation `id`: 404 outside it, 403 for a member of the shared room. */
async function ownConversation(env: Env, id: string, userId: string, what: string) {
  const conversation = await findConversationFor(env.DB, id, userId, chatModelName(env));
  if (!conversation) throw notFound("Conversation not found");
  requireOwner(conversation, userId, what);
  return conversation;
}

/** Names and NSFW flags of `ids` (the cast and any former member who spoke), one query. */
async function charactersOf(db: D1Database, ids: readonly number[]): Promise<Map<number, { name: string; isNsfw: boolean }>> {
  const { results } = await db
    .prepare("SELECT id, name, is_nsfw AS isNsfw FROM characters WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ id: number; name: string; isNsfw: number }>();
  return new Map(results.map((row) => [Number(row.id), { name: row.name, isNsfw: Boolean(row.isNsfw) }]));
}

const cachedShare = edgeCache({
  target: (c) => {
    const token = c.req.param("token") ?? "";
    return SHARE_TOKEN_PATTERN.test(token) ? { path: `/api/shares/${token}`, tag: shareCacheTag(token) } : null;
  },
  validatedQuery: true,
});

/** Mounted at `/api/conversations`. */
export const conversationSharesRoutes = new Hono<AppEnv>()
  .post("/:id/shares", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", shareInputSchema), async (c) => {
    const user: SessionUser = c.get("user");
    const conversation = await ownConversation(c.env, c.req.param("id"), user.id, "share this chat");
    const [messages, own] = await Promise.all([
      moderatedRoom(c.env, conversation.id).then((room) => room.listMessages(user.id)),
      findOwnConversationPersona(c.env.DB, conversation.id, user.id),
    ]);
    if (!messages) throw notFound("Conversation not found");
    const speakers = messages.flatMap((message) => (message.characterId !== undefined ? [message.characterId] : []));
    const known = await charactersOf(c.env.DB, [...conversation.characters.map((member) => member.id), ...speakers]);
    const names = new Map([...known].map(([id, character]) => [id, character.name]));
    for (const member of conversation.characters) names.set(member.id, member.name);
    const authors = [user.id, ...messages.flatMap((message) => (message.authorId ? [message.authorId] : []))];
    const ownerName = own?.persona?.name.trim() || user.name?.trim() || user.firstName?.trim() || promptName(user);
    const personName = await personNamer(c.env.DB, authors, ownerName);
    const snapshot = snapshotMessages(messages, c.req.valid("json").upToMessageId, names, (authorId, name) => personName(authorId ?? user.id, name));
    const isNsfw =
      conversation.characters.some((member) => known.get(member.id)?.isNsfw) ||
      snapshot.messages.some((message) => message.characterId !== null && known.get(message.characterId)?.isNsfw);
    // The pictures shown are copied to the share's own files first, under a token nobody knows yet; one gone meanwhile is left out.
    const token = newShareToken();
    const placed = snapshot.messages.map((message, position) => ({ ...message, position }));
    const pictures = placed.flatMap((message) => {
      if (message.kind !== "image") return [];
      const sourceKey = chatPictureKey(message.sourceUrl, conversation.id);
      return sourceKey ? [{ position: message.position, sourceKey }] : [];
    });
    let copied: Set<number>;
    try {
      copied = await copySharePictures(c.env.AVATARS, token, pictures);
    } catch (error) {
      await deleteSharePictures(c.env.AVATARS, token).catch(() => 0);
      throw error;
    }
    const kept = placed.filter((message) => message.kind !== "image" || copied.has(message.position));
    if (kept.length === 0) throw new ApiError("validation_failed", "There is nothing to share yet: write a message first.");
    const share = await createShare(
      c.env.DB,
      {
        conversationId: conversation.id,
        ownerId: user.id,
        title: conversation.title ?? conversationTitle(conversation.character.name),
        characters: conversation.characters.map((member) => ({ id: member.id, name: member.name, avatarUrl: member.avatarUrl })),
        sharedBy: personName(user.id, ownerName),
        isNsfw,
      },
      { messages: kept, lastMessageId: snapshot.lastMessageId },
      token,
    ).catch(async (error: unknown) => {
      // Refused (the links' cap) or failed: its copies go.
      if (copied.size > 0) await deleteSharePictures(c.env.AVATARS, token).catch(() => 0);
      throw error;
    });
    return c.json(share, 201);
  })
  .get("/:id/shares", requireUser, async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user").id, "see this chat's share links");
    return c.json({ shares: await listShares(c.env.DB, conversation.id) }, 200);
  })
  .delete("/:id/shares/:token", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user").id, "revoke share links");
    const token = c.req.param("token");
    await revokeShare(c.env.DB, conversation.id, token);
    await forgetSharePictures(c.env, [token]);
    await purgeShareCache(c, [token]);
    return c.body(null, 204);
  });

/** Mounted at `/api/shares`. */
export const sharesRoutes = new Hono<AppEnv>()
  .get("/:token", validate("query", shareQuerySchema), cachedShare, async (c) => {
    return c.json(await readShare(c.env.DB, c.req.param("token"), c.req.valid("query").showNsfw === "true"), 200);
  })
  .post("/:token/continue", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const user = c.get("user");
    const share = await findShare(c.env.DB, c.req.param("token"));
    if (!share) throw notFound(SHARE_NOT_FOUND);
    const castIds = (JSON.parse(share.characters) as { id: number }[]).map((member) => member.id);
    // The cast as the reader may chat with it now (a member since deleted or made private is left out).
    let characters;
    try {
      characters = await chatCharacters(c.env.DB, castIds, user.id, { skipMissing: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw notFound("The characters of this story are no longer available");
      throw error;
    }
    const seed = await shareSeed(c.env.DB, share, new Set(characters.map((character) => character.id)), user.id);
    // Each picture's file as the share keeps it (its type for the new chat's row); one gone meanwhile is left out.
    const heads = await Promise.all(seed.pictures.map((picture) => c.env.AVATARS.head(picture.sourceKey)));
    const pictures = seed.pictures.flatMap((picture, i) => {
      const head = heads[i];
      if (!head) return [];
      return [{ ...picture, contentType: head.customMetadata?.contentType ?? head.httpMetadata?.contentType ?? picture.contentType }];
    });
    const conversation = await createConversation(
      c.env,
      { user, characters, title: share.title, start: { kind: "messages", messages: seed.messages, pictures } },
      chatModelName(c.env),
    );
    return c.json({ conversationId: conversation.id } satisfies ContinuedShare, 201);
  });
