/**
 * The input schemas of what people say about characters and to moderators:
 * comments, votes, review requests and reports (schema/inputs.ts re-exports
 * them).
 */
import { z } from "zod";
import { MAX_COMMENT_LENGTH, MAX_REPORT_DETAILS_LENGTH, REPORT_REASONS, type ReportReason } from "../constants.ts";

/** `POST /api/characters/:id/comments` */
export const commentInputSchema = z.object({
  content: z
    .string({ error: "Comment text is required" })
    .trim()
    .min(1, "Comment cannot be empty")
    .max(MAX_COMMENT_LENGTH, `Comments can be at most ${MAX_COMMENT_LENGTH.toLocaleString("en-US")} characters`),
  parentId: z.number({ error: "parentId must be a comment id" }).int().positive().nullish(),
});

/** `POST /api/comments/:id/vote` */
export const voteInputSchema = z.object({
  value: z.union([z.literal(1), z.literal(-1)], { error: "value must be 1 or -1" }),
});

/**
 * `POST /api/reports/review`: a refused writer asks for a person to look at
 * their latest refusal; `details` (optional) says why it is wrong.
 */
export const reviewRequestInputSchema = z
  .object({
    details: z.string().max(MAX_REPORT_DETAILS_LENGTH, `details must be at most ${MAX_REPORT_DETAILS_LENGTH} characters`).optional(),
  })
  .strict();
export type ReviewRequestInput = z.infer<typeof reviewRequestInputSchema>;

/**
 * `POST /api/reports`. `targetId` is a character or comment id (number or
 * decimal text), a chat message id, or a share link's token (`share`); a message also names its
 * `conversationId` (messages live in their conversation's room).
 */
export const reportInputSchema = z
  .object({
    targetType: z.enum(["character", "comment", "message", "share"], {
      error: 'targetType must be "character", "comment", "message" or "share"',
    }),
    targetId: z
      .union([z.number().int().positive(), z.string().trim().min(1).max(100)], {
        error: "targetId must name what you report",
      })
      .transform(String),
    conversationId: z.string().trim().min(1).max(100).optional(),
    reason: z.enum(REPORT_REASONS.map((r) => r.value) as [ReportReason, ...ReportReason[]], {
      error: "Choose a reason for the report",
    }),
    details: z
      .string()
      .trim()
      .max(
        MAX_REPORT_DETAILS_LENGTH,
        `Details can be at most ${MAX_REPORT_DETAILS_LENGTH.toLocaleString("en-US")} characters`,
      )
      .optional()
      .transform((value) => (value ? value : undefined)),
  })
  .superRefine((input, ctx) => {
    if (input.targetType === "message" && !input.conversationId) {
      ctx.addIssue({ code: "custom", path: ["conversationId"], message: "A reported message needs its conversationId" });
    }
    if (input.targetType === "share" && !/^[A-Za-z0-9_-]{22}$/.test(input.targetId)) {
      ctx.addIssue({ code: "custom", path: ["targetId"], message: "targetId must be a share link's token" });
    }
    if ((input.targetType === "character" || input.targetType === "comment") && !/^[1-9]\d{0,15}$/.test(input.targetId)) {
      ctx.addIssue({ code: "custom", path: ["targetId"], message: `targetId must be a ${input.targetType} id` });
    }
  });
export type ReportInput = z.output<typeof reportInputSchema>;
