/**
 * Reports (issue "Trust and safety"; docs/decisions/0008-trust-and-safety.md):
 * what people flag for the operator, on D1.
 *
 * A report names its target (`character`, `comment`, `message` or `share`, a share link) and keeps
 * an `excerpt`, a copy of what the reporter saw, because the target may be
 * edited or deleted before an operator looks. One person has at most one
 * open report per target (the partial unique index
 * `reports_one_open_per_reporter`, migrations/0007_moderation.sql): a repeat
 * returns the open one. Operators act on reports with `npm run moderation`
 * (scripts/moderation.ts).
 */
import type { Report, ReviewRequest } from "../../schema/api.ts";
import type { ReportQueueTarget } from "../../schema/constants.ts";
import type { ReportInput } from "../../schema/inputs.ts";
import { isConversationId } from "./conversations.ts";
import { pictureExcerpt } from "./moderation-actions.ts";
import { ApiError, notFound } from "./errors.ts";
import { isVisibleTo } from "./listable.ts";

/** Longest excerpt kept in a report, characters (a chat reply is at most 5,000; a character's description is cut). */
export const MAX_REPORT_EXCERPT_LENGTH = 20_000;

/** What a report points at, resolved and checked: who owns it and the text the reporter saw. */
export interface ReportTarget {
  targetType: ReportQueueTarget;
  targetId: string;
  conversationId: string | null;
  characterId: number | null;
  targetOwnerId: string | null;
  excerpt: string;
}

/**
 * Reads one chat message of a conversation for its owner (the room's RPC);
 * null when there is none. A picture is `kind: "image"`: its prompt as
 * `content`, its `imageUrl`, and who asked for it (`authorId`).
 */
export type MessageReader = (
  conversationId: string,
  messageId: string,
) => Promise<{ isUser: boolean; content: string; characterId?: number | null; kind?: "image"; imageUrl?: string; authorId?: string } | null>;

interface ReportRow {
  id: number;
  targetType: Report["targetType"];
  targetId: string;
  reason: Report["reason"];
  details: string | null;
  status: Report["status"];
  createdAt: number;
}

const REPORT_COLUMNS = `id, target_type AS targetType, target_id AS targetId, reason, details, status, created_at AS createdAt`;

function toReport(row: ReportRow): Report {
  return { ...row, createdAt: new Date(row.createdAt).toISOString() };
}

const clip = (text: string) => text.slice(0, MAX_REPORT_EXCERPT_LENGTH);

/**
 * Resolves what `reporterId` reports, as they may see it. Throws 404 for an
 * unknown target or one they cannot see (someone else's inactive or removed
 * character and its comments; a message of someone else's conversation), and
 * 400 for their own character or comment, or their own chat message (only
 * the character's replies are reported). A picture of the chat (DESIGN.md
 * "Pictures") is reported as a message by any reader of the chat, its asker
 * included (the engine drew it); its owner is who asked for it, and the
 * excerpt names its object and prompt (pictureExcerpt).
 */
