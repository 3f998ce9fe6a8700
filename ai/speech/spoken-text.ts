/**
 * What of a reply is read aloud, and in what pieces
 * (docs/decisions/0022-voices.md):
 *
 * - Markdown is read as the chat shows it, not as its marks: emphasis,
 *   headings, quotes and list markers are dropped; a link reads as its
 *   words; images, HTML tags and code blocks are not read.
 * - `*actions*` (the roleplay convention of SillyTavern and Character.AI:
 *   narration between single asterisks) are skipped, so a voice speaks the
 *   character's words, not its stage directions — unless the reply is
 *   nothing but actions, which are then read as narration (a play button
 *   never plays silence).
 * - Each line ends as a sentence, so the engine pauses between paragraphs.
 */

/** The words to speak of `markdown` (a chat message as shown); "" when there are none. */
export function spokenText(markdown: string): string {
  let text = markdown
    .replace(/```[\s\S]*?(```|$)/g, "\n") // fenced code
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "") // images
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1") // links: their words
    .replace(/<[^>\n]+>/g, "") // HTML tags
    .replace(/`([^`\n]*)`/g, "$1")
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, "") // headings, quotes, list markers
    .replace(/^\s*([-*_]\s*){3,}$/gm, "") // rules
    .replace(/(\*\*|__)(.+?)\1/g, "$2"); // bold
  const actions = /(?<![*\w])\*(?!\s)([^*\n]+?)\*(?![*\w])/g;
  const withoutActions = text.replace(actions, " ");
  text = /\p{L}|\p{N}/u.test(withoutActions) ? withoutActions : text.replace(actions, "$1");
  return text
    .replace(/(?<!\w)_(\S[^_\n]*?)_(?!\w)/g, "$1") // underscore italics
    .replace(/[*_~]+/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => /\p{L}|\p{N}/u.test(line))
    .map((line) => (/[.!?…:;,"'”’)]$/.test(line) ? line : `${line}.`))
    .join("\n");
}

/**
 * `text` cut into pieces of at most `maxChars` characters for an engine
 * with that limit: whole sentences packed together; a longer sentence at
 * its commas, then at spaces; a word longer than the limit, cut.
 */
export function speechChunks(text: string, maxChars: number): string[] {
  const sentences = text.match(/[^.!?…\n]+(?:[.!?…]+["'”’)]*|\n|$)/g)?.map((s) => s.trim()).filter(Boolean) ?? [];
  const pieces: string[] = [];
  const split = (part: string, separator: RegExp): string[] => {
    if (part.length <= maxChars) return [part];
    const words = part.split(separator).filter(Boolean);
    if (words.length <= 1) {
      const cuts: string[] = [];
      for (let at = 0; at < part.length; at += maxChars) cuts.push(part.slice(at, at + maxChars));
      return cuts;
    }
    return words.flatMap((word) => split(word.trim(), SPACE)).filter(Boolean);
  };
  let current = "";
  for (const sentence of sentences.flatMap((s) => (s.length <= maxChars ? [s] : split(s, COMMA)))) {
    const joined = current ? `${current} ${sentence}` : sentence;
    if (joined.length <= maxChars) current = joined;
    else {
      if (current) pieces.push(current);
      current = sentence;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

const COMMA = /(?<=,)\s+/;
const SPACE = /\s+/;

/**
 * `text` (spoken words, spokenText) cut to at most `maxChars` characters
 * at the end of a sentence — the last one that fits — so the voice stops
 * where a reader would; when not even the first sentence fits, at a space,
 * else at `maxChars` itself. `cut` says whether anything was left out.
 */
export function cutAtSentence(text: string, maxChars: number): { text: string; cut: boolean } {
  if (text.length <= maxChars) return { text, cut: false };
  const head = text.slice(0, maxChars + 1);
  let end = -1;
  for (const match of head.matchAll(/[.!?…]+["'”’)]*(?=\s)|\n/g)) {
    const at = match.index + (match[0] === "\n" ? 0 : match[0].length);
    if (at <= maxChars) end = at;
  }
  if (end <= 0) end = head.lastIndexOf(" ", maxChars);
  if (end <= 0) end = maxChars;
  return { text: text.slice(0, end).trim(), cut: true };
}
