/**
 * `GET /api/conversations/{id}/export?format=`: the conversation as a file
 * the server names (Content-Disposition), for plain download links.
 */
import { apiUrl } from "../../../lib/api-client.ts";

/** Formats of the export: SillyTavern chat JSONL, or a Markdown transcript. */
export type ChatExportFormat = "jsonl" | "markdown";

/** Where the conversation downloads from in `format`. */
export function conversationExportUrl(conversationId: string, format: ChatExportFormat): string {
  return apiUrl("/api/conversations/:id/export", { params: { id: conversationId }, query: `format=${format}` });
}