export async function resolveReportTarget(
  db: D1Database,
  reporterId: string,
  input: ReportInput,
  readMessage: MessageReader,
): Promise<ReportTarget> {
  const own = (what: string) =>
    new ApiError("validation_failed", `You cannot report your own ${what}`, {
      issues: [{ path: "targetId", message: `You cannot report your own ${what}` }],
    });
  if (input.targetType === "character") {
    const row = await db
      .prepare("SELECT id, name, description, creator_id AS creatorId, is_active AS isActive FROM characters WHERE id = ?")
      .bind(Number(input.targetId))
      .first<{ id: number; name: string; description: string; creatorId: string | null; isActive: number }>();
    if (!row || !isVisibleTo({ isActive: Boolean(row.isActive), creatorId: row.creatorId }, reporterId)) throw notFound("Character not found");
    if (row.creatorId === reporterId) throw own("character");
    return {
      targetType: "character",
      targetId: String(row.id),
      conversationId: null,
      characterId: row.id,
      targetOwnerId: row.creatorId,
      excerpt: clip(`${row.name}: ${row.description}`),
    };
  }
  if (input.targetType === "comment") {
    const row = await db
      .prepare(
        `SELECT m.id, m.content, m.user_id AS userId, m.character_id AS characterId,
                c.creator_id AS creatorId, c.is_active AS isActive
         FROM comments m JOIN characters c ON c.id = m.character_id WHERE m.id = ?`,
      )
      .bind(Number(input.targetId))
      .first<{ id: number; content: string; userId: string; characterId: number; creatorId: string | null; isActive: number }>();
    if (!row || !isVisibleTo({ isActive: Boolean(row.isActive), creatorId: row.creatorId }, reporterId)) throw notFound("Comment not found");
    if (row.userId === reporterId) throw own("comment");
    return {
      targetType: "comment",
      targetId: String(row.id),
      conversationId: null,
      characterId: row.characterId,
      targetOwnerId: row.userId,
      excerpt: clip(row.content),
    };
  }
  if (input.targetType === "share") {
    // A share link is public: anyone with it may report it (its owner's own is a 400, as their own character).
    const row = await db
      .prepare(
        `SELECT s.token, s.user_id AS ownerId, s.conversation_id AS conversationId, s.title,
           (SELECT json_group_array(m.author_name || ': ' || m.line) FROM
              (SELECT author_name, CASE kind WHEN 'image' THEN '[picture /objects/shares/' || share_token || '/' || position || '] ' || coalesce(prompt, '')
                 ELSE content END AS line
               FROM share_messages WHERE share_token = s.token ORDER BY position LIMIT 20) m) AS lines,
           json_extract(s.characters, '$[0].id') AS characterId
         FROM shares s WHERE s.token = ?`,
      )
      .bind(input.targetId)
      .first<{ token: string; ownerId: string; conversationId: string; title: string; lines: string; characterId: number | null }>();
    if (!row) throw notFound("Share link not found");
    if (row.ownerId === reporterId) throw own("share link");
    return {
      targetType: "share",
      targetId: row.token,
      conversationId: row.conversationId,
      characterId: row.characterId,
      targetOwnerId: row.ownerId,
      excerpt: clip([row.title, ...(JSON.parse(row.lines) as string[])].join("\n")),
    };
  }
  const conversationId = input.conversationId ?? "";
  const conversation = isConversationId(conversationId)
    ? await db
        // The reporter's own chat, or a shared room they are in (any member may report any message of it).
        .prepare(
          `SELECT v.id, v.character_id AS characterId, v.user_id AS ownerId FROM conversations v WHERE v.id = ?1
             AND (v.user_id = ?2 OR EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = v.id AND m.user_id = ?2))`,
        )
        .bind(conversationId.toLowerCase(), reporterId)
        .first<{ id: string; characterId: number }>()
    : null;
  if (!conversation) throw notFound("Conversation not found");
  const message = await readMessage(conversation.id, input.targetId);
  if (!message) throw notFound("Message not found");
  if (message.isUser) {
    throw new ApiError("validation_failed", "Only the character's replies can be reported", {
      issues: [{ path: "targetId", message: "Only the character's replies can be reported" }],
    });
  }
  const picture = message.kind === "image" && message.imageUrl !== undefined;
  return {
    targetType: "message",
    targetId: input.targetId,
    conversationId: conversation.id,
    // The reply's speaker (a group chat's member), else the conversation's character.
    characterId: message.characterId ?? conversation.characterId,
    targetOwnerId: picture ? (message.authorId ?? reporterId) : reporterId,
    excerpt: clip(picture ? pictureExcerpt(message.imageUrl!, message.content) : message.content),
  };
}

/**
 * Files a report, or finds the reporter's open report on the same target.
 * Returns `{ report, created }`: created false means nothing was written
 * (the caller answers 200 instead of 201).
 */
