/**
 * Shared rooms (issue 23, DESIGN.md "Shared rooms"): the owner of a
 * conversation invites people with a link; the members are rows of
 * `conversation_members`, the room stays the conversation's one Durable
 * Object.
 *
 * - Invitation links carry a random 32-byte token (base64url); only its
 *   SHA-256 (hex) is stored, like session tokens (worker/lib/sessions.ts). A
 *   link works for INVITE_TTL_MS (7 days) unless revoked; joining again is
 *   harmless.
 * - At most MAX_ROOM_PEOPLE people per room, the owner included: checked in
 *   the statement that adds the member, so two joins at once cannot pass it.
 * - Who may do what: the owner invites, revokes and removes anyone but
 *   themselves; a member may only leave.
 * - A removal outlives every link made before it (issue 42,
 *   docs/decisions/0025): the links open at the removal are written down
 *   for the removed person (`conversation_invite_removals`) and refuse them
 *   with 403; only a link made afterwards lets them back. A member who left
 *   by themselves may come back by any link still open. Anyone outside the room gets 404
 *   (the room's existence is not revealed), a member asking for an owner's
 *   power 403.
 *
 * Errors are ApiErrors (the JSON error shape); D1 failures are thrown as is.
 */
import {
  type Conversation,
  type ConversationInvite,
  INVITE_TTL_MS,
  type InvitePreview,
  MAX_ROOM_PEOPLE,
} from "../../schema/chat.ts";
import { SHOWN_TITLE_SQL } from "./conversations.ts";
import { ApiError, forbidden, notFound } from "./errors.ts";
import { generateSessionToken, sha256Hex } from "./sessions.ts";

/** What a person is in a conversation they can see. */
export type RoomRole = "owner" | "member";

/** The role of `userId` in `conversation` (which the caller found for them). */
export function roleOf(conversation: Pick<Conversation, "userId">, userId: string): RoomRole {
  return conversation.userId === userId ? "owner" : "member";
}

/** Throws 403 unless `userId` owns the conversation: `what` names the power ("invite people"). */
export function requireOwner(conversation: Pick<Conversation, "userId">, userId: string, what: string): void {
  if (roleOf(conversation, userId) !== "owner") throw forbidden(`Only the chat's owner can ${what}.`);
}

/** Invitation tokens as they appear in links: base64url of 32 random bytes. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/** A new invitation link to the conversation, valid INVITE_TTL_MS from `now` (ms). */
export async function createInvite(db: D1Database, conversationId: string, now = Date.now()): Promise<ConversationInvite> {
  const token = generateSessionToken();
  const expiresAt = now + INVITE_TTL_MS;
  await db
    .prepare("INSERT INTO conversation_invites (token_hash, conversation_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
    .bind(await sha256Hex(token), conversationId, now, expiresAt)
    .run();
  return { token, url: `/join/${token}`, expiresAt: new Date(expiresAt).toISOString() };
}

/** Revokes the link `token` of the conversation. Throws 404 when it is not one of its links. */
export async function revokeInvite(db: D1Database, conversationId: string, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) throw notFound("Invitation not found");
  const result = await db
    .prepare("UPDATE conversation_invites SET revoked_at = coalesce(revoked_at, ?) WHERE token_hash = ? AND conversation_id = ?")
    .bind(Date.now(), await sha256Hex(token), conversationId)
    .run();
  if (result.meta.changes === 0) throw notFound("Invitation not found");
}

/**
 * The conversation a working link leads to (not revoked, not expired at
 * `now`, with a character an operator has not removed), or null.
 */
async function inviteTarget(db: D1Database, token: string, now: number): Promise<{ conversationId: string; expiresAt: number } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  return db
    .prepare(
      `SELECT i.conversation_id AS conversationId, i.expires_at AS expiresAt FROM conversation_invites i
       WHERE i.token_hash = ? AND i.revoked_at IS NULL AND i.expires_at > ?
         AND EXISTS (SELECT 1 FROM conversation_characters cc JOIN characters c ON c.id = cc.character_id
                     WHERE cc.conversation_id = i.conversation_id AND c.moderation_status != 'removed')`,
    )
    .bind(await sha256Hex(token), now)
    .first<{ conversationId: string; expiresAt: number }>();
}

