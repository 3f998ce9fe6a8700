/**
 * A character's rating (0–100) from the thumbs people gave its chat replies
 * (DESIGN.md "Rating"): round(100 × (up + 8) / (up + down + 10)), a Bayesian
 * average with a prior of 8 thumbs up in 10 (80 %), so a new character
 * starts at 80 and a few thumbs move it little.
 *
 * D1 applies the same formula in the statement that moves the thumbs
 * (durable-objects/room/d1-sync.ts addReplyRating: `characters.rating` is written
 * with `rating_up`/`rating_down`); the seeders use this function.
 * worker/test/rating.test.ts checks that the two agree, halves included
 * (both round them up: the values are never negative).
 */

/** Thumbs up in the prior. */
export const RATING_PRIOR_UP = 8;
/** Thumbs in the prior (up and down). */
export const RATING_PRIOR_THUMBS = 10;

/** The rating (integer percent, 0–100) of `up` thumbs up and `down` thumbs down (each ≥ 0). */
export function ratingFromThumbs(up: number, down: number): number {
  return Math.round((100 * (up + RATING_PRIOR_UP)) / (up + down + RATING_PRIOR_THUMBS));
}