export async function fileReport(
  db: D1Database,
  reporterId: string,
  target: ReportTarget,
  reason: Report["reason"],
  details: string | undefined,
): Promise<{ report: Report; created: boolean }> {
  const inserted = await db
    .prepare(
      `INSERT INTO reports (reporter_id, target_type, target_id, conversation_id, character_id, target_owner_id, reason, details, excerpt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (reporter_id, target_type, target_id) WHERE status = 'open' AND reporter_id IS NOT NULL DO NOTHING
       RETURNING ${REPORT_COLUMNS}`,
    )
    .bind(
      reporterId,
      target.targetType,
      target.targetId,
      target.conversationId,
      target.characterId,
      target.targetOwnerId,
      reason,
      details ?? null,
      target.excerpt,
    )
    .first<ReportRow>();
  if (inserted) return { report: toReport(inserted), created: true };
  const existing = await db
    .prepare(
      `SELECT ${REPORT_COLUMNS} FROM reports
       WHERE reporter_id = ? AND target_type = ? AND target_id = ? AND status = 'open'`,
    )
    .bind(reporterId, target.targetType, target.targetId)
    .first<ReportRow>();
  // Only missing if an operator closed it between the two statements: file it again.
  if (!existing) return fileReport(db, reporterId, target, reason, details);
  return { report: toReport(existing), created: false };
}

/** How long after a refusal its writer may ask for a review, ms (a day). */
export const REVIEW_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A refused writer asks for a review (issue 35, one click from the refusal):
 * a report on their latest refused write of the last REVIEW_WINDOW_MS
 * (`moderation_log`, outcome `refused`), with its text as the excerpt, for
 * the operator's queue (`npm run moderation -- reports`). One open request
 * per refusal: a repeat returns it (`created: false`). Throws 404 when the
 * person has no refusal in that window.
 */
export async function requestRefusalReview(
  db: D1Database,
  userId: string,
  details: string | undefined,
  now: number = Date.now(),
): Promise<{ report: ReviewRequest; created: boolean }> {
  const refusal = await db
    .prepare(
      `SELECT id, subject_type AS subjectType, character_id AS characterId, conversation_id AS conversationId, content
       FROM moderation_log WHERE user_id = ? AND outcome = 'refused' AND created_at >= ? ORDER BY id DESC LIMIT 1`,
    )
    .bind(userId, now - REVIEW_WINDOW_MS)
    .first<{ id: number; subjectType: string; characterId: number | null; conversationId: string | null; content: string }>();
  if (!refusal) throw notFound("There is no refusal of yours from the last day to review.");
  const { report, created } = await fileReport(
    db,
    userId,
    {
      targetType: "refusal",
      targetId: String(refusal.id),
      conversationId: refusal.conversationId,
      characterId: refusal.characterId,
      targetOwnerId: userId,
      excerpt: clip(`${refusal.subjectType} refused: ${refusal.content}`),
    },
    "other",
    details ? `Review requested by the writer: ${details}` : "Review requested by the writer",
  );
  return { report: { ...report, targetType: "refusal" }, created };
}

/**
 * Opens a report by automatic screening (no reporter): a character flagged
 * for review (worker/lib/screening.ts). At most one open one per character.
 */
export async function fileScreeningReport(
  db: D1Database,
  character: { id: number; creatorId: string | null; name: string; description: string },
  categories: readonly string[],
  details: string = `Automatic screening: ${categories.join(", ")}`,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO reports (reporter_id, target_type, target_id, character_id, target_owner_id, reason, details, excerpt)
       SELECT NULL, 'character', ?1, ?2, ?3, 'other', ?4, ?5
       WHERE NOT EXISTS (SELECT 1 FROM reports WHERE reporter_id IS NULL AND target_type = 'character'
                         AND target_id = ?1 AND status = 'open')`,
    )
    .bind(
      String(character.id),
      character.id,
      character.creatorId,
      details,
      clip(`${character.name}: ${character.description}`),
    )
    .run();
}
