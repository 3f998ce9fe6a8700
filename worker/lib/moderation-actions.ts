/**
 * The operator's actions on reports and people (issue "Trust and safety";
 * docs/decisions/0008-trust-and-safety.md), run by `npm run moderation`
 * (scripts/moderation.ts) against the local database or, with `--remote`,
 * the deployed one through wrangler. There are no admin screens.
 *
 * Every action writes one `moderation_actions` row (who, what, when, why).
 * The statements of one action run in order as one call; each is written
 * so that running the action again changes nothing more (wrangler's
 * `d1 execute` does not promise a transaction over several statements).
 *
 * - uphold a report: a character is removed (`moderation_status = 'removed'`,
 *   inactive: gone from lists, search and tag counts, 404 to everyone but its
 *   owner, who cannot reactivate it); a comment is deleted with its replies;
 *   a chat message is hidden (`hidden_messages`; the room replaces its text
 *   the next time the Worker opens it), and a picture of a chat is deleted
 *   the same way, its row and its R2 object (`/objects/pictures/…` answers
 *   404 at once). Every open report on the same target is closed with it.
 * - dismiss a report: closed; a character flagged by screening with no
 *   other open report goes back to `ok`.
 * - suspend / unsuspend a person (their sessions end; writes are 403).
 * - restore a removed character (back to `ok`, active as it was before).
 */
import { MODERATED_MESSAGE_TEXT } from "../../schema/chat.ts";
import { canonicalUsername } from "../../schema/usernames.ts";
import { listedSql } from "./listable.ts";

/**
 * Where the operator's SQL runs: D1 in tests (worker/test/operator-db.ts);
 * from the command line the local database's file
 * (scripts/lib/local-operator-db.ts) or, for the deployed D1, wrangler's `d1
 * execute` (scripts/lib/wrangler-d1.ts). Parameters are positional `?`.
 */
export interface OperatorDb {
  /** Rows of one SELECT. */
  all<T>(sql: string, ...params: SqlParam[]): Promise<T[]>;
  /** Runs statements in order. */
  run(statements: { sql: string; params: SqlParam[] }[]): Promise<void>;
}

export type SqlParam = string | number | null;

/**
 * The excerpt a reported picture keeps (DESIGN.md "Pictures"): `[picture
 * /objects/pictures/{conversationId}/{id}] {prompt}` — where it was served
 * and the words it was drawn from, since the picture itself is deleted
 * when the report is upheld.
 */
export function pictureExcerpt(imageUrl: string, prompt: string): string {
  return `[picture ${imageUrl}] ${prompt}`;
}

/**
 * The served path of a reported picture (`/objects/pictures/{conversationId}/{id}`);
 * null when the report is not about a picture. Its excerpt must name the
 * report's own conversation and message, so no reply can pass for one.
 */
export function reportedPicturePath(report: Pick<ReportLine, "targetType" | "conversationId" | "targetId" | "excerpt">): string | null {
  if (report.targetType !== "message" || !report.conversationId) return null;
  const path = `/objects/pictures/${report.conversationId}/${report.targetId}`;
  return report.excerpt.startsWith(`[picture ${path}]`) ? path : null;
}

/** A report as the operator lists it. */
export interface ReportLine {
  id: number;
  /** `refusal`: a refused write whose writer asked for a review (targetId: its `moderation_log` id; nothing was stored). */
  targetType: "character" | "comment" | "message" | "share" | "refusal";
  targetId: string;
  conversationId: string | null;
  characterId: number | null;
  targetOwnerId: string | null;
  reason: string;
  details: string | null;
  excerpt: string;
  status: "open" | "upheld" | "dismissed";
  createdAt: number;
  resolvedAt: number | null;
  /** The reporter's username; null for automatic screening. */
  reporter: string | null;
  /** Open reports on the same target, this one included. */
  openOnTarget: number;
}

/** Who acts and why: recorded in `moderation_actions`. */
export interface Actor {
  actor: string;
  reason: string | null;
}