/**
 * What the join page shows for a working link: the chat's title, cast and
 * owner — never a character an operator removed (left out of the cast, a
 * title naming it shown as null). Throws 404 "Invitation not found" for an
 * unknown, revoked or expired link, and for a chat whose every character
 * was removed. Anyone holding the link may read it (a visitor signs in
 * after seeing it).
 */
export async function invitePreview(db: D1Database, token: string, now = Date.now()): Promise<InvitePreview> {
  const target = await inviteTarget(db, token, now);
  if (!target) throw notFound("Invitation not found");
  const row = await db
    .prepare(
      `SELECT v.id, ${SHOWN_TITLE_SQL} AS title, u.username, coalesce(nullif(trim(u.name), ''), nullif(trim(u.first_name), ''), u.username) AS ownerName,
         u.profile_image_url AS ownerAvatar,
         (SELECT json_group_array(json_object('id', c.id, 'name', c.name, 'avatarUrl', c.avatar_url, 'creator', c.creator, 'creatorUsername', NULL))
            FROM (SELECT * FROM conversation_characters WHERE conversation_id = v.id ORDER BY position) m JOIN characters c ON c.id = m.character_id
            WHERE c.moderation_status != 'removed') AS cast,
         1 + (SELECT count(*) FROM conversation_members m WHERE m.conversation_id = v.id) AS people
       FROM conversations v JOIN users u ON u.id = v.user_id WHERE v.id = ?`,
    )
    .bind(target.conversationId)
    .first<{ id: string; title: string | null; username: string; ownerName: string; ownerAvatar: string | null; cast: string; people: number }>();
  const characters = row ? (JSON.parse(row.cast) as InvitePreview["characters"]) : [];
  // Characters an operator removed are left out; a chat with none left is nothing to invite anyone to (docs/decisions/0025).
  if (!row || characters.length === 0) throw notFound("Invitation not found");
  return {
    conversationId: row.id,
    title: row.title,
    characters,
    owner: { username: row.username, name: row.ownerName, avatarUrl: row.ownerAvatar },
    people: Number(row.people),
    expiresAt: new Date(target.expiresAt).toISOString(),
  };
}

/**
 * The persona `userId` plays as a member (conversation_members.persona_id):
 * `chosen` when it is theirs (else 404 "Persona not found"), none for
 * null, their default persona (or none) when not given.
 */
async function memberPersona(db: D1Database, userId: string, chosen: string | null | undefined): Promise<string | null> {
  if (chosen === null) return null;
  const row = await (
    chosen === undefined
      ? db.prepare("SELECT id FROM personas WHERE user_id = ? AND is_default = 1").bind(userId)
      : db.prepare("SELECT id FROM personas WHERE user_id = ? AND id = ?").bind(userId, chosen.toLowerCase())
  ).first<{ id: string }>();
  if (!row && chosen !== undefined) throw notFound("Persona not found");
  return row?.id ?? null;
}

/**
 * A member of a shared room picks the persona they play there (`PUT
 * /api/conversations/:id/persona` by a member): one of theirs, or null for
 * none. Throws 404 "Persona not found" for a persona not theirs.
 */
export async function setMemberPersona(db: D1Database, conversationId: string, userId: string, personaId: string | null): Promise<void> {
  const id = await memberPersona(db, userId, personaId);
  await db.prepare("UPDATE conversation_members SET persona_id = ? WHERE conversation_id = ? AND user_id = ?").bind(id, conversationId, userId).run();
}

/** What a person removed from a room is told when an old link is all they have. */
export const REMOVED_REJOIN_ERROR = "You were removed from this chat. Only a new invitation link from its owner lets you back in.";

/**
 * `userId` joins the room a working link leads to; joining again (or the
 * owner following their own link) changes nothing. Throws 404 for an
 * unknown, revoked or expired link or a persona not theirs, 403 when the
 * owner removed `userId` while this link was open (REMOVED_REJOIN_ERROR),
 * 409 when the room already has MAX_ROOM_PEOPLE people. `personaId`: the
 * persona they play there (memberPersona: absent, their default; null,
 * none). Returns the conversation's id.
 */
