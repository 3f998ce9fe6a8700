/**
 * Roleplay formatting of chat messages (SPEC.md §2 "Chat"): text wrapped in
 * double asterisks (`**draws her sword**`) is an action, shown in italic
 * pink; text in single asterisks (`*smiles*`), the emote style of most
 * character cards, is shown in italic. Everything else is plain text.
 *
 * The rules follow Markdown emphasis closely enough for chat: an opening
 * run must be followed by a non-space and a closing run preceded by one
 * (so `2 * 3 * 4` stays plain), a segment never crosses a blank line, and
 * an asterisk without a partner stays a literal asterisk. The result is
 * plain strings for React to render as text, never HTML.
 */

export type SegmentKind = "text" | "action" | "emote";

export interface Segment {
  kind: SegmentKind;
  /** The text without its asterisks; line breaks kept. */
  text: string;
}

// `**x**` first, so a double run is never read as two single ones. The
// lookbehinds keep the closing run off a space; `[^*]` keeps single
// segments from swallowing a double run.
const SEGMENT = /\*\*(?=\S)([\s\S]*?\S)\*\*(?!\*)|\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)/g;
/** A blank line; captured so `split` keeps it. */
const PARAGRAPH_BREAK = /(\n[ \t]*\n)/;
const IS_PARAGRAPH_BREAK = /^\n[ \t]*\n$/;

function pushText(segments: Segment[], text: string): void {
  if (text === "") return;
  const last = segments.at(-1);
  if (last?.kind === "text") last.text += text;
  else segments.push({ kind: "text", text });
}

/** An opening run at the end of a text with no partner yet: `*draws her sw`. */
const OPEN_AT_END = /(\*\*?)(?=[^\s*])([^*]*)$/;

/**
 * Splits `content` into plain, action (`**…**`) and emote (`*…*`) segments,
 * in order; adjacent plain pieces are merged.
 *
 *     parseSegments('*waves* Hi **bows**') →
 *       [{kind:"emote",text:"waves"}, {kind:"text",text:" Hi "}, {kind:"action",text:"bows"}]
 *
 * With `streaming` (a reply still arriving), a trailing opening run whose
 * partner has not arrived yet already counts as its segment, so the text does
 * not flash a literal asterisk: `'Hi *wav'` → text "Hi ", emote "wav".
 */
export function parseSegments(content: string, { streaming = false }: { streaming?: boolean } = {}): Segment[] {
  const segments: Segment[] = [];
  for (const part of content.split(PARAGRAPH_BREAK)) {
    if (IS_PARAGRAPH_BREAK.test(part)) {
      pushText(segments, part);
      continue;
    }
    let index = 0;
    for (const match of part.matchAll(SEGMENT)) {
      pushText(segments, part.slice(index, match.index));
      if (match[1] !== undefined) segments.push({ kind: "action", text: match[1] });
      else segments.push({ kind: "emote", text: match[2]! });
      index = match.index + match[0].length;
    }
    pushText(segments, part.slice(index));
  }
  if (streaming) closeOpenSegment(segments);
  return segments;
}

function closeOpenSegment(segments: Segment[]): void {
  const last = segments.at(-1);
  if (last?.kind !== "text") return;
  const match = OPEN_AT_END.exec(last.text);
  // A blank line ends any segment (see above).
  if (!match || /\n[ \t]*\n/.test(match[2]!)) return;
  const before = last.text.slice(0, match.index);
  segments.pop();
  pushText(segments, before);
  segments.push({ kind: match[1] === "**" ? "action" : "emote", text: match[2]! });
}

/**
 * The message as one line of plain text for previews: every asterisk
 * removed — a preview is cut short, so an action's closing asterisk is
 * often missing — and whitespace folded.
 */
export function plainText(content: string): string {
  return content.replace(/\*+/g, "").replace(/\s+/g, " ").trim();
}
