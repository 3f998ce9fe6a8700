/**
 * `/api/conversations` (SPEC.md §7, issue "Real-time chat"): start a
 * conversation, read it and its messages (the owner only; 404 for anyone
 * else, DESIGN.md "Ownership"), list the person's conversations ("My
 * Chats", searched by title, character or the words of any message), delete one (the owner; its
 * room's storage goes too), and rate a character's reply. Every
 * conversation answer embeds its `character` (schema/chat.ts `ConversationCharacter`), inactive or not,
 * so the chat page needs no `GET /api/characters/:id`.
 *
 * Steering a chat (docs/decisions/0007-steering-a-chat.md): branch from a
 * message, pick the persona played, export as SillyTavern chat JSONL or
 * Markdown, and import a SillyTavern chat onto a character.
 *
 * Group chats (DESIGN.md "Group chats"): start with a cast
 * (`{characterIds}`), rename or choose the reply order (`PATCH /:id`), add,
 * remove, mute and tune members (`/:id/characters…`), import a SillyTavern
 * group chat onto a cast (`?characterIds=`). Only the owner; anyone else 404.
 *
 * Messages live in the conversation's Durable Object; the live chat itself
 * is the WebSocket of worker/routes/ws.ts.
 */
import { Hono } from "hono";
import { chatModelName } from "../../ai/chat-models.ts";
import type { Conversation, MessageRating } from "../../schema/chat.ts";
import {
  branchInputSchema,
  branchTitle,
  castAddInputSchema,
  castTitle,
  castMemberPatchSchema,
  conversationPatchSchema,
  chatExportQuerySchema,
  chatImportQuerySchema,
  conversationInputSchema,
  conversationListQuerySchema,
  conversationPersonaInputSchema,
  conversationTitle,
  newConversationInputSchema,
  ratingInputSchema,
} from "../../schema/chat.ts";
import type { AppEnv } from "../env.ts";
import { attachmentDisposition } from "../lib/downloads.ts";
import {
  addCastMember,
  type ConversationStart,
  conversationRoom,
  chatCharacter,
  chatCharacters,
  createConversation,
  deleteOwnConversation,
  findConversationFor,
  findOwnConversationPersona,
  moderatedRoom,
  removeCastMember,
  roomPerson,
  setConversationPersona,
  updateCastMember,
  updateConversation,
} from "../lib/conversations.ts";
import { listConversations } from "../lib/conversation-list.ts";
import { deleteConversationStorage } from "../lib/characters.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { afterResponse } from "../lib/after-response.ts";
import { inbox } from "../lib/notifications/notify.ts";
import { setConversationModel } from "../lib/model-connections.ts";
import {
  castImportedMessages,
  MAX_CHAT_IMPORT_BYTES,
  readSillyTavernJsonl,
  writeChatMarkdown,
  writeSillyTavernJsonl,
} from "../lib/sillytavern-chat.ts";
import { chatImportFieldLabel, screenWrite, TEXT_OF } from "../lib/screening.ts";
import { createInvite, removeMember, requireOwner, revokeInvite, roleOf, setMemberPersona } from "../lib/shared-rooms.ts";
import { forgetSharePictures } from "../lib/share-pictures.ts";
import { chatShareTokens } from "../lib/shares.ts";
import { readBodyLimited } from "../lib/uploads.ts";
import { validate } from "../lib/validate.ts";
import { attachToConversation, conversationLorebookIds, copyConversationLorebooks } from "../lib/lorebooks.ts";
import { purgeShareCache } from "../middleware/edge-cache.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";
import type { SessionUser } from "../lib/sessions.ts";

const CONVERSATION_NOT_FOUND = "Conversation not found";

async function start(env: Env, user: SessionUser, characterIds: readonly number[], title: string | null, how?: ConversationStart) {
  const characters = await chatCharacters(env.DB, characterIds, user.id);
  return createConversation(env, { user, characters, title, start: how }, chatModelName(env));
}

/** Whether any of the characters is NSFW (the context a cast's text is screened in). */
async function anyNsfw(db: D1Database, characterIds: readonly number[]): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS yes FROM characters WHERE id IN (SELECT value FROM json_each(?)) AND is_nsfw = 1 LIMIT 1")
    .bind(JSON.stringify(characterIds))
    .first();
  return row !== null;
}

/**
 * The name of every reply's speaker: the cast's, and for members removed
 * since (their replies stay), the character's name as D1 has it. One query
 * only when there are such replies.
 */