export async function joinByInvite(
  db: D1Database,
  token: string,
  userId: string,
  options: { personaId?: string | null; now?: number } = {},
): Promise<{ conversationId: string; joined: boolean }> {
  const now = options.now ?? Date.now();
  const target = await inviteTarget(db, token, now);
  if (!target) throw notFound("Invitation not found");
  const { conversationId } = target;
  const tokenHash = await sha256Hex(token);
  const personaId = await memberPersona(db, userId, options.personaId);
  // One statement: the owner and members already in are not added again, the 11th person is not added at all, nor someone removed while this link was open.
  const added = await db
    .prepare(
      `INSERT INTO conversation_members (conversation_id, user_id, joined_at, persona_id)
       SELECT ?1, ?2, ?3, ?6 WHERE
         NOT EXISTS (SELECT 1 FROM conversations WHERE id = ?1 AND user_id = ?2)
         AND NOT EXISTS (SELECT 1 FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2)
         AND NOT EXISTS (SELECT 1 FROM conversation_invite_removals WHERE token_hash = ?5 AND user_id = ?2)
         AND 1 + (SELECT count(*) FROM conversation_members WHERE conversation_id = ?1) < ?4
       ON CONFLICT DO NOTHING`,
    )
    .bind(conversationId, userId, now, MAX_ROOM_PEOPLE, tokenHash, personaId)
    .run();
  if (added.meta.changes === 0) {
    const why = await db
      .prepare(
        `SELECT 'in' AS why FROM conversations WHERE id = ?1 AND user_id = ?2
         UNION ALL SELECT 'in' FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2
         UNION ALL SELECT 'removed' FROM conversation_invite_removals WHERE token_hash = ?3 AND user_id = ?2`,
      )
      .bind(conversationId, userId, tokenHash)
      .all<{ why: "in" | "removed" }>();
    const reasons = why.results.map((r) => r.why);
    if (reasons.includes("in")) return { conversationId, joined: false };
    if (reasons.includes("removed")) throw forbidden(REMOVED_REJOIN_ERROR);
    throw new ApiError("conflict", `This chat already has ${MAX_ROOM_PEOPLE} people, the most a chat can have.`);
  }
  return { conversationId, joined: true };
}

/**
 * `DELETE /api/conversations/:id/members/:userId` by `actorId`: the owner
 * removes anyone but themselves; a member removes only themselves (leaves).
 * A removal by the owner also bars `targetId` from every link of the room
 * open at `now` (ms); leaving bars nothing. Throws 403 for anything else
 * (the owner leaving, a member removing another), 404 when `targetId` is
 * not a member.
 */
export async function removeMember(db: D1Database, conversation: Conversation, actorId: string, targetId: string, now = Date.now()): Promise<void> {
  const actor = roleOf(conversation, actorId);
  if (targetId === conversation.userId) throw forbidden("The owner cannot leave their own chat; delete it instead.");
  if (actor === "member" && targetId !== actorId) throw forbidden("Only the chat's owner can remove other people.");
  const remove = db.prepare("DELETE FROM conversation_members WHERE conversation_id = ? AND user_id = ?").bind(conversation.id, targetId);
  if (actor === "member") {
    const left = await remove.run();
    if (left.meta.changes === 0) throw notFound("That person is not in this chat");
    return;
  }
  // One transaction: the links are barred only when the person was in the room, and before their row goes.
  const [, removed] = await db.batch([
    db
      .prepare(
        `INSERT INTO conversation_invite_removals (token_hash, user_id, removed_at)
         SELECT token_hash, ?2, ?3 FROM conversation_invites
         WHERE conversation_id = ?1 AND revoked_at IS NULL AND expires_at > ?3
           AND EXISTS (SELECT 1 FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2)
         ON CONFLICT DO UPDATE SET removed_at = excluded.removed_at`,
      )
      .bind(conversation.id, targetId, now),
    remove,
  ]);
  if (removed!.meta.changes === 0) throw notFound("That person is not in this chat");
}
