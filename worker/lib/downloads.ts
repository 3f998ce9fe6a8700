/**
 * Files the Worker hands out as downloads (character cards, chat exports).
 */

/**
 * A `Content-Disposition: attachment` value for `name.extension`: an ASCII
 * `filename` (anything else becomes "_") for old clients, and the exact
 * name as `filename*` (RFC 6266 §4.3, RFC 8187 UTF-8 encoding).
 */
export function attachmentDisposition(name: string, extension: string): string {
  const fallback = name.replace(/[^\w .()-]+/g, "_").trim() || "download";
  return `attachment; filename="${fallback}.${extension}"; filename*=UTF-8''${encodeURIComponent(`${name}.${extension}`)}`;
}
