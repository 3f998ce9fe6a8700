/**
 * `GET /api/conversations/{id}/export?format=`: the conversation as a file
 * the server names (Content-Disposition), for plain download links.
 */

/** Formats of the export: SillyTavern chat JSONL, or a Markdown transcript. */
export type ChatExportFormat = "jsonl" | "markdown";

/** Where the conversation downloads from in `format`. */
export function conversationExportUrl(conversationId: string, format: ChatExportFormat): string {
  return `/api/conversations/${encodeURIComponent(conversationId)}/export?format=${format}`;
}
