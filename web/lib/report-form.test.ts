import { describe, expect, it } from "vitest";
import { MAX_REPORT_DETAILS_LENGTH, REPORT_REASONS } from "../../schema/constants.ts";
import { reportInputSchema } from "../../schema/inputs.ts";
import {
  DETAILS_TOO_LONG,
  REASON_REQUIRED,
  REPORT_FAILED,
  type ReportTarget,
  buildReportRequest,
  detailsLength,
  reportErrorsFromServer,
} from "./report-form.ts";

const character: ReportTarget = { targetType: "character", targetId: 7 };
const comment: ReportTarget = { targetType: "comment", targetId: 42 };
const reply: ReportTarget = { targetType: "message", targetId: "m-1", conversationId: "6f1c1a38-7d4c-4c1e-9d2a-0f3b0c8e5a11" };

/** An error as the api client throws it for a JSON error body. */
const apiError = (status: number, body: unknown) => new Error(`${status}: ${JSON.stringify(body)}`);

describe("buildReportRequest", () => {
  it("asks for a reason first, with the server's words", () => {
    expect(buildReportRequest(character, { reason: null, details: "" })).toEqual({ errors: { reason: REASON_REQUIRED } });
    expect(REASON_REQUIRED).toBe("Choose a reason for the report");
  });

  it("sends a character or comment by its id as text, without conversationId or empty details", () => {
    expect(buildReportRequest(character, { reason: "spam", details: "   " })).toEqual({
      request: { targetType: "character", targetId: "7", reason: "spam" },
    });
    expect(buildReportRequest(comment, { reason: "hate", details: "  slurs in the second line \n" })).toEqual({
      request: { targetType: "comment", targetId: "42", reason: "hate", details: "slurs in the second line" },
    });
  });

  it("sends a chat reply with its conversation", () => {
    expect(buildReportRequest(reply, { reason: "minors", details: "" })).toEqual({
      request: { targetType: "message", targetId: "m-1", conversationId: reply.conversationId, reason: "minors" },
    });
  });

  it("takes 1,000 characters of details after trimming, and refuses 1,001", () => {
    const max = "x".repeat(MAX_REPORT_DETAILS_LENGTH);
    expect(buildReportRequest(character, { reason: "other", details: `  ${max}  ` }).request?.details).toBe(max);
    expect(buildReportRequest(character, { reason: "other", details: `${max}y` })).toEqual({ errors: { details: DETAILS_TOO_LONG } });
    expect(DETAILS_TOO_LONG).toBe("Details can be at most 1,000 characters");
    expect(detailsLength(`  ${max}  `)).toBe(MAX_REPORT_DETAILS_LENGTH);
  });

  it("builds what the server's schema accepts, for every reason", () => {
    for (const { value } of REPORT_REASONS) {
      for (const target of [character, comment, reply]) {
        const { request } = buildReportRequest(target, { reason: value, details: "see the description" });
        expect(reportInputSchema.safeParse(request).success).toBe(true);
      }
    }
  });
});

describe("reportErrorsFromServer", () => {
  it("puts a refusal of the whole report (own content) in the form", () => {
    const error = apiError(400, {
      error: "You cannot report your own comment",
      code: "validation_failed",
      issues: [{ path: "targetId", message: "You cannot report your own comment" }],
    });
    expect(reportErrorsFromServer(error)).toEqual({ form: "You cannot report your own comment" });
  });

  it("puts field issues under their fields, and no duplicate headline", () => {
    const error = apiError(400, {
      error: "Details can be at most 1,000 characters",
      code: "validation_failed",
      issues: [{ path: "details", message: "Details can be at most 1,000 characters" }],
    });
    expect(reportErrorsFromServer(error)).toEqual({ details: "Details can be at most 1,000 characters" });
  });

  it("shows a suspended account's sentence as the server says it", () => {
    const sentence = "Your account has been suspended for breaking Fabled's rules. You can no longer post, chat or create characters.";
    expect(reportErrorsFromServer(apiError(403, { error: sentence, code: "forbidden" }))).toEqual({ form: sentence });
  });

  it("falls back to a plain sentence when the server gave none", () => {
    expect(reportErrorsFromServer(new Error("502: Bad Gateway"))).toEqual({ form: REPORT_FAILED });
    expect(reportErrorsFromServer(new TypeError("Failed to fetch"))).toEqual({ form: REPORT_FAILED });
  });
});
