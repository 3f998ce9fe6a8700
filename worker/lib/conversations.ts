/**
 * Conversations on D1 and their rooms (DESIGN.md "Data"): D1's
 * `conversations` row holds owner, character, title, timestamps and the last
 * message's time and preview; the messages live in the conversation's
 * ConversationRoom, addressed by `idFromName(conversationId)`. Every
 * conversation answer embeds its character (`ConversationCharacter`), read by
 * a JOIN that ignores `is_active`: chats with a deactivated character keep
 * their name and avatar. A conversation may have been branched from
 * another ("Branch from here") or imported from a SillyTavern chat file:
 * either way its room starts with the messages it was given
 * (docs/decisions/0007-steering-a-chat.md).
 *
 * Group chats (DESIGN.md "Group chats"): a conversation's cast is its rows
 * of `conversation_characters` in member order; `conversations.character_id`
 * is always the first member. Every answer embeds the cast (`characters`)
 * and the reply order, read in the same query. A change of the cast or the
 * reply order is written to D1 and then told to the room (`setCast`).
 */
import {
  type CastMember,
  castTitle,
  type ChatModelName,
  type Conversation,
  type ConversationCharacter,
  type ConversationPatch,
  DEFAULT_TALKATIVENESS,
  MAX_CAST_SIZE,
  type ReplyOrder,
} from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import type { TimedState } from "../../schema/lorebook/activation.ts";
import { greetingFor, type RoomCastMember, type RoomGreeting, type SeedMessage, type SeedPicture } from "../../durable-objects/room-protocol.ts";
import { messagePreview } from "../../durable-objects/room/d1-sync.ts";
import { creatorUsernameSql } from "./catalog-rows.ts";
import type { SessionUser } from "./sessions.ts";
import { ApiError, notFound } from "./errors.ts";
import { chattableSql } from "./listable.ts";
import { COLUMNS, FROM_JOINED, fromJoined, type JoinedRow } from "./conversation-rows.ts";

export { HAS_REMOVED_CHARACTER_SQL, SHOWN_TITLE_SQL } from "./conversation-rows.ts";

/** Conversation ids are random UUIDs (DESIGN.md "Data"); anything else names nothing. */
export function isConversationId(raw: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw);
}

/** The stub of a conversation's room. */
export function conversationRoom(env: Env, conversationId: string): DurableObjectStub<ConversationRoom> {
  const rooms = env.CONVERSATIONS as unknown as DurableObjectNamespace<ConversationRoom>;
  return rooms.get(rooms.idFromName(conversationId.toLowerCase()));
}

/** What an operator took out of a conversation: messages they hid, and cast members they removed (ids). */
export interface ConversationModeration {
  hiddenMessageIds: string[];
  removedCharacterIds: number[];
}

/**
 * SQL (on conversation `v`): the JSON lists of ConversationModeration —
 * `hidden` (message ids) and `removed` (its first character and cast
 * members an operator removed).
 */
export const MODERATION_SQL = `(SELECT json_group_array(h.message_id) FROM hidden_messages h WHERE h.conversation_id = v.id) AS hidden,
  (SELECT json_group_array(rc.id) FROM characters rc WHERE rc.moderation_status = 'removed'
     AND (rc.id = v.character_id OR rc.id IN (SELECT cc.character_id FROM conversation_characters cc WHERE cc.conversation_id = v.id))) AS removed`;

/** Whether an operator removed message (or picture) `messageId` of conversation `conversationId` (`hidden_messages`). One D1 read by primary key. */
export async function isRemovedMessage(db: D1Database, conversationId: string, messageId: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS removed FROM hidden_messages WHERE conversation_id = ? AND message_id = ?")
    .bind(conversationId.toLowerCase(), messageId)
    .first<{ removed: number }>();
  return row !== null;
}

export function readModeration(row: { hidden: string; removed: string }): ConversationModeration {
  return { hiddenMessageIds: JSON.parse(row.hidden) as string[], removedCharacterIds: JSON.parse(row.removed) as number[] };
}

/**
 * The room of a conversation, first told what an operator took out of it,
 * so that nothing read from it shows it: the messages they hid
 * (`hidden_messages`; docs/decisions/0008-trust-and-safety.md), and every
 * message of a cast member they removed, its greeting included
 * (docs/decisions/0025). `known` when the caller already read them
 * (findOwnConversationPersona); otherwise one D1 query. The RPCs happen
 * only when there is something to hide.
 */
