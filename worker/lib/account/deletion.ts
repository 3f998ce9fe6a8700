/**
 * Account deletion (`DELETE /api/profile`, DESIGN.md turn 4 "Your account,
 * your data"; docs/decisions/0029-your-account-your-data.md).
 *
 * Everything of D1 happens in one batch (one transaction), so a request
 * racing it either finished before (and its row is deleted with the rest)
 * or runs after (its session is gone: 401; or its write names a person who
 * no longer exists: the foreign key refuses it, 404). In that batch:
 * - the username is held for USERNAME_HOLD_MS (`username_holds`, with its
 *   confusable skeleton) so nobody can take it or a lookalike;
 * - comments that someone else replied to, at any depth, move to the
 *   deleted account (DELETED_ACCOUNT_ID) and say DELETED_COMMENT_TEXT, so
 *   the replies stay; the others are deleted;
 * - votes and favorites are withdrawn: the counter triggers
 *   (migrations/0002_community_counters.sql) take them off `votes` and
 *   `favorite_count` in the same transaction;
 * - the person's characters go (the catalog and tag counters follow by
 *   trigger); someone else's chat with one of them keeps its other members,
 *   or goes with it when it had no other (as deleting one character does);
 * - conversations they own, their place in rooms they joined, personas,
 *   model connections, follows both ways, sessions, and the `users` row;
 * - the share links of their chats (and, after the batch, the share's
 *   copies of pictures in R2); their messages in the shares of rooms they
 *   joined stay, under DELETED_AUTHOR_NAME.
 * Kept, by law and for safety (README "Your data"): reports they made
 * (without the reporter), reports and screening records about what they
 * wrote, and the operators' audit trail.
 *
 * Then, outside D1: every chat socket of theirs closes (PersonSockets),
 * their Inbox (notifications, settings, notification sockets) is erased,
 * rooms they owned are wiped and tell their members why, rooms they
 * joined show their messages as from "a deleted account" (both
 * ConversationRoom.accountDeleted, which also takes their thumbs back from
 * the characters' ratings), and their uploads leave R2, with their
 * characters' asset files that no other character has.
 */
import { DELETED_ACCOUNT_ID, DELETED_ACCOUNT_USERNAME, DELETED_AUTHOR_NAME, DELETED_COMMENT_TEXT, USERNAME_HOLD_MS } from "../../../schema/account.ts";
import type { PersonSockets } from "../../../durable-objects/person-sockets.ts";
import { CLOSE_REASONS } from "../../../durable-objects/socket-limits.ts";
import { deleteUnusedAssetObjects } from "../cards/assets.ts";
import { deleteConversationStorage } from "../characters.ts";
import { conversationRoom } from "../conversations.ts";
import { inbox } from "../notifications/notify.ts";
import { forgetSharePictures } from "../share-pictures.ts";

/**
 * What deletion does to each D1 table that refers to a person: `deleted`
 * (their rows go), `anonymised` (their rows stay without them), `kept`
 * (with the reason). worker/test/account-deletion.test.ts walks every table
 * of schema/db*.ts and fails for one that refers to a person and is not
 * here, so a new table cannot be forgotten.
 */
