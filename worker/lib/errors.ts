/**
 * The JSON error shape of DESIGN.md "Errors" and the one place that produces it.
 * Routes throw `ApiError`; `app.onError` (worker/app.ts) turns anything thrown
 * into `{ error, code, issues? }` with the matching status, and never leaks
 * internals on a 500.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody, ApiErrorCode } from "../../schema/api.ts";
import { SUSPENDED_MESSAGE } from "../../schema/chat.ts";

const STATUS: Record<ApiErrorCode, ContentfulStatusCode> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  validation_failed: 400,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** Screening refused the content (sexual content involving minors): docs/decisions/0008. */
  content_refused: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: ContentfulStatusCode;
  readonly issues?: ApiErrorBody["issues"];
  /** Seconds, sent as `Retry-After` with `rate_limited`. */
  readonly retryAfter?: number;

  constructor(
    code: ApiErrorCode,
    message: string,
    extra: { issues?: ApiErrorBody["issues"]; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = STATUS[code];
    this.issues = extra.issues;
    this.retryAfter = extra.retryAfter;
  }

  toBody(): ApiErrorBody {
    return this.issues
      ? { error: this.message, code: this.code, issues: this.issues }
      : { error: this.message, code: this.code };
  }
}

export const unauthorized = () => new ApiError("unauthorized", "Unauthorized");
export const notFound = (what = "Not found") => new ApiError("not_found", what);
/** The sentence a suspended person gets on every write and signed-in read (403); shared with the chat room. */
export { SUSPENDED_MESSAGE };
export const suspended = () => new ApiError("forbidden", SUSPENDED_MESSAGE);
export const forbidden = (why = "You are not allowed to do that") => new ApiError("forbidden", why);

/** 400 carrying every zod issue; the first one's message is the headline. */
export function validationFailed(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): ApiError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  return new ApiError("validation_failed", issues[0]?.message ?? "Invalid input", { issues });
}