/** A request the operator can correct (unknown report, already closed…); the CLI prints the message. */
export class OperatorError extends Error {
  override readonly name = "OperatorError";
}

const REPORT_SELECT = `SELECT r.id, r.target_type AS targetType, r.target_id AS targetId, r.conversation_id AS conversationId,
    r.character_id AS characterId, r.target_owner_id AS targetOwnerId, r.reason, r.details, r.excerpt, r.status,
    r.created_at AS createdAt, r.resolved_at AS resolvedAt, u.username AS reporter,
    (SELECT count(*) FROM reports o WHERE o.target_type = r.target_type AND o.target_id = r.target_id AND o.status = 'open') AS openOnTarget
  FROM reports r LEFT JOIN users u ON u.id = r.reporter_id`;

/** Open reports, oldest first (at most `limit`). */
export function listOpenReports(db: OperatorDb, limit = 100): Promise<ReportLine[]> {
  return db.all<ReportLine>(`${REPORT_SELECT} WHERE r.status = 'open' ORDER BY r.created_at, r.id LIMIT ?`, limit);
}

/** One report, any status; throws OperatorError when there is none. */
export async function getReport(db: OperatorDb, id: number): Promise<ReportLine> {
  const [report] = await db.all<ReportLine>(`${REPORT_SELECT} WHERE r.id = ?`, id);
  if (!report) throw new OperatorError(`There is no report ${id}.`);
  return report;
}

/** What an operator sees about a report's target now. */
export interface TargetState {
  /** e.g. "character 12 'Wren' by @nightowl: active, moderation ok" or "comment 7: deleted". */
  summary: string;
  /** Earlier operator actions on the same target, oldest first. */
  history: { action: string; actor: string; reason: string | null; createdAt: number }[];
}

/** The target's current state and the actions already taken on it. */
export async function describeTarget(db: OperatorDb, report: ReportLine): Promise<TargetState> {
  let summary: string;
  if (report.targetType === "character") {
    const [row] = await db.all<{ name: string; creator: string; isActive: number; status: string }>(
      "SELECT name, creator, is_active AS isActive, moderation_status AS status FROM characters WHERE id = ?",
      Number(report.targetId),
    );
    summary = row
      ? `character ${report.targetId} "${row.name}" by @${row.creator}: ${row.isActive ? "active" : "inactive"}, moderation ${row.status}`
      : `character ${report.targetId}: deleted`;
  } else if (report.targetType === "refusal") {
    const [row] = await db.all<{ subjectType: string; username: string | null; categories: string; provider: string; createdAt: number }>(
      `SELECT l.subject_type AS subjectType, u.username, l.categories, l.provider, l.created_at AS createdAt
       FROM moderation_log l LEFT JOIN users u ON u.id = l.user_id WHERE l.id = ?`,
      Number(report.targetId),
    );
    summary = row
      ? `refused ${row.subjectType} by ${row.username ?? "?"} at ${new Date(row.createdAt).toISOString()} (${row.provider}: ${row.categories}); nothing was stored, the writer asks for a review`
      : `refusal ${report.targetId}: log entry gone`;
  } else if (report.targetType === "share") {
    const [row] = await db.all<{ username: string | null; title: string; messageCount: number }>(
      "SELECT u.username, s.title, s.message_count AS messageCount FROM shares s LEFT JOIN users u ON u.id = s.user_id WHERE s.token = ?",
      report.targetId,
    );
    summary = row
      ? `share link ${report.targetId} "${row.title}" (${row.messageCount} messages) by ${row.username ?? "?"}: shown at /s/${report.targetId}`
      : `share link ${report.targetId}: removed`;
  } else if (report.targetType === "comment") {
    const [row] = await db.all<{ username: string | null; characterId: number }>(
      "SELECT u.username, m.character_id AS characterId FROM comments m LEFT JOIN users u ON u.id = m.user_id WHERE m.id = ?",
      Number(report.targetId),
    );
    summary = row ? `comment ${report.targetId} by ${row.username ?? "?"} on character ${row.characterId}` : `comment ${report.targetId}: deleted`;
  } else {
    const [row] = await db.all<{ hidden: number; exists: number }>(
      `SELECT EXISTS (SELECT 1 FROM hidden_messages WHERE conversation_id = ?1 AND message_id = ?2) AS hidden,
              EXISTS (SELECT 1 FROM conversations WHERE id = ?1) AS "exists"`,
      report.conversationId,
      report.targetId,
    );
    const what = reportedPicturePath(report) ? "picture" : "message";
    summary = `${what} ${report.targetId} in conversation ${report.conversationId}: ${
      !row?.exists ? "conversation deleted" : row.hidden ? (what === "picture" ? "removed" : "hidden") : "shown"
    }`;
  }
  const history = await db.all<TargetState["history"][number]>(
    `SELECT action, actor, reason, created_at AS createdAt FROM moderation_actions
     WHERE target_type = ? AND target_id = ? ORDER BY created_at, id`,
    report.targetType,
    report.targetId,
  );
  return { summary, history };
}