export const PERSON_DATA: Record<string, { columns: string[]; fate: "deleted" | "anonymised" | "kept"; why: string }> = {
  users: { columns: ["id"], fate: "deleted", why: "the account itself; the username is held 30 days in username_holds" },
  sessions: { columns: ["user_id", "sess"], fate: "deleted", why: "signed out everywhere" },
  push_subscriptions: { columns: ["user_id"], fate: "deleted", why: "their devices' Web Push subscriptions: no push reaches them after deletion" },
  characters: { columns: ["creator_id", "creator"], fate: "deleted", why: "their characters (creator is the pen name shown on them)" },
  favorites: { columns: ["user_id"], fate: "deleted", why: "withdrawn: favorite_count follows by trigger" },
  follows: { columns: ["follower_id", "followee_id"], fate: "deleted", why: "who they follow and who follows them" },
  comments: { columns: ["user_id"], fate: "anonymised", why: "replied-to comments stay as [deleted] under the deleted account; the rest are deleted" },
  comment_votes: { columns: ["user_id"], fate: "deleted", why: "withdrawn: comments.votes follows by trigger" },
  conversations: { columns: ["user_id"], fate: "deleted", why: "their chats and the rooms they own (the rooms' storage is wiped)" },
  conversation_members: { columns: ["user_id"], fate: "deleted", why: "their place in rooms they joined; their messages stay, from a deleted account" },
  personas: { columns: ["user_id"], fate: "deleted", why: "their personas" },
  model_connections: { columns: ["user_id"], fate: "deleted", why: "their model connections and encrypted keys" },
  conversation_invite_removals: { columns: ["user_id"], fate: "deleted", why: "the links a room's owner closed to them by removing them" },
  memories: { columns: ["user_id"], fate: "deleted", why: "their pinned memories, of chats and of characters" },
  lorebooks: { columns: ["owner_id"], fate: "deleted", why: "their lorebooks; their attachments to characters and chats go with them (foreign keys)" },
  blocks: { columns: ["blocker_id", "blocked_id"], fate: "deleted", why: "whom they blocked and who blocked them" },
  speech_usage: { columns: ["user_id"], fate: "deleted", why: "the audio seconds read aloud for them, counted for the speech budget" },
  shares: { columns: ["user_id"], fate: "deleted", why: "the share links of their chats (and with their chats, by foreign key)" },
  share_messages: {
    columns: ["author_id"],
    fate: "anonymised",
    why: "their words in someone else's shared room stay in its shares, from \"a deleted account\", as in the room",
  },
  image_usage: { columns: ["user_id"], fate: "deleted", why: "the pictures they made, counted for their allowance (the pictures live in the rooms, wiped with the chats they own)" },
  reports: {
    columns: ["reporter_id", "target_owner_id"],
    fate: "kept",
    why: "trust and safety records: a report they made loses its reporter (foreign key), one about them keeps the excerpt for the operator",
  },
  moderation_log: { columns: ["user_id"], fate: "kept", why: "what screening refused or flagged: the operator's evidence, kept by law" },
  moderation_actions: { columns: ["target_id"], fate: "kept", why: "the operators' audit trail, never changed" },
  username_holds: { columns: ["username"], fate: "kept", why: "the held name itself, released after 30 days" },
};

/** What `deleteAccount` did, for the caller and tests. */
export interface DeletedAccount {
  /** Conversations whose rooms were wiped: the person's own, and others' chats that had only their characters. */
  wipedConversations: number;
  /** Rooms the person had joined, where their messages now show as from a deleted account. */
  leftRooms: number;
  /** Objects removed from R2 (their uploads). */
  removedUploads: number;
  /**
   * Tokens of the share links whose cached copies are stale now: those
   * deleted (theirs, and those of others' chats deleted with their
   * characters) and others' shares their words in are renamed.
   */
  staleShares: string[];
}

/**
 * Deletes person `userId` as the module docstring says; `now` (ms) dates the
 * username hold. Safe to run again for someone already gone (it finds
 * nothing). Throws what D1 throws in the batch (then nothing changed);
 * failures after it (a room or R2 that cannot be reached) are logged, since
 * D1 no longer lets anyone reach what they left.
 */