export async function moderatedRoom(env: Env, conversationId: string, known?: ConversationModeration): Promise<DurableObjectStub<ConversationRoom>> {
  const room = conversationRoom(env, conversationId);
  let moderation = known;
  if (!moderation) {
    const row = await env.DB.prepare(`SELECT ${MODERATION_SQL} FROM conversations v WHERE v.id = ?`)
      .bind(conversationId.toLowerCase())
      .first<{ hidden: string; removed: string }>();
    moderation = row ? readModeration(row) : { hiddenMessageIds: [], removedCharacterIds: [] };
  }
  if (moderation.hiddenMessageIds.length > 0) await room.hideMessages(moderation.hiddenMessageIds);
  if (moderation.removedCharacterIds.length > 0) await room.hideCharacterMessages(moderation.removedCharacterIds);
  return room;
}

/** What `{{user}}` becomes: first name, else name, else the username without "@". */
export function promptName(user: Pick<SessionUser, "firstName" | "name" | "username">): string {
  return user.firstName?.trim() || user.name?.trim() || user.username.replace(/^@/, "") || "User";
}


/**
 * The person's own conversation by id with its character embedded (active or
 * not), or null (unknown, malformed, or someone else's). One D1 query.
 */
export async function findOwnConversation(
  db: D1Database,
  id: string,
  userId: string,
  chatModel: ChatModelName,
): Promise<Conversation | null> {
  if (!isConversationId(id)) return null;
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM ${FROM_JOINED} WHERE v.id = ? AND v.user_id = ?`)
    .bind(id.toLowerCase(), userId)
    .first<JoinedRow>();
  return row ? fromJoined(row, chatModel) : null;
}

/** SQL: person `?2` may read conversation `v` — its owner, or a member of the shared room. */
const READER_SQL = `(v.user_id = ?2 OR EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = v.id AND m.user_id = ?2))`;

/**
 * A conversation `userId` may read — theirs, or a shared room they joined
 * (DESIGN.md "Shared rooms") — with its cast and people, or null (unknown,
 * malformed, or neither). One D1 query. `roleOf` (shared-rooms.ts) tells
 * owner from member; `personaId` is the reader's own (a member's: the one
 * they play there, null for none).
 */
export async function findConversationFor(db: D1Database, id: string, userId: string, chatModel: ChatModelName): Promise<Conversation | null> {
  if (!isConversationId(id)) return null;
  const row = await db
    .prepare(
      `SELECT ${COLUMNS}, (SELECT m.persona_id FROM conversation_members m WHERE m.conversation_id = v.id AND m.user_id = ?2) AS memberPersonaId
       FROM ${FROM_JOINED} WHERE v.id = ?1 AND ${READER_SQL}`,
    )
    .bind(id.toLowerCase(), userId)
    .first<JoinedRow & { memberPersonaId: string | null }>();
  if (!row) return null;
  // `personaId` is the reader's own: a member's is the one they play here, not the owner's.
  return fromJoined(row.userId === userId ? row : { ...row, personaId: row.memberPersonaId }, chatModel);
}

/** Who the person is in a conversation: its persona, else their default persona; null for neither. */
export interface ConversationPersona {
  name: string;
  description: string;
}

/**
 * The person's own conversation (id normalised to lower case) with the
 * persona they play in it — the one picked for it, else their default — and
 * what an operator took out of it (for moderatedRoom), or null
 * (unknown, malformed, or someone else's). One D1 query.
 */
export async function findOwnConversationPersona(
  db: D1Database,
  id: string,
  userId: string,
): Promise<({ id: string; persona: ConversationPersona | null; role: "owner" | "member" } & ConversationModeration) | null> {
  if (!isConversationId(id)) return null;
  // The owner plays the persona picked for the chat (else their default); a member of a shared room, the one they picked (none for null).
  const row = await db
    .prepare(
      `SELECT v.id, p.name AS personaName, p.description AS personaDescription, v.user_id = ?2 AS isOwner,
         ${MODERATION_SQL}
       FROM conversations v
       LEFT JOIN personas p ON p.user_id = ?2
         AND p.id = CASE WHEN v.user_id = ?2
                         THEN coalesce(v.persona_id, (SELECT d.id FROM personas d WHERE d.user_id = ?2 AND d.is_default = 1))
                         ELSE (SELECT m.persona_id FROM conversation_members m WHERE m.conversation_id = v.id AND m.user_id = ?2) END
       WHERE v.id = ?1 AND ${READER_SQL}`,
    )
    .bind(id.toLowerCase(), userId)
    .first<{ id: string; personaName: string | null; personaDescription: string | null; hidden: string; removed: string; isOwner: number }>();
  if (!row) return null;
  const persona = row.personaName === null ? null : { name: row.personaName, description: row.personaDescription ?? "" };
  return { id: row.id, persona, ...readModeration(row), role: row.isOwner ? "owner" : "member" };
}

/** What the room is told of the person (RoomVisitor): the persona's name for `{{user}}`, else promptName; its description, else "". */
export function roomPerson(user: SessionUser, persona: ConversationPersona | null): { userName: string; personaDescription: string } {
  return { userName: persona?.name.trim() || promptName(user), personaDescription: persona?.description ?? "" };
}

/** A character a conversation starts with: what the answer embeds, and its greetings. */
export type StartingCharacter = ConversationCharacter & { greeting: string | null; alternateGreetings: string[] };

type StartingRow = Omit<StartingCharacter, "alternateGreetings"> & { alternateGreetings: string | null };

const STARTING_COLUMNS = `c.id, c.name, c.avatar_url AS avatarUrl, c.creator, c.greeting, c.alternate_greetings AS alternateGreetings,
  ${creatorUsernameSql("c.creator_id")} AS creatorUsername`;

function startingCharacter(row: StartingRow): StartingCharacter {
  let alternates: unknown = [];
  try {
    alternates = JSON.parse(row.alternateGreetings ?? "[]");
  } catch {
    alternates = [];
  }
  return {
    ...row,
    creatorUsername: row.creatorUsername ?? null,
    alternateGreetings: Array.isArray(alternates) ? alternates.filter((g): g is string => typeof g === "string" && g.trim() !== "") : [],
  };
}

/**
 * The character `userId` may start a chat with — visible to them
 * (worker/lib/listable.ts: listed, or inactive and their own) and not
 * removed by moderation (chattableSql) — with what
 * the conversation needs: its greeting and what the answer embeds. Throws
 * 404 "Character not found" otherwise. One D1 query.
 */
export async function chatCharacter(db: D1Database, characterId: number, userId: string): Promise<StartingCharacter> {
  const character = await db
    .prepare(`SELECT ${STARTING_COLUMNS} FROM characters c WHERE c.id = ? AND ${chattableSql("c", "?")}`)
    .bind(characterId, userId)
    .first<StartingRow>();
  if (!character) throw notFound("Character not found");
  return startingCharacter(character);
}

/**
 * The characters of a new cast, in the order given (chatCharacter's rule
 * for each: visible to `userId`). Throws 404 "Character not found" when any
 * is not — or, with `skipMissing` (a branch), leaves those out and throws
 * only when none is left. One D1 query.
 */
export async function chatCharacters(
  db: D1Database,
  characterIds: readonly number[],
  userId: string,
  options: { skipMissing?: boolean } = {},
): Promise<StartingCharacter[]> {
  const { results } = await db
    .prepare(
      `SELECT ${STARTING_COLUMNS} FROM characters c
       WHERE c.id IN (SELECT value FROM json_each(?)) AND ${chattableSql("c", "?")}`,
    )
    .bind(JSON.stringify(characterIds), userId)
    .all<StartingRow>();
  const byId = new Map(results.map((row) => [Number(row.id), startingCharacter(row)]));
  const found = characterIds.flatMap((id) => {
    const character = byId.get(id);
    if (!character && !options.skipMissing) throw notFound("Character not found");
    return character ? [character] : [];
  });
  if (found.length === 0) throw notFound("Character not found");
  return found;
}

/** How a new conversation starts: with the character's greeting, or with given messages (a branch, an import). */
export type ConversationStart =
  | { kind: "greeting" }
  | {
      kind: "messages";
      messages: SeedMessage[];
      memory?: string;
      pictures?: SeedPicture[];
      /** A branch: the lorebook timers at its branch point (ConversationRoom.branchSource). */
      lorebookState?: TimedState | null;
      branchedFrom?: { id: string; title: string | null };
    };

/**
 * Starts a conversation with a character the person may see: the D1 row
 * (title conversationTitle, "Chat with {name}", unless given; the person's default persona
 * speaks for them), then the room, told its facts and given its first
 * messages — the greeting (macros replaced with the persona's name, else
 * the first name), or the messages of a branch or an import. D1's
 * `last_message_at`/preview are the last of those; `message_count` is not
 * raised by copied or imported messages (they were not exchanged here). If
 * the room cannot be set up, the row is removed again and the error thrown.
 */
export async function createConversation(
  env: Env,
  input: {
    user: SessionUser;
    /** The cast in member order (1–MAX_CAST_SIZE, distinct). */
    characters: StartingCharacter[];
    title: string | null;
    start?: ConversationStart;
    /** A branch keeps its source's mute and talkativeness (by character id) and reply order. */
    castSettings?: ReadonlyMap<number, { muted: boolean; talkativeness: number }>;
    replyOrder?: ReplyOrder;
  },
  chatModel: ChatModelName,
): Promise<Conversation> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const first = input.characters[0];
  if (!first) throw new ApiError("validation_failed", "Choose at least one character");
  const persona = await env.DB.prepare("SELECT name, description FROM personas WHERE user_id = ? AND is_default = 1")
    .bind(input.user.id)
    .first<ConversationPersona>();
  const { userName } = roomPerson(input.user, persona);
  const start = input.start ?? { kind: "greeting" };
  // Every member with a greeting greets, in member order; its alternate greetings are a swipe away.
  const greetings: RoomGreeting[] =
    start.kind === "greeting"
      ? input.characters.flatMap((character) => {
          const content = greetingFor(character.greeting, character.name, userName);
          if (!content) return [];
          const alternatives = character.alternateGreetings.flatMap((text) => greetingFor(text, character.name, userName) ?? []);
          return [{ characterId: character.id, content, alternatives }];
        })
      : [];
  const last = start.kind === "messages" ? start.messages.at(-1) : greetings.length > 0 ? { content: greetings.at(-1)!.content, createdAt: now } : undefined;
  const title = input.title ?? castTitle(input.characters.map((character) => character.name));
  const replyOrder = input.replyOrder ?? "natural";
  const cast: CastMember[] = input.characters.map((character) => ({
    id: character.id,
    name: character.name,
    avatarUrl: character.avatarUrl,
    creator: character.creator,
    creatorUsername: character.creatorUsername ?? null,
    muted: input.castSettings?.get(character.id)?.muted ?? false,
    talkativeness: input.castSettings?.get(character.id)?.talkativeness ?? DEFAULT_TALKATIVENESS,
    // Not stored here: the answer re-reads the conversation, assets included.
    assets: [],
  }));
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO conversations (id, character_id, user_id, title, reply_order, branched_from_id, last_message_at, last_message_preview, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      first.id,
      input.user.id,
      title,
      replyOrder,
      start.kind === "messages" ? (start.branchedFrom?.id ?? null) : null,
      last ? last.createdAt : null,
      last ? messagePreview(last.content) : null,
      now,
      now,
    ),
    ...cast.map((member, position) =>
      env.DB.prepare(
        "INSERT INTO conversation_characters (conversation_id, character_id, position, muted, talkativeness, added_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(id, member.id, position, member.muted ? 1 : 0, member.talkativeness, now),
    ),
  ]);
  try {
    await conversationRoom(env, id).initialize({
      conversationId: id,
      userId: input.user.id,
      characterId: first.id,
      cast: cast.map(roomMember),
      replyOrder,
      userName,
      createdAt: now,
      greetings,
      ...(start.kind === "messages"
        ? {
            messages: start.messages,
            memory: start.memory ?? "",
            ...(start.pictures?.length ? { pictures: start.pictures } : {}),
            ...(start.lorebookState ? { lorebookState: start.lorebookState } : {}),
          }
        : {}),
    });
  } catch (error) {
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(id).run();
    throw error;
  }
  const created = await findOwnConversation(env.DB, id, input.user.id, chatModel);
  if (!created) throw new Error(`conversation ${id} vanished after it was created`);
  return created;
}

/** A cast member as the room is told of it. */
function roomMember(member: CastMember): RoomCastMember {
  return { characterId: member.id, name: member.name, muted: member.muted, talkativeness: member.talkativeness };
}

/** Tells the room the conversation's cast and reply order as D1 now has them (ConversationRoom.setCast). */
async function tellRoom(env: Env, conversation: Conversation): Promise<void> {
  await conversationRoom(env, conversation.id).setCast(conversation.userId, conversation.characters.map(roomMember), conversation.replyOrder);
}

/** Re-reads a conversation after a change (its own, so never null in use). */
async function reread(env: Env, conversation: Conversation): Promise<Conversation> {
  const fresh = await findOwnConversation(env.DB, conversation.id, conversation.userId, conversation.chatModel);
  if (!fresh) throw notFound("Conversation not found");
  return fresh;
}

/**
 * `PATCH /api/conversations/:id`: a new title, reply order, background or
 * check-ins. The caller checked the owner and screened the title. Returns
 * the conversation as it now is; the room learns a new reply order and
 * check-ins. Throws 400 for a background the character lacks and for
 * check-ins in a chat that is not one-to-one.
 */
export async function updateConversation(env: Env, conversation: Conversation, patch: ConversationPatch): Promise<Conversation> {
  // A background is one of the first character's (DESIGN.md "Character assets"); null takes it away.
  if (patch.background) {
    const first = conversation.characters[0];
    if (!first?.assets.some((asset) => asset.type === "background" && asset.name === patch.background)) {
      const message = `${first?.name ?? "The character"} has no background named “${patch.background}”`;
      throw new ApiError("validation_failed", message, { issues: [{ path: "background", message }] });
    }
  }
  // Check-ins (DESIGN.md turn 4 "Notifications"): one character, one person.
  if (patch.checkIns === true && (conversation.characters.length > 1 || conversation.members.length > 1)) {
    const message = "Check-ins are for one-to-one chats: this chat has more than one character or person.";
    throw new ApiError("validation_failed", message, { issues: [{ path: "checkIns", message }] });
  }
  await env.DB.prepare(
    `UPDATE conversations SET title = coalesce(?1, title), reply_order = coalesce(?2, reply_order),
       background = CASE WHEN ?3 THEN ?4 ELSE background END, check_ins = coalesce(?6, check_ins) WHERE id = ?5`,
  )
    .bind(
      patch.title ?? null,
      patch.replyOrder ?? null,
      patch.background !== undefined ? 1 : 0,
      patch.background ?? null,
      conversation.id,
      patch.checkIns === undefined ? null : patch.checkIns ? 1 : 0,
    )
    .run();
  const fresh = await reread(env, conversation);
  if (patch.replyOrder && patch.replyOrder !== conversation.replyOrder) await tellRoom(env, fresh);
  // The room keeps the opt-in beside the messages its clock reads, and arms its alarm (room/check-ins.ts).
  if (patch.checkIns !== undefined) await conversationRoom(env, conversation.id).setCheckIns(conversation.userId, patch.checkIns);
  return fresh;
}

/**
 * Adds character `characterId` (visible to the owner: chatCharacter) as the
 * last member. Throws 404 for a character the owner may not see, 409 when it
 * is already a member or the cast has MAX_CAST_SIZE members.
 */
export async function addCastMember(env: Env, conversation: Conversation, characterId: number): Promise<Conversation> {
  await chatCharacter(env.DB, characterId, conversation.userId);
  if (conversation.characters.some((member) => member.id === characterId)) {
    throw new ApiError("conflict", "That character is already in this chat.");
  }
  if (conversation.characters.length >= MAX_CAST_SIZE) {
    throw new ApiError("conflict", `A chat can have at most ${MAX_CAST_SIZE} characters.`);
  }
  // One statement, so two adds at once cannot pass 8 or take one position twice.
  const added = await env.DB.prepare(
    `INSERT INTO conversation_characters (conversation_id, character_id, position)
     SELECT ?1, ?2, coalesce(max(position), -1) + 1 FROM conversation_characters WHERE conversation_id = ?1
     HAVING count(*) < ?3
     ON CONFLICT DO NOTHING`,
  )
    .bind(conversation.id, characterId, MAX_CAST_SIZE)
    .run();
  if (added.meta.changes === 0) throw new ApiError("conflict", "That character is already in this chat, or the chat is full.");
  // Now a group: check-ins are for one-to-one chats (DESIGN.md turn 4 "Notifications").
  await endCheckIns(env, conversation.id);
  const fresh = await reread(env, conversation);
  await tellRoom(env, fresh);
  return fresh;
}

/**
 * Conversation `conversationId` stopped being one-to-one (a second
 * character, or a second person joined by an invitation): its check-ins
 * end (DESIGN.md turn 4 "Notifications": one-to-one chats only), in D1
 * (`checkIns: false` from then on; turning them on again is refused while
 * it is a group) and in its room, whose opt-in goes off so its alarm
 * writes no check-in, even if the chat is one-to-one again by then (the
 * owner turns them back on). A chat that never opted in costs one D1
 * statement and wakes no room.
 */
export async function endCheckIns(env: Env, conversationId: string): Promise<void> {
  const owner = await env.DB.prepare("UPDATE conversations SET check_ins = 0 WHERE id = ? AND check_ins = 1 RETURNING user_id AS userId")
    .bind(conversationId)
    .first<{ userId: string }>();
  if (owner) await conversationRoom(env, conversationId).setCheckIns(owner.userId, false);
}

/**
 * Removes member `characterId`; its replies stay in the history. The first
 * member's removal makes the next one the conversation's `characterId`.
 * Throws 404 when it is not a member, 409 when it is the last one.
 */
export async function removeCastMember(env: Env, conversation: Conversation, characterId: number): Promise<Conversation> {
  const rest = conversation.characters.filter((member) => member.id !== characterId);
  if (rest.length === conversation.characters.length) throw notFound("That character is not in this chat");
  if (rest.length === 0) throw new ApiError("conflict", "A chat needs at least one character: this is the last one.");
  await env.DB.batch([
    env.DB.prepare("DELETE FROM conversation_characters WHERE conversation_id = ? AND character_id = ?").bind(conversation.id, characterId),
    env.DB.prepare("UPDATE conversations SET character_id = ? WHERE id = ?").bind(rest[0]!.id, conversation.id),
  ]);
  const fresh = await reread(env, conversation);
  await tellRoom(env, fresh);
  return fresh;
}

/** Mutes or unmutes member `characterId` and/or sets its talkativeness (0–1). Throws 404 when it is not a member. */
export async function updateCastMember(
  env: Env,
  conversation: Conversation,
  characterId: number,
  patch: { muted?: boolean; talkativeness?: number },
): Promise<Conversation> {
  if (!conversation.characters.some((member) => member.id === characterId)) throw notFound("That character is not in this chat");
  await env.DB.prepare(
    `UPDATE conversation_characters SET muted = coalesce(?, muted), talkativeness = coalesce(?, talkativeness)
     WHERE conversation_id = ? AND character_id = ?`,
  )
    .bind(patch.muted === undefined ? null : patch.muted ? 1 : 0, patch.talkativeness ?? null, conversation.id, characterId)
    .run();
  const fresh = await reread(env, conversation);
  await tellRoom(env, fresh);
  return fresh;
}

/**
 * The persona the person plays in their conversation `id`: `personaId`
 * (one of their own personas) or null for their default. Returns the
 * persona now in effect (picked, else default, else none). Throws 404
 * "Persona not found" for a persona that is not theirs; the caller checked
 * the conversation.
 */
export async function setConversationPersona(
  db: D1Database,
  id: string,
  userId: string,
  personaId: string | null,
): Promise<ConversationPersona | null> {
  if (personaId !== null) {
    const own = await db.prepare("SELECT 1 FROM personas WHERE id = ? AND user_id = ?").bind(personaId.toLowerCase(), userId).first();
    if (!own) throw notFound("Persona not found");
  }
  await db
    .prepare("UPDATE conversations SET persona_id = ? WHERE id = ? AND user_id = ?")
    .bind(personaId?.toLowerCase() ?? null, id, userId)
    .run();
  return (await findOwnConversationPersona(db, id, userId))?.persona ?? null;
}

/**
 * Deletes the person's own conversation from D1 (its `hidden_messages` go by
 * cascade; conversations branched from it keep going, `branched_from_id`
 * set to null). False when it is not theirs (or unknown). The caller wipes
 * the room's storage afterwards (deleteConversationStorage): once the row is
 * gone, nobody can reach the room again.
 */
export async function deleteOwnConversation(db: D1Database, id: string, userId: string): Promise<boolean> {
  const result = await db.prepare("DELETE FROM conversations WHERE id = ? AND user_id = ?").bind(id.toLowerCase(), userId).run();
  return result.meta.changes > 0;
}