function auditStatement(
  who: Actor,
  action: string,
  target: { type: string; id: string },
  reportId: number | null,
  details: Record<string, unknown> | null,
): { sql: string; params: SqlParam[] } {
  return {
    sql: `INSERT INTO moderation_actions (actor, action, target_type, target_id, report_id, reason, details)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
    params: [who.actor, action, target.type, target.id, reportId, who.reason, details ? JSON.stringify(details) : null],
  };
}

/** Closes every open report on the report's target with `status`. */
function closeReportsStatement(report: ReportLine, status: "upheld" | "dismissed"): { sql: string; params: SqlParam[] } {
  return {
    sql: `UPDATE reports SET status = ?, resolved_at = cast(unixepoch('subsec') * 1000 as integer)
          WHERE target_type = ? AND target_id = ? AND status = 'open'`,
    params: [status, report.targetType, report.targetId],
  };
}

async function openReport(db: OperatorDb, id: number): Promise<ReportLine> {
  const report = await getReport(db, id);
  if (report.status !== "open") throw new OperatorError(`Report ${id} is already ${report.status}.`);
  return report;
}

/**
 * Upholds report `id`: removes its target (see the module docstring) and
 * closes every open report on it. Returns a sentence of what was done.
 * Throws OperatorError when the report does not exist or is closed.
 */
export async function upholdReport(db: OperatorDb, id: number, who: Actor): Promise<string> {
  const report = await openReport(db, id);
  const target = { type: report.targetType, id: report.targetId };
  const statements: { sql: string; params: SqlParam[] }[] = [];
  let done: string;
  let details: Record<string, unknown> | null = null;
  if (report.targetType === "character") {
    const [row] = await db.all<{ isActive: number }>("SELECT is_active AS isActive FROM characters WHERE id = ?", Number(report.targetId));
    if (row) {
      details = { wasActive: Boolean(row.isActive) };
      statements.push({
        sql: `UPDATE characters SET moderation_status = 'removed', is_active = 0,
                updated_at = cast(unixepoch('subsec') * 1000 as integer)
              WHERE id = ? AND moderation_status != 'removed'`,
        params: [Number(report.targetId)],
      });
      done = `Character ${report.targetId} removed: hidden from every list, search and page but its owner's.`;
    } else {
      done = `Character ${report.targetId} was already deleted; the report is closed.`;
    }
  } else if (report.targetType === "refusal") {
    // Nothing was stored: upholding confirms the refusal.
    done = `The refusal stands (log entry ${report.targetId}); nothing was stored.`;
  } else if (report.targetType === "share") {
    // The link stops working at once; visitors' cached copies expire within the edge cache's bound.
    statements.push({ sql: "DELETE FROM shares WHERE token = ?", params: [report.targetId] });
    done = `Share link ${report.targetId} removed: /s/${report.targetId} and its pictures answer "not found" (cached copies expire within 30 s; the pictures' files are deleted by the daily sweep).`;
  } else if (report.targetType === "comment") {
    // Replies go with it (foreign-key cascade), as when its author deletes it.
    statements.push({ sql: "DELETE FROM comments WHERE id = ?", params: [Number(report.targetId)] });
    done = `Comment ${report.targetId} deleted with its replies.`;
  } else {
    statements.push({
      sql: `INSERT OR IGNORE INTO hidden_messages (conversation_id, message_id)
            SELECT id, ? FROM conversations WHERE id = ?`,
      params: [report.targetId, report.conversationId],
    });
    const picture = reportedPicturePath(report);
    done = picture
      ? `Picture ${report.targetId} removed: ${picture} answers "not found" now; its file and its place in the chat are deleted the next time the chat is opened (the daily sweep at the latest).`
      : `Message ${report.targetId} hidden: its conversation shows "${MODERATED_MESSAGE_TEXT}" from the next time it is opened.`;
  }
  statements.push(closeReportsStatement(report, "upheld"), auditStatement(who, "uphold", target, id, details));
  await db.run(statements);
  return done;
}


