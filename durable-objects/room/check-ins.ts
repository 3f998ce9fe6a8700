/**
 * Check-ins (DESIGN.md turn 4 "Notifications", issue 39): a one-to-one
 * chat whose owner opted in (`PATCH /api/conversations/{id}` `{checkIns:
 * true}`) hears from its character after a quiet spell. The character
 * writes one message in character (the chat's memory note, summary, pinned
 * and recalled memories are in its prompt as for any reply; prompt.ts
 * `checkInNudge` says it writes first), then a `character_check_in`
 * notification goes to the owner's Inbox, unless they have the chat open.
 *
 * The rules, all read from the room's own SQLite so they survive restarts
 * (the alarm is the object's, kept by the runtime across evictions and
 * deploys):
 * - Quiet period: CHECK_IN_QUIET_MS (24 h) since the chat's last message
 *   or the last check-in attempted, whichever is later, so never more than
 *   one attempt per period, even when the model fails.
 *   `CHECK_IN_QUIET_MS` in the environment shortens it for trying it
 *   locally (development only; README).
 * - Paused after MAX_UNANSWERED_CHECK_INS check-ins with no message of the
 *   person after them; their next message starts the clock again.
 * - Never in the owner's quiet hours (their notification settings, read
 *   from their Inbox when one is due): it waits for the hours to end.
 * - One-to-one only: a chat that gains a second character or a member
 *   has its opt-in turned off by the Worker (worker/lib/conversations.ts
 *   `endCheckIns`, in D1 and here), which refuses turning it on while it is
 *   a group; the plan also stays off for a group, whatever the flag.
 * - A reply being written when one is due: tried again CHECK_IN_RETRY_MS later.
 *
 * The room has one alarm (the runtime's), shared with the idle-socket
 * check (sockets.ts): whoever arms it keeps the earlier time, and the
 * room's `alarm` runs both checks, each re-arming for its own next time.
 */
import { type NotificationSettings, quietHoursEndAt } from "../../schema/notifications.ts";
import type { Inbox } from "../inbox/inbox.ts";
import type { CheckInRequest } from "./reply-writing.ts";
import type { ReplyRounds } from "./replies.ts";
import type { RoomSockets } from "./sockets.ts";
import { StoragePart } from "./storage-part.ts";
import type { MessageRow, RoomStore } from "./store.ts";

/** The quiet spell after which a character checks in, ms (DESIGN.md: "default 24 h"). */
export const CHECK_IN_QUIET_MS = 24 * 60 * 60 * 1000;
/** Check-ins in a row with no answer, after which they pause until the person writes. */
export const MAX_UNANSWERED_CHECK_INS = 2;
/** A check-in due while a reply is being written is tried again after this long, ms. */
export const CHECK_IN_RETRY_MS = 60_000;

/** The quiet period in use, ms: `CHECK_IN_QUIET_MS` from the environment (development; at least 1 s), else 24 h. */
export function checkInPeriodMs(env: Env): number {
  const raw = Number((env as { CHECK_IN_QUIET_MS?: string }).CHECK_IN_QUIET_MS);
  return Number.isFinite(raw) && raw >= 1000 ? raw : CHECK_IN_QUIET_MS;
}

/** What the alarm should do about check-ins now. */
export type CheckInPlan =
  | { kind: "off" }
  | { kind: "paused" }
  | { kind: "wait"; at: number }
  | { kind: "due"; awayMs: number };

/**
 * The rules above as a pure function. Times in ms since the epoch;
 * `lastActivityAt`: the later of the last visible message and the last
 * check-in attempted (null: none, which counts as now).
 */
export function planCheckIn(facts: {
  enabled: boolean;
  oneToOne: boolean;
  unanswered: number;
  lastMessageAt: number | null;
  lastActivityAt: number | null;
  now: number;
  periodMs: number;
}): CheckInPlan {
  if (!facts.enabled || !facts.oneToOne) return { kind: "off" };
  if (facts.unanswered >= MAX_UNANSWERED_CHECK_INS) return { kind: "paused" };
  const since = facts.lastActivityAt ?? facts.now;
  const due = since + facts.periodMs;
  if (facts.now < due) return { kind: "wait", at: due };
  return { kind: "due", awayMs: facts.now - (facts.lastMessageAt ?? since) };
}

/** The check-in rows of the room's SQLite (migrations.ts version 15). */
export class CheckInRows extends StoragePart {
  enabled(): boolean {
    return this.sql<{ enabled: number }>("SELECT enabled FROM check_in_settings WHERE id = 1")[0]?.enabled === 1;
  }

  setEnabled(enabled: boolean): void {
    this.sql("INSERT INTO check_in_settings (id, enabled) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled", enabled ? 1 : 0);
  }

  /** The newest attempt, ms (the `check_ins` row of an attempt not yet stored has an empty id). */
  lastAttemptAt(): number | null {
    return this.sql<{ at: number | null }>("SELECT max(at) AS at FROM check_ins")[0]?.at ?? null;
  }

  /** A check-in was attempted at `at` (its message id once stored). */
  noteAttempt(at: number): void {
    this.sql("INSERT INTO check_ins (message_id, at) VALUES ('', ?) ON CONFLICT (message_id) DO UPDATE SET at = excluded.at", at);
  }

  /** The check-in reply `messageId` was stored. */
  noteStored(messageId: string, at: number): void {
    this.sql("INSERT INTO check_ins (message_id, at) VALUES (?, ?) ON CONFLICT (message_id) DO NOTHING", messageId, at);
  }

