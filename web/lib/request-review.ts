/**
 * `POST /api/reports/review` (issue 35): a person whose write was refused as
 * sexual content involving minors asks for a review of that refusal, in one
 * click from the refusal. Shared by the character editor, the card import
 * and the chat import, so it lives here rather than in one feature.
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend, serverErrorIssues, errorStatus } from "./api-client.ts";

/**
 * Sends the request; resolves with it whether it was filed now (201) or was
 * already open (200). Throws the SPEC.md §8 error: `401: …` for visitors,
 * `404: …` when the person has no refusal from the last day, `429: …` over
 * the write limit.
 */
export function requestReview() {
  return apiSend("post", "/api/reports/review", { body: {} });
}

/** The mutation behind the "Ask for review" button. */
export function useRequestReview() {
  return useMutation({ mutationFn: requestReview });
}

/** Whether an error of this client is a refusal as sexual content involving minors (422 `content_refused`), which may be reviewed. */
export function isContentRefusal(error: unknown): boolean {
  if (errorStatus(error) !== 422) return false;
  try {
    const parsed: unknown = JSON.parse((error as Error).message.slice(5));
    return Boolean(parsed && typeof parsed === "object" && "code" in parsed && parsed.code === "content_refused");
  } catch {
    return false;
  }
}

/** The refusal's reasons as a person reads them: each issue's sentence ("The scenario says …"), in order. */
export function refusalReasons(error: unknown): string[] {
  return serverErrorIssues(error).map((issue) => issue.message);
}