export async function deleteAccount(env: Env, userId: string, now = Date.now()): Promise<DeletedAccount> {
  const db = env.DB;
  const theirs = "SELECT id FROM characters WHERE creator_id = ?1";
  // A character of someone else's (or of nobody: the demo catalogue) in a chat's cast.
  const otherMember = `SELECT cc.character_id FROM conversation_characters cc JOIN characters k ON k.id = cc.character_id
    WHERE cc.conversation_id = conversations.id AND k.creator_id IS NOT ?1 ORDER BY cc.position LIMIT 1`;
  // Their characters' asset files, to remove after the rows naming them are gone (unless another character has the same bytes).
  const { results: assetRows } = await db
    .prepare("SELECT DISTINCT a.object_key AS key FROM character_assets a JOIN characters c ON c.id = a.character_id WHERE c.creator_id = ? AND a.object_key IS NOT NULL")
    .bind(userId)
    .all<{ key: string }>();
  const results = await db.batch<{ id: string }>([
    // First, in the same transaction: the shares of chats deleted with their characters go by foreign key, unreturned.
    db
      .prepare(
        `SELECT token AS id FROM shares WHERE user_id = ?1
           OR conversation_id IN (SELECT id FROM conversations WHERE character_id IN (${theirs}))
           OR token IN (SELECT share_token FROM share_messages WHERE author_id = ?1)`,
      )
      .bind(userId),
    db.prepare("INSERT OR IGNORE INTO users (id, username) VALUES (?, ?)").bind(DELETED_ACCOUNT_ID, DELETED_ACCOUNT_USERNAME),
    db
      .prepare(
        `INSERT INTO username_holds (username, skeleton, until) SELECT lower(username), username_skeleton, ?2 FROM users WHERE id = ?1
         ON CONFLICT (username) DO UPDATE SET skeleton = excluded.skeleton, until = excluded.until`,
      )
      .bind(userId, now + USERNAME_HOLD_MS),
    // Their comments with someone else's comment anywhere below: walk up from every other person's reply.
    db
      .prepare(
        `WITH RECURSIVE above(id) AS (
           SELECT r.parent_id FROM comments r
           WHERE r.parent_id IS NOT NULL AND r.user_id != ?1
             AND r.character_id IN (SELECT character_id FROM comments WHERE user_id = ?1)
           UNION SELECT c.parent_id FROM comments c JOIN above ON c.id = above.id WHERE c.parent_id IS NOT NULL
         )
         UPDATE comments SET user_id = ?2, content = ?3 WHERE user_id = ?1 AND id IN (SELECT id FROM above)`,
      )
      .bind(userId, DELETED_ACCOUNT_ID, DELETED_COMMENT_TEXT),
    db.prepare("DELETE FROM comments WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM comment_votes WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM favorites WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM follows WHERE follower_id = ?1 OR followee_id = ?1").bind(userId),
    // Someone else's chat with their characters only goes with them; a group chat keeps its other members.
    db
      .prepare(`DELETE FROM conversations WHERE user_id != ?1 AND character_id IN (${theirs}) AND NOT EXISTS (${otherMember}) RETURNING id`)
      .bind(userId),
    db
      .prepare(`UPDATE conversations SET character_id = (${otherMember}) WHERE user_id != ?1 AND character_id IN (${theirs})`)
      .bind(userId),
    db.prepare("DELETE FROM conversations WHERE user_id = ? RETURNING id").bind(userId),
    db.prepare("DELETE FROM conversation_members WHERE user_id = ? RETURNING conversation_id AS id").bind(userId),
    db.prepare("DELETE FROM characters WHERE creator_id = ?").bind(userId),
    db.prepare("DELETE FROM personas WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM model_connections WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM speech_usage WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM image_usage WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM conversation_invite_removals WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM memories WHERE user_id = ?").bind(userId),
    db.prepare("DELETE FROM lorebooks WHERE owner_id = ?").bind(userId),
    db.prepare("DELETE FROM blocks WHERE blocker_id = ?1 OR blocked_id = ?1").bind(userId),
    db.prepare("DELETE FROM shares WHERE user_id = ?").bind(userId),
    db.prepare("UPDATE share_messages SET author_id = NULL, author_name = ?2 WHERE author_id = ?1").bind(userId, DELETED_AUTHOR_NAME),
    db.prepare("DELETE FROM sessions WHERE user_id = ?1 OR json_extract(sess, '$.userId') = ?1").bind(userId),
    db.prepare("DELETE FROM users WHERE id = ?").bind(userId),
  ]);
  const ids = (index: number) => (results[index]?.results ?? []).map((row) => row.id);
  const staleShares = ids(0);
  const othersChats = ids(8);
  const owned = ids(10);
  const joined = ids(11);

  const namespace = env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
  const logged = (what: string) => (error: unknown) => console.warn(`account deletion: could not ${what}`, String(error));
  await Promise.all([
    namespace.get(namespace.idFromName(userId)).closeAll(CLOSE_REASONS.accountDeleted).catch(logged("close the sockets")),
    inbox(env, userId).erase(CLOSE_REASONS.accountDeleted).catch(logged("erase the notifications")),
    ...[...owned, ...joined].map((id) => conversationRoom(env, id).accountDeleted(userId).catch(logged(`tell room ${id}`))),
    deleteConversationStorage(env, othersChats),
    deleteUnusedAssetObjects(env, assetRows.map((row) => row.key)),
    // The pictures of the share links that went with them (those only renamed stay): worker/lib/share-pictures.ts.
    forgetSharePictures(env, staleShares),
  ]);
  return { wipedConversations: owned.length + othersChats.length, leftRooms: joined.length, removedUploads: await deleteUploads(env.AVATARS, userId), staleShares };
}

/** Deletes every object under `avatars/<userId>/` (their uploads), a page of listing at a time. Returns how many; failures are logged. */
async function deleteUploads(bucket: R2Bucket, userId: string): Promise<number> {
  let removed = 0;
  let cursor: string | undefined;
  try {
    do {
      const page = await bucket.list({ prefix: `avatars/${userId}/`, cursor });
      if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
      removed += page.objects.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  } catch (error) {
    console.warn("account deletion: could not remove every upload", String(error));
  }
  return removed;
}
