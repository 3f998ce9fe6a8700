/**
 * Display formats of SPEC.md §9.
 */

/**
 * Short count for stats: below 1,000 as is ("999"); from 1,000 in thousands
 * with one decimal ("1.0k", "1.2k", "999.9k"); from 1,000,000 in millions with
 * one decimal ("1.0m", "12.5m"). Halves round up (1,250 → "1.3k"). A value that
 * would round to "1000.0k" is shown as "1.0m" instead.
 */
export function formatCount(value: number): string {
  const n = Math.trunc(value);
  if (n < 1000) return String(n);
  // Integer arithmetic in tenths avoids binary-float rounding surprises (1.15 → "1.1").
  const tenthsOfThousands = Math.round(n / 100);
  if (n < 1_000_000 && tenthsOfThousands < 10_000) return `${(tenthsOfThousands / 10).toFixed(1)}k`;
  const tenthsOfMillions = Math.round(n / 100_000);
  return `${(tenthsOfMillions / 10).toFixed(1)}m`;
}

export type RatingTone = "green" | "yellow" | "orange";

/** Rating colour band (SPEC.md §9): 80 and above green, 60 and above yellow, below 60 orange. */
export function ratingTone(rating: number): RatingTone {
  if (rating >= 80) return "green";
  if (rating >= 60) return "yellow";
  return "orange";
}

/** Text colour classes per rating band, readable on the dark surfaces. */
export const RATING_TONE_CLASS: Record<RatingTone, string> = {
  green: "text-emerald-400",
  yellow: "text-yellow-400",
  orange: "text-orange-400",
};

/** Rating as shown: a whole percentage, "87%". */
export function formatRating(rating: number): string {
  return `${Math.round(rating)}%`;
}
