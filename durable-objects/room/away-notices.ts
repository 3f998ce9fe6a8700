/**
 * `room_message` (DESIGN.md turn 4 "Notifications"): when someone writes in
 * a shared room, each of its other people with no socket open in it is
 * told, through their Inbox (durable-objects/inbox/), one notification per
 * room until they read it (the Inbox folds by `room_message:<id>`).
 *
 * The room's people are its own `people` rows (the owner and every member
 * who connected and is still in: room/people.ts). A block between two
 * people takes one of them out of the other's rooms (worker/lib/blocks.ts),
 * so nobody in a room is blocked by another in it. The author's shown name
 * and the title come from D1 in one query, only when somebody is away.
 * Runs after the message was stored (`ctx.waitUntil`); a failure is logged.
 * Opening the room (`join`) marks its `room_message` read
 * (`readRoomMessages`): the person has seen them.
 */
import type { Inbox } from "../inbox/inbox.ts";

/** `userId` opened the shared room `conversationId`: its unread `room_message` is read, on every tab's bell. Never throws. */
export async function readRoomMessages(env: Env, userId: string, conversationId: string): Promise<void> {
  try {
    const namespace = env.INBOX as unknown as DurableObjectNamespace<Inbox>;
    await namespace.get(namespace.idFromName(userId)).markFoldRead(`room_message:${conversationId}`);
  } catch (error) {
    console.warn("could not mark a room's messages read", conversationId, String(error));
  }
}

/** Tells the room's people other than `authorId` who have no open socket here. Never throws. */
export async function noticeAwayPeople(
  env: Env,
  room: { conversationId: string; authorId: string; people: string[]; present: Set<string> },
): Promise<void> {
  const away = room.people.filter((userId) => userId !== room.authorId && !room.present.has(userId));
  if (away.length === 0) return;
  try {
    const row = await env.DB.prepare(
      `SELECT u.username, nullif(trim(coalesce(u.name, '')), '') AS name, u.profile_image_url AS avatarUrl, v.title
       FROM users u, conversations v WHERE u.id = ? AND v.id = ?`,
    )
      .bind(room.authorId, room.conversationId)
      .first<{ username: string; name: string | null; avatarUrl: string | null; title: string }>();
    if (!row) return;
    const namespace = env.INBOX as unknown as DurableObjectNamespace<Inbox>;
    await Promise.all(
      away.map((userId) =>
        namespace.get(namespace.idFromName(userId)).deliver({
          kind: "room_message",
          actorId: room.authorId,
          actor: { username: row.username, name: row.name, avatarUrl: row.avatarUrl },
          target: { type: "conversation", id: room.conversationId, title: row.title, url: `/chat/${room.conversationId}` },
          foldKey: `room_message:${room.conversationId}`,
          scope: { type: "conversation", id: room.conversationId },
        }, userId),
      ),
    );
  } catch (error) {
    console.warn("could not tell the people away from a room", room.conversationId, String(error));
  }
}
