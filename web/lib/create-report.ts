/**
 * `POST /api/reports` (issue "Trust and safety"): a signed-in person reports
 * a character, a comment or a character's reply in their own chat. Shared
 * by the character page, the comments and the chat, so it lives here rather
 * than in one feature.
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "./api-client.ts";
import type { ReportRequest } from "./report-form.ts";

/**
 * Sends the report; resolves with it whether it was filed now (201) or was
 * already open from this person (200: same report, nothing new written).
 * Throws the SPEC.md §8 error: `401: …` for visitors, `400: …` for the
 * person's own content, `403: …` for a suspended account, `404: …` for a
 * target they cannot see, `429: …` over the write limit.
 */
export function createReport(input: ReportRequest) {
  return apiSend("post", "/api/reports", { body: input });
}

/** The mutation behind the Report dialog; nothing on screen changes until an operator acts, so nothing is refetched. */
export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
