/**
 * The label of an expression picture from its file name, as SillyTavern's
 * sprite packs name them (`joy.png`, `Joy_2.webp`, `wren-anger.png`,
 * `03 surprise.gif`): the extension, numbering and separators dropped, lower
 * case; a name that ends in one of SillyTavern's 28 labels gives that label.
 * The studio shows it for the creator to change before uploading.
 */
export const EXPRESSION_LABELS = [
  "admiration", "amusement", "anger", "annoyance", "approval", "caring", "confusion", "curiosity", "desire",
  "disappointment", "disapproval", "disgust", "embarrassment", "excitement", "fear", "gratitude", "grief", "joy",
  "love", "nervousness", "optimism", "pride", "realization", "relief", "remorse", "sadness", "surprise", "neutral",
] as const;

/** Longest label the server takes (schema/inputs.ts MAX_ASSET_NAME_LENGTH). */
const MAX_LABEL = 64;

export function labelFromFileName(fileName: string): string {
  const stem = fileName.replace(/\.[a-z0-9]{1,5}$/i, "");
  const words = stem
    .toLowerCase()
    .split(/[\s_.\-()[\]]+/)
    .filter((word) => word !== "" && !/^\d+$/.test(word));
  const known = [...words].reverse().find((word) => (EXPRESSION_LABELS as readonly string[]).includes(word));
  const label = known ?? words.join(" ");
  return (label || "neutral").slice(0, MAX_LABEL);
}
