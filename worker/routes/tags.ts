/** `/api/tags` — the tag vocabulary (SPEC.md §7), its counts following the NSFW setting (`showNsfw=false`). */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env.ts";
import { listPopularTags } from "../lib/catalog.ts";
import { validate } from "../lib/validate.ts";
import { edgeCache } from "../middleware/edge-cache.ts";

const tagsQuerySchema = z.object({
  popular: z.enum(["true", "false"], { error: 'popular must be "true" or "false"' }).optional(),
  /** "false": counts of non-NSFW characters only (the NSFW switch is off); absent or "true": every listed character. */
  showNsfw: z.enum(["true", "false"], { error: 'showNsfw must be "true" or "false"' }).optional(),
});

export const tagsRoutes = new Hono<AppEnv>().get(
  "/",
  validate("query", tagsQuerySchema),
  edgeCache({ target: () => ({ path: "/api/tags" }), validatedQuery: true }),
  async (c) => {
    // Only popular tags (tags of active characters, by count) are ever listed.
    const tags = await listPopularTags(c.env.DB, undefined, c.req.valid("query").showNsfw !== "false");
    return c.json(tags, 200);
  },
);
