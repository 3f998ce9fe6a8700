/**
 * The rating formula has one definition in SQL (the statement of
 * durable-objects/room/d1-sync.ts addReplyRating) and one in TypeScript
 * (worker/lib/rating.ts ratingFromThumbs, used by the seeders). These tests
 * check that the two agree over a grid of thumbs, exact halves included, as
 * worker/test/trending.test.ts does for the trending score.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addReplyRating } from "../../durable-objects/room/d1-sync.ts";
import { ratingFromThumbs, RATING_PRIOR_THUMBS, RATING_PRIOR_UP } from "../lib/rating.ts";
import { insertCharacter } from "./fixtures.ts";

/** Most thumbs up, and down, of the grid. */
const GRID = 12;

/** Whether the formula's exact value at (up, down) ends in .5 (where rounding rules differ). */
const isHalf = (up: number, down: number) =>
  (200 * (up + RATING_PRIOR_UP)) % (up + down + RATING_PRIOR_THUMBS) === 0 &&
  (100 * (up + RATING_PRIOR_UP)) % (up + down + RATING_PRIOR_THUMBS) !== 0;

describe("rating: SQL and TypeScript agree", () => {
  it("a new character starts at the prior, 80", async () => {
    const id = await insertCharacter();
    const row = await env.DB.prepare("SELECT rating FROM characters WHERE id = ?").bind(id).first<{ rating: number }>();
    expect(row!.rating).toBe(80);
    expect(ratingFromThumbs(0, 0)).toBe(80);
  });

  it(`every thumb up or down that lands on (up, down) ≤ ${GRID} stores ratingFromThumbs(up, down)`, async () => {
    const id = await insertCharacter();
    const mismatches: string[] = [];
    let halves = 0;
    for (let up = 0; up <= GRID; up++) {
      for (let down = 0; down <= GRID; down++) {
        if (up === 0 && down === 0) continue;
        if (isHalf(up, down)) halves += 1;
        // One step onto (up, down), as a person's thumb moves it: from one fewer up, else one fewer down.
        const step = up > 0 ? { up: 1, down: 0 } : { up: 0, down: 1 };
        await env.DB.prepare("UPDATE characters SET rating_up = ?, rating_down = ? WHERE id = ?")
          .bind(up - step.up, down - step.down, id)
          .run();
        await addReplyRating(env.DB, id, step);
        const row = await env.DB.prepare("SELECT rating, rating_up AS up, rating_down AS down FROM characters WHERE id = ?")
          .bind(id)
          .first<{ rating: number; up: number; down: number }>();
        expect(row).toMatchObject({ up, down });
        if (row!.rating !== ratingFromThumbs(up, down)) mismatches.push(`(${up}, ${down}): SQL ${row!.rating}, TS ${ratingFromThumbs(up, down)}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The grid holds exact halves (up 2, down 4: 62.5), where a rounding difference would show.
    expect(halves).toBeGreaterThan(0);
    expect(isHalf(2, 4)).toBe(true);
    expect(ratingFromThumbs(2, 4)).toBe(63);
  }, 30_000);
});