/**
 * Dismisses report `id` and every open report on the same target; a
 * character flagged by screening returns to `ok`. Throws OperatorError when
 * the report does not exist or is closed.
 */
export async function dismissReport(db: OperatorDb, id: number, who: Actor): Promise<string> {
  const report = await openReport(db, id);
  const statements = [closeReportsStatement(report, "dismissed")];
  if (report.targetType === "character") {
    statements.push({
      sql: "UPDATE characters SET moderation_status = 'ok' WHERE id = ? AND moderation_status = 'flagged'",
      params: [Number(report.targetId)],
    });
  }
  statements.push(auditStatement(who, "dismiss", { type: report.targetType, id: report.targetId }, id, null));
  await db.run(statements);
  return `Report ${id} dismissed${report.openOnTarget > 1 ? ` with ${report.openOnTarget - 1} other open report(s) on the same ${report.targetType}` : ""}.`;
}

/** A person by username as the operator types it ("@name" or "name", any case): the canonical lookup. Throws OperatorError when unknown. */
export async function findUser(db: OperatorDb, username: string): Promise<{ id: string; username: string; suspendedAt: number | null }> {
  const name = canonicalUsername(username);
  if (name === "@") throw new OperatorError("Name the person as @username.");
  const [user] = await db.all<{ id: string; username: string; suspendedAt: number | null }>(
    "SELECT id, username, suspended_at AS suspendedAt FROM users WHERE lower(username) = lower(?)",
    name,
  );
  if (!user) throw new OperatorError(`There is no person named ${name}.`);
  return user;
}

/**
 * Suspends a person: `suspended_at` set, every session of theirs deleted, and
 * every listed character of theirs taken out of every list (inactive), so
 * "listed" stays the one definition of worker/lib/listable.ts (`is_active = 1`)
 * that the triggers' counters and the search flags follow. The characters it
 * hid are recorded in the audit row's `details.hiddenCharacters`, computed in
 * the same batch, so `unsuspendUser` lists exactly those again and leaves the
 * ones the owner had deactivated themselves as they were. Throws
 * OperatorError for an unknown or already suspended person.
 */