  /** Check-ins still shown with no message of a person after them. */
  unanswered(): number {
    return this.sql<{ n: number }>(
      `SELECT count(*) AS n FROM check_ins c JOIN messages m ON m.id = c.message_id AND m.status = 'complete'
       WHERE m.seq > coalesce((SELECT max(seq) FROM messages WHERE role = 'user' AND status = 'complete'), -1)`,
    )[0]!.n;
  }
}

/** What RoomCheckIns works with: the room's other parts. */
export interface CheckInParts {
  store: RoomStore;
  rows: CheckInRows;
  replies: ReplyRounds;
  sockets: RoomSockets;
  /** The room's clock (a seam for tests), ms since the epoch. */
  now: () => number;
}

/** The check-ins of one room: turned on and off, armed, run by the alarm. */
export class RoomCheckIns {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly parts: CheckInParts,
  ) {}

  /** The owner turned check-ins on or off (the Worker checked the chat is one-to-one). */
  async set(enabled: boolean): Promise<void> {
    this.parts.rows.setEnabled(enabled);
    if (enabled) await this.arm();
  }

  /** What is due, from the stored facts. */
  plan(): CheckInPlan {
    const { store, rows } = this.parts;
    // Most chats never opt in: one indexed read and done.
    if (!store.room || store.deleted || !rows.enabled()) return { kind: "off" };
    const lastMessageAt = store.lastVisible()?.created_at ?? null;
    const attempt = rows.lastAttemptAt();
    return planCheckIn({
      enabled: true,
      oneToOne: store.cast.list().length <= 1 && !store.people.isShared(),
      unanswered: rows.unanswered(),
      lastMessageAt,
      lastActivityAt: lastMessageAt === null && attempt === null ? null : Math.max(lastMessageAt ?? 0, attempt ?? 0),
      now: this.parts.now(),
      periodMs: checkInPeriodMs(this.env),
    });
  }

  /**
   * Makes sure the alarm rings by the next check-in (after a message, a
   * check-in, turning them on). Cheap when nothing changes: the alarm is
   * read from the object's storage cache.
   */
  async arm(): Promise<void> {
    const plan = this.plan();
    if (plan.kind === "wait") await this.armAt(plan.at);
    else if (plan.kind === "due") await this.armAt(this.parts.now());
  }

  /** The alarm rang: a check-in when one is due, else the alarm for the next. Never throws. */
  async run(): Promise<void> {
    try {
      const plan = this.plan();
      if (plan.kind === "wait") return await this.armAt(plan.at);
      if (plan.kind !== "due") return;
      const room = this.parts.store.room!;
      const now = this.parts.now();
      const settings = await this.ownerSettings(room.user_id);
      const quietUntil = quietHoursEndAt(now, settings.quietHours);
      if (quietUntil !== null) return await this.armAt(quietUntil);
      const request: CheckInRequest = { awayMs: plan.awayMs, onStored: (row) => this.stored(row) };
      if (!this.parts.replies.checkIn(room.character_id, request)) return await this.armAt(now + CHECK_IN_RETRY_MS);
      // Counted before the reply is written: a failing model waits a whole period too.
      this.parts.rows.noteAttempt(now);
    } catch (error) {
      console.warn("check-in failed", this.parts.store.room?.conversation_id, String(error));
      await this.armAt(this.parts.now() + CHECK_IN_RETRY_MS).catch(() => {});
    }
  }

  /** The owner's settings from their Inbox (quiet hours). */
  private ownerSettings(userId: string): Promise<NotificationSettings> {
    const namespace = this.env.INBOX as unknown as DurableObjectNamespace<Inbox>;
    return namespace.get(namespace.idFromName(userId)).settings();
  }

  /** The check-in was stored: counted, the owner told (unless the chat is open before them), the next one armed. */
  private stored(row: MessageRow): void {
    this.parts.rows.noteStored(row.id, row.created_at);
    const room = this.parts.store.room;
    if (!room) return;
    const present = this.parts.sockets.people().some((person) => person.userId === room.user_id);
    if (!present) this.ctx.waitUntil(this.notify(room.user_id, room.conversation_id, row.character_id ?? room.character_id));
    this.ctx.waitUntil(this.arm().catch((error: unknown) => console.warn("could not arm the next check-in", String(error))));
  }

  /** `character_check_in` to the owner's Inbox, named and pictured by the character (its current name and avatar from D1). Never throws. */
  private async notify(userId: string, conversationId: string, characterId: number): Promise<void> {
    try {
      const character = await this.env.DB.prepare("SELECT name, avatar_url AS avatarUrl FROM characters WHERE id = ?")
        .bind(characterId)
        .first<{ name: string; avatarUrl: string | null }>();
      const namespace = this.env.INBOX as unknown as DurableObjectNamespace<Inbox>;
      await namespace.get(namespace.idFromName(userId)).deliver({
        kind: "character_check_in",
        actorId: null,
        actor: null,
        target: {
          type: "conversation",
          id: conversationId,
          title: character?.name ?? "Your character",
          url: `/chat/${conversationId}`,
          // The push shows the character who checked in (no person acted).
          ...(character?.avatarUrl ? { imageUrl: character.avatarUrl } : {}),
        },
        foldKey: `character_check_in:${conversationId}`,
        scope: { type: "conversation", id: conversationId },
      }, userId);
    } catch (error) {
      console.warn("could not tell of a check-in", conversationId, String(error));
    }
  }

  /** Sets the alarm to `at` unless it already rings sooner. */
  private async armAt(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}