async function speakerNames(
  db: D1Database,
  cast: readonly { id: number; name: string }[],
  messages: readonly { characterId?: number }[],
): Promise<Map<number, string>> {
  const names = new Map(cast.map((member) => [member.id, member.name]));
  const former = [...new Set(messages.flatMap((m) => (m.characterId !== undefined && !names.has(m.characterId) ? [m.characterId] : [])))];
  if (former.length > 0) {
    const { results } = await db
      .prepare("SELECT id, name FROM characters WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(former))
      .all<{ id: number; name: string }>();
    for (const row of results) names.set(Number(row.id), row.name);
  }
  return names;
}

/** A character id from the path: a positive whole number, else 404 (it names nothing). */
function characterIdParam(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound("That character is not in this chat");
  return Number(raw);
}

/** Conversation `id` as `userId` may read it (theirs, or a shared room they joined), or 404 "Conversation not found". */
async function readableConversation(env: Env, id: string, userId: string) {
  const conversation = await findConversationFor(env.DB, id, userId, chatModelName(env));
  if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
  return conversation;
}

/**
 * The person's own conversation `id`: 404 "Conversation not found" for
 * anyone outside it, 403 for a member of the shared room (`what` names the
 * owner's power, DESIGN.md "Shared rooms").
 */
async function ownConversation(env: Env, id: string, userId: string, what = "change this chat") {
  const conversation = await readableConversation(env, id, userId);
  requireOwner(conversation, userId, what);
  return conversation;
}

/**
 * The text of an uploaded chat file: at most MAX_CHAT_IMPORT_BYTES of UTF-8.
 * Throws 400 for a larger file or one that is not UTF-8 text (the issue
 * asks every refused import to be a 400, the file too large included).
 */
async function chatFileText(request: Request): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyLimited(request, MAX_CHAT_IMPORT_BYTES, "The chat file");
  } catch (error) {
    if (error instanceof ApiError && error.code === "payload_too_large") throw new ApiError("validation_failed", error.message);
    throw error;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("validation_failed", "The chat file is not UTF-8 text (export it from SillyTavern as .jsonl)");
  }
}

