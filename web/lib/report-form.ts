/**
 * The Report dialog's form (issue "Trust and safety"): what is reported, the
 * reason and the optional details, checked as `reportInputSchema`
 * (schema/inputs.ts) checks them, without zod (the character page's bundle
 * need not carry it), and turned into the body of `POST /api/reports`.
 */
import { MAX_REPORT_DETAILS_LENGTH, REPORT_REASONS, type ReportReason, type ReportTargetType } from "../../schema/constants.ts";
import { serverErrorIssues, serverErrorText } from "./api-client.ts";

/** What a Report action points at. A chat reply (`message`) also names its conversation. */
export type ReportTarget =
  | { targetType: "character" | "comment"; targetId: number; conversationId?: undefined }
  | { targetType: "message"; targetId: string; conversationId: string }
  | { targetType: "share"; targetId: string; conversationId?: undefined };

/** The body of `POST /api/reports`. */
export interface ReportRequest {
  targetType: ReportTargetType;
  targetId: string;
  conversationId?: string;
  reason: ReportReason;
  details?: string;
}

export interface ReportFormValues {
  /** Null until a reason is chosen. */
  reason: ReportReason | null;
  details: string;
}

export interface ReportFormErrors {
  reason?: string;
  details?: string;
  /** A refusal about the report as a whole (e.g. "You cannot report your own comment"). */
  form?: string;
}

export const REASON_REQUIRED = "Choose a reason for the report";
export const DETAILS_TOO_LONG = `Details can be at most ${MAX_REPORT_DETAILS_LENGTH.toLocaleString("en-US")} characters`;
/** Said when the server gave no sentence of its own (network failure, 5xx without a body). */
export const REPORT_FAILED = "Failed to send the report. Please try again.";

const REASON_VALUES: readonly string[] = REPORT_REASONS.map((r) => r.value);

/** Length of the details as the server counts them: after trimming, in UTF-16 code units. */
export function detailsLength(details: string): number {
  return details.trim().length;
}

/**
 * Checks `values` and builds the request for `target`: `{ request }` when
 * valid (details trimmed, left out when empty; `conversationId` only for a
 * message), else `{ errors }` with the messages the server would give.
 */
export function buildReportRequest(
  target: ReportTarget,
  values: ReportFormValues,
): { request: ReportRequest; errors?: undefined } | { request?: undefined; errors: ReportFormErrors } {
  const errors: ReportFormErrors = {};
  if (values.reason === null || !REASON_VALUES.includes(values.reason)) errors.reason = REASON_REQUIRED;
  if (detailsLength(values.details) > MAX_REPORT_DETAILS_LENGTH) errors.details = DETAILS_TOO_LONG;
  if (errors.reason || errors.details) return { errors };
  const details = values.details.trim();
  return {
    request: {
      targetType: target.targetType,
      targetId: String(target.targetId),
      ...(target.targetType === "message" ? { conversationId: target.conversationId } : {}),
      reason: values.reason!,
      ...(details ? { details } : {}),
    },
  };
}

/**
 * Where a refused report's reasons go in the dialog: `reason` and `details`
 * issues under their fields, anything else (own content, a target gone, a
 * suspended account, the rate limit) as one sentence for the form, falling
 * back to REPORT_FAILED.
 */
export function reportErrorsFromServer(error: unknown): ReportFormErrors {
  const errors: ReportFormErrors = {};
  for (const issue of serverErrorIssues(error)) {
    if ((issue.path === "reason" || issue.path === "details") && !errors[issue.path]) errors[issue.path] = issue.message;
  }
  const sentence = serverErrorText(error);
  const fieldOnly = (errors.reason !== undefined && sentence === errors.reason) || (errors.details !== undefined && sentence === errors.details);
  if (!fieldOnly) errors.form = sentence ?? REPORT_FAILED;
  return errors;
}