export async function suspendUser(db: OperatorDb, username: string, who: Actor): Promise<string> {
  const user = await findUser(db, username);
  if (user.suspendedAt !== null) throw new OperatorError(`${user.username} is already suspended.`);
  const [listed] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM characters WHERE creator_id = ? AND ${listedSql("")}`, user.id);
  await db.run([
    {
      sql: "UPDATE users SET suspended_at = cast(unixepoch('subsec') * 1000 as integer) WHERE id = ? AND suspended_at IS NULL",
      params: [user.id],
    },
    { sql: "DELETE FROM sessions WHERE json_extract(sess, '$.userId') = ?", params: [user.id] },
    // The audit row first: its details name the characters the next statement hides.
    {
      sql: `INSERT INTO moderation_actions (actor, action, target_type, target_id, report_id, reason, details)
            VALUES (?, 'suspend', 'user', ?, NULL, ?,
              json_object('username', ?, 'hiddenCharacters',
                (SELECT json_group_array(id) FROM characters WHERE creator_id = ? AND ${listedSql("")})))`,
      params: [who.actor, user.id, who.reason, user.username, user.id],
    },
    { sql: `UPDATE characters SET is_active = 0 WHERE creator_id = ? AND ${listedSql("")}`, params: [user.id] },
  ]);
  const hidden = listed?.n ?? 0;
  return `${user.username} is suspended: signed out everywhere; every write of theirs is refused; ${hidden} ${hidden === 1 ? "character" : "characters"} of theirs hidden from every list.`;
}

/**
 * Lifts a suspension and lists again the characters the suspension hid (the
 * last `suspend` audit row's `details.hiddenCharacters`) unless removed by
 * moderation since. Throws OperatorError for an unknown or not suspended person.
 */
export async function unsuspendUser(db: OperatorDb, username: string, who: Actor): Promise<string> {
  const user = await findUser(db, username);
  if (user.suspendedAt === null) throw new OperatorError(`${user.username} is not suspended.`);
  await db.run([
    { sql: "UPDATE users SET suspended_at = NULL WHERE id = ?", params: [user.id] },
    {
      sql: `UPDATE characters SET is_active = 1
            WHERE creator_id = ? AND is_active = 0 AND moderation_status != 'removed'
              AND id IN (SELECT value FROM json_each(
                (SELECT details FROM moderation_actions WHERE target_type = 'user' AND target_id = ? AND action = 'suspend'
                 ORDER BY created_at DESC, id DESC LIMIT 1), '$.hiddenCharacters'))`,
      params: [user.id, user.id],
    },
    auditStatement(who, "unsuspend", { type: "user", id: user.id }, null, { username: user.username }),
  ]);
  return `${user.username} may post, chat and create again; the characters the suspension hid are listed again.`;
}

/**
 * Restores a removed character: moderation `ok`, and active again if it was
 * active when it was removed (the uphold's audit row says). Throws
 * OperatorError when it does not exist or is not removed.
 */
export async function restoreCharacter(db: OperatorDb, id: number, who: Actor): Promise<string> {
  const [row] = await db.all<{ status: string }>("SELECT moderation_status AS status FROM characters WHERE id = ?", id);
  if (!row) throw new OperatorError(`There is no character ${id}.`);
  if (row.status !== "removed") throw new OperatorError(`Character ${id} is not removed (moderation ${row.status}).`);
  const [removal] = await db.all<{ details: string | null }>(
    `SELECT details FROM moderation_actions WHERE target_type = 'character' AND target_id = ? AND action = 'uphold'
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    String(id),
  );
  const wasActive = removal?.details ? (JSON.parse(removal.details) as { wasActive?: boolean }).wasActive !== false : true;
  await db.run([
    {
      sql: `UPDATE characters SET moderation_status = 'ok', is_active = ?, updated_at = cast(unixepoch('subsec') * 1000 as integer)
            WHERE id = ? AND moderation_status = 'removed'`,
      params: [wasActive ? 1 : 0, id],
    },
    auditStatement(who, "restore", { type: "character", id: String(id) }, null, { active: wasActive }),
  ]);
  return `Character ${id} restored${wasActive ? " and listed again" : " (inactive, as its owner had left it)"}.`;
}

/** Recent screening outcomes (moderation_log), newest first. */
export interface ScreeningLine {
  id: number;
  subjectType: string;
  subjectId: string | null;
  outcome: string;
  categories: string;
  provider: string;
  content: string;
  createdAt: number;
}

/** The last `limit` screening outcomes, newest first. */
export function listScreening(db: OperatorDb, limit = 50): Promise<ScreeningLine[]> {
  return db.all<ScreeningLine>(
    `SELECT id, subject_type AS subjectType, subject_id AS subjectId, outcome, categories, provider, content,
       created_at AS createdAt FROM moderation_log ORDER BY created_at DESC, id DESC LIMIT ?`,
    limit,
  );
}