export const conversationsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, validate("query", conversationListQuerySchema), async (c) => {
    const list = await listConversations(c.env, c.get("user")!.id, chatModelName(c.env), c.req.valid("query"));
    return c.json(list, 200);
  })
  .post("/", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", conversationInputSchema), async (c) => {
    const { characterIds, title } = c.req.valid("json");
    const user = c.get("user")!;
    const characters = await chatCharacters(c.env.DB, characterIds, user.id);
    // The title is shown in My Chats and exports (issue 21).
    const nsfw = await anyNsfw(c.env.DB, characterIds);
    await screenWrite(c.env, {
      subjectType: "conversation",
      text: TEXT_OF.conversation(c.req.valid("json")),
      nsfw,
      who: { userId: user.id, characterId: characterIds[0]! },
    });
    return c.json(await createConversation(c.env, { user, characters, title }, chatModelName(c.env)), 201);
  })
  .post("/new", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", newConversationInputSchema), async (c) => {
    return c.json(await start(c.env, c.get("user")!, [c.req.valid("json").characterId], null), 201);
  })
  .post("/import", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("query", chatImportQuerySchema), async (c) => {
    const user = c.get("user")!;
    const { characterIds } = c.req.valid("query");
    // The characters first: a file for characters the person may not chat with is not even read.
    const characters = await chatCharacters(c.env.DB, characterIds, user.id);
    let chat;
    try {
      chat = readSillyTavernJsonl(await chatFileText(c.req.raw));
    } catch (error) {
      if (error instanceof ApiError && error.code === "payload_too_large") throw new ApiError("validation_failed", error.message);
      throw error;
    }
    // A group chat's replies go to the member with their name; an unknown name is a 400 naming it.
    const messages = castImportedMessages(chat.messages, characters);
    // Every message and swipe of the file, as a chat message would be (issue 21); nothing is stored on a refusal.
    const nsfw = await anyNsfw(c.env.DB, characterIds);
    await screenWrite(c.env, {
      subjectType: "conversation",
      text: TEXT_OF.chatImport(messages),
      nsfw,
      who: { userId: user.id, characterId: characterIds[0]! },
      // A refusal names the message of the file (issues[].path "messages.N", N from 0) and why.
      fields: messages.flatMap((message, index) => [
        { path: `messages.${index}`, text: message.content },
        ...message.alternatives.map((text, swipe) => ({ path: `messages.${index}.alternatives.${swipe}`, text })),
      ]),
      label: chatImportFieldLabel,
    });
    return c.json(
      await createConversation(c.env, { user, characters, title: null, start: { kind: "messages", messages } }, chatModelName(c.env)),
      201,
    );
  })
  .get("/:id", requireUser, async (c) => {
    const userId = c.get("user")!.id;
    const conversation = await readableConversation(c.env, c.req.param("id"), userId);
    // The chat's lorebooks are the owner's own books (404 to anyone else at /api/lorebooks/{id}), attached by the owner
    // alone: a member of the shared room gets no `lorebookIds` at all — not [], which would say no book applies.
    const answer: Conversation =
      conversation.userId === userId ? { ...conversation, lorebookIds: await conversationLorebookIds(c.env.DB, conversation.id) } : conversation;
    return c.json(answer, 200);
  })
  .patch("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", conversationPatchSchema), async (c) => {
    const user = c.get("user")!;
    const conversation = await ownConversation(c.env, c.req.param("id"), user.id, "change this chat");
    const patch = c.req.valid("json");
    if (patch.title !== undefined) {
      await screenWrite(c.env, {
        subjectType: "conversation",
        text: TEXT_OF.conversation(patch),
        nsfw: await anyNsfw(c.env.DB, conversation.characters.map((member) => member.id)),
        who: { userId: user.id, characterId: conversation.characterId },
      });
    }
    // Which model writes the chat (DESIGN.md "Your own model (turn 3)"): the room reads it from D1 at its next reply.
    if (patch.modelConnectionId !== undefined) await setConversationModel(c.env.DB, conversation.id, user.id, patch.modelConnectionId);
    // The chat's lorebooks (DESIGN.md turn 4 "Lorebooks"): the room reads them from D1 at its next reply.
    if (patch.lorebookIds !== undefined) await attachToConversation(c.env.DB, conversation.id, user.id, patch.lorebookIds);
    const updated = await updateConversation(c.env, conversation, patch);
    // Every answer to the owner carries the chat's books, so the page's copy of the chat keeps them after any change.
    const answer: Conversation = { ...updated, lorebookIds: patch.lorebookIds ?? (await conversationLorebookIds(c.env.DB, conversation.id)) };
    return c.json(answer, 200);
  })
  .delete("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const user = c.get("user")!;
    // 404 outside the chat, 403 for a member of the shared room (members lose it with the owner's delete).
    const conversation = await ownConversation(c.env, c.req.param("id"), user.id, "delete this chat");
    // Its share links go with it (foreign key): their cached pages and reads are purged after.
    const shareTokens = await chatShareTokens(c.env.DB, conversation.id);
    if (!(await deleteOwnConversation(c.env.DB, conversation.id, user.id))) throw notFound(CONVERSATION_NOT_FOUND);
    // D1 first: once the row is gone nobody reaches the room, whose sockets close and storage is wiped.
    await deleteConversationStorage(c.env, [conversation.id]);
    // Their pictures' copies go too (worker/lib/share-pictures.ts).
    await forgetSharePictures(c.env, shareTokens);
    await purgeShareCache(c, shareTokens);
    return c.body(null, 204);
  })
  .post("/:id/characters", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", castAddInputSchema), async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user")!.id, "change the cast");
    return c.json(await addCastMember(c.env, conversation, c.req.valid("json").characterId), 201);
  })
  .patch("/:id/characters/:characterId", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", castMemberPatchSchema), async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user")!.id, "change the cast");
    const characterId = characterIdParam(c.req.param("characterId"));
    return c.json(await updateCastMember(c.env, conversation, characterId, c.req.valid("json")), 200);
  })
  .delete("/:id/characters/:characterId", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user")!.id, "change the cast");
    await removeCastMember(c.env, conversation, characterIdParam(c.req.param("characterId")));
    return c.body(null, 204);
  })
  .post("/:id/invites", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user")!.id, "invite people");
    return c.json(await createInvite(c.env.DB, conversation.id), 201);
  })
  .delete("/:id/invites/:token", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const conversation = await ownConversation(c.env, c.req.param("id"), c.get("user")!.id, "revoke invitations");
    await revokeInvite(c.env.DB, conversation.id, c.req.param("token"));
    return c.body(null, 204);
  })
  .delete("/:id/members/:userId", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const user = c.get("user")!;
    const conversation = await readableConversation(c.env, c.req.param("id"), user.id);
    const target = c.req.param("userId").toLowerCase();
    await removeMember(c.env.DB, conversation, user.id, target);
    // Their sockets close; every later read or upgrade is a 404 (the row is gone).
    await conversationRoom(c.env, conversation.id).removePerson(target);
    // Nothing of a room they left stays in their notifications (nor on their badge).
    await afterResponse(
      c,
      inbox(c.env, target)
        .forgetScopes([{ type: "conversation", id: conversation.id }])
        .catch((error: unknown) => console.warn("could not take a left room's notifications back", String(error))),
    );
    return c.body(null, 204);
  })
  .get("/:id/messages", requireUser, async (c) => {
    const user = c.get("user")!;
    const conversation = await readableConversation(c.env, c.req.param("id"), user.id);
    const messages = await (await moderatedRoom(c.env, conversation.id)).listMessages(user.id, roleOf(conversation, user.id) === "member");
    if (!messages) throw notFound(CONVERSATION_NOT_FOUND);
    return c.json(messages, 200);
  })
  .post(
    "/:id/messages/:messageId/rating",
    requireUser,
    limitWrites("WRITE_RATE_LIMITER"),
    validate("json", ratingInputSchema),
    async (c) => {
      const user = c.get("user")!;
      const conversation = await readableConversation(c.env, c.req.param("id"), user.id);
      const messageId = c.req.param("messageId");
      if (messageId.length > 100) throw notFound("Message not found");
      const result = await conversationRoom(c.env, conversation.id).rateMessage(
        user.id,
        messageId,
        c.req.valid("json").value,
        roleOf(conversation, user.id) === "member",
      );
      if (!result.ok) {
        if (result.reason === "not_a_reply") {
          throw new ApiError("validation_failed", "Only the character's replies can be rated", {
            issues: [{ path: "messageId", message: "Only the character's replies can be rated" }],
          });
        }
        throw notFound("Message not found");
      }
      return c.json({ messageId, rating: result.rating } satisfies MessageRating, 200);
    },
  )
  .post("/:id/branch", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", branchInputSchema), async (c) => {
    const user = c.get("user")!;
    // Any member branches into a private copy of their own.
    const source = await readableConversation(c.env, c.req.param("id"), user.id);
    const copied = await (await moderatedRoom(c.env, source.id)).branchSource(
      user.id,
      c.req.valid("json").messageId,
      roleOf(source, user.id) === "member",
    );
    if (copied === "busy") throw new ApiError("conflict", "Please wait for the reply to finish before branching.");
    if (!copied) throw notFound("Message not found");
    const how: ConversationStart = { kind: "messages", ...copied, branchedFrom: { id: source.id, title: source.title } };
    // The branch keeps the cast as it is (members the person may still see), with its settings and reply order.
    const characters = await chatCharacters(c.env.DB, source.characters.map((member) => member.id), user.id, { skipMissing: true });
    const castSettings = new Map(source.characters.map((member) => [member.id, { muted: member.muted, talkativeness: member.talkativeness }]));
    const branch = await createConversation(
      c.env,
      { user, characters, title: branchTitle(source.title ?? castTitle(characters.map((character) => character.name))), start: how, castSettings, replyOrder: source.replyOrder },
      chatModelName(c.env),
    );
    // The chat's books that are the brancher's own go along; its timers came with `how` (room/lore.ts).
    const lorebookIds = await copyConversationLorebooks(c.env.DB, source.id, branch.id, user.id);
    return c.json({ ...branch, lorebookIds } satisfies Conversation, 201);
  })
  .put("/:id/persona", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", conversationPersonaInputSchema), async (c) => {
    const user = c.get("user")!;
    const conversation = await readableConversation(c.env, c.req.param("id"), user.id);
    const { personaId } = c.req.valid("json");
    let persona;
    if (roleOf(conversation, user.id) === "owner") persona = await setConversationPersona(c.env.DB, conversation.id, user.id, personaId);
    else {
      // A member of a shared room picks their own, null for none (docs/decisions/0025).
      await setMemberPersona(c.env.DB, conversation.id, user.id, personaId);
      persona = (await findOwnConversationPersona(c.env.DB, conversation.id, user.id))?.persona ?? null;
    }
    // Open chats use it from their next reply on.
    await conversationRoom(c.env, conversation.id).setPersona(user.id, roomPerson(user, persona));
    return c.json({ ...conversation, personaId: personaId?.toLowerCase() ?? null }, 200);
  })
  .get("/:id/export", requireUser, validate("query", chatExportQuerySchema), async (c) => {
    const user = c.get("user")!;
    const conversation = await readableConversation(c.env, c.req.param("id"), user.id);
    const [messages, person] = await Promise.all([
      moderatedRoom(c.env, conversation.id).then((room) => room.listMessages(user.id, roleOf(conversation, user.id) === "member")),
      findOwnConversationPersona(c.env.DB, conversation.id, user.id),
    ]);
    if (!messages) throw notFound(CONVERSATION_NOT_FOUND);
    const chat = {
      userName: roomPerson(user, person?.persona ?? null).userName,
      characterName: conversation.character.name,
      createdAt: conversation.createdAt,
      messages,
      speakerNames: await speakerNames(c.env.DB, conversation.characters, messages),
      // Pictures are written as full URLs, so the file opens elsewhere.
      origin: new URL(c.req.url).origin,
    };
    const name = conversation.title ?? conversationTitle(conversation.character.name);
    if (c.req.valid("query").format === "markdown") {
      return c.body(writeChatMarkdown(chat), 200, {
        "Content-Type": "text/markdown; charset=utf-8",
        "Content-Disposition": attachmentDisposition(name, "md"),
      });
    }
    return c.body(writeSillyTavernJsonl(chat), 200, {
      "Content-Type": "application/jsonl; charset=utf-8",
      "Content-Disposition": attachmentDisposition(name, "jsonl"),
    });
  });
