/**
 * A suspended person's frames are refused by the room itself
 * (docs/decisions/0008-trust-and-safety.md "Enforcement").
 *
 * The operator suspends from the command line (`npm run moderation --
 * suspend @name`), which only reaches D1 (wrangler `d1 execute`): no Worker
 * or object hears of it. So the room asks D1 before it acts on any frame of
 * a person (`users.suspended_at`, one primary-key read), and remembers a
 * "not suspended" answer for SUSPENSION_RECHECK_MS (ms) so a burst of frames
 * (a reconnect's resends) costs one read. This holds whichever path wrote
 * the suspension and whether or not any close reached the socket.
 *
 * On a suspended person's frame: the frame is not acted on (nothing
 * stored, no reply), the sender gets a `forbidden` error frame with
 * SUSPENDED_MESSAGE, every socket of theirs in this room closes with 1008
 * (CLOSE_REASONS.suspended), and their PersonSockets closes every other
 * socket of theirs in every conversation (PersonSockets.closeAll).
 *
 * A person with no `users` row (deleted) is refused the same way. When D1
 * cannot be read, the frame goes through and the failure is logged (like
 * chat screening, fail open: an outage must not stop every conversation;
 * the person's sessions were deleted when they were suspended).
 */
import { SUSPENDED_MESSAGE } from "../../schema/chat.ts";
import type { PersonSockets } from "../person-sockets.ts";
import { CLOSE_REASONS } from "../socket-limits.ts";
import { type RoomSockets, send } from "./sockets.ts";

/** How long the room trusts a "not suspended" answer from D1, ms. */
export const SUSPENSION_RECHECK_MS = 1_000;

/** The statement `readSuspended` runs (one primary-key read of `users`), to batch with others. */
export function suspendedStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare("SELECT suspended_at AS suspendedAt FROM users WHERE id = ?").bind(userId);
}

/** What `suspendedStatement` answered: true when the person is suspended or no longer exists. */
export function isSuspendedRow(row: { suspendedAt: number | null } | null | undefined): boolean {
  return row == null || row.suspendedAt !== null;
}

/** True when `userId` is suspended or no longer exists. Throws what D1 throws. */
export async function readSuspended(db: D1Database, userId: string): Promise<boolean> {
  return isSuspendedRow(await suspendedStatement(db, userId).first<{ suspendedAt: number | null }>());
}

/** The room's suspension check. */
export class RoomSuspension {
  /** When each person was last found not suspended, ms since the epoch (the room's clock). */
  private readonly cleared = new Map<string, number>();
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly sockets: RoomSockets;
  private readonly now: () => number;
  /**
   * Reads whether a person is suspended (readSuspended); `startsReply`: the
   * frame may start a reply, and the room reads what the reply needs in the
   * same round trip (D1Sync.readSuspended). Throws what D1 throws.
   */
  private readonly read: (userId: string, startsReply: boolean) => Promise<boolean>;

  constructor(ctx: DurableObjectState, env: Env, sockets: RoomSockets, now: () => number, read: (userId: string, startsReply: boolean) => Promise<boolean>) {
    this.ctx = ctx;
    this.env = env;
    this.sockets = sockets;
    this.now = now;
    this.read = read;
  }

  /**
   * Whether a frame of `userId` arriving on `ws` must be refused. When it
   * must, the refusal is already done (error frame, sockets closed here and
   * elsewhere): the caller only drops the frame. `startsReply`: the frame
   * may start a reply (a message, regenerate, continue, "Let … speak").
   * Never throws.
   */
  async refuses(ws: WebSocket, userId: string, startsReply = false): Promise<boolean> {
    const clearedAt = this.cleared.get(userId);
    if (clearedAt !== undefined && this.now() - clearedAt < SUSPENSION_RECHECK_MS) return false;
    let suspended: boolean;
    try {
      suspended = await this.read(userId, startsReply);
    } catch (error) {
      console.warn("could not read whether a person is suspended", String(error));
      return false;
    }
    if (!suspended) {
      this.cleared.set(userId, this.now());
      return false;
    }
    this.cleared.delete(userId);
    send(ws, { type: "error", code: "forbidden", message: SUSPENDED_MESSAGE });
    this.sockets.closeUser(userId, CLOSE_REASONS.suspended);
    const namespace = this.env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
    this.ctx.waitUntil(
      namespace
        .get(namespace.idFromName(userId))
        .closeAll(CLOSE_REASONS.suspended)
        .then(() => undefined)
        .catch((error: unknown) => console.warn("could not close a suspended person's other sockets", String(error))),
    );
    return true;
  }
}
