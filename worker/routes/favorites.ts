/**
 * `/api/characters/:id/favorite` — favorites (SPEC.md §7, issue "Community"),
 * and `/api/favorites` — the person's Favorites page (issue 16).
 */
import { Hono } from "hono";
import type { CharacterListResponse, FavoriteStatus } from "../../schema/api.ts";
import { favoritesQuerySchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { listFavorites } from "../lib/creators.ts";
import { validate } from "../lib/validate.ts";
import { favoriteCount, findVisibleCharacter, isFavorited, toggleFavorite } from "../lib/community.ts";
import { afterResponse } from "../lib/after-response.ts";
import { notFound } from "../lib/errors.ts";
import { favoriteCounted } from "../lib/notifications/producers.ts";
import { parseCharacterId } from "../lib/ids.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

export const favoritesRoutes = new Hono<AppEnv>()
  .get("/:id/favorite", requireUser, async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const user = c.get("user")!;
    if (!(await findVisibleCharacter(c.env.DB, id, user.id))) throw notFound("Character not found");
    return c.json({ isFavorited: await isFavorited(c.env.DB, id, user.id) } satisfies FavoriteStatus, 200);
  })
  .post("/:id/favorite", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const user = c.get("user")!;
    if (!(await findVisibleCharacter(c.env.DB, id, user.id))) throw notFound("Character not found");
    const favorited = await toggleFavorite(c.env.DB, id, user.id);
    const count = await favoriteCount(c.env.DB, id);
    // At 10, 100, 1,000 … the creator is told once (worker/lib/notifications/producers.ts).
    if (favorited) await afterResponse(c, favoriteCounted(c.env, id, count, user.id));
    return c.json({ isFavorited: favorited, favoriteCount: count }, 200);
  });

/**
 * `GET /api/favorites?limit=&offset=&showNsfw=`: the signed-in person's
 * favorited characters, newest favorite first, as `GET /api/characters`
 * answers (`{characters, total}`, each with `isFavorited: true`); rules in
 * worker/lib/creators.ts. 401 for visitors; personal, never cached.
 */
export const favoritesListRoutes = new Hono<AppEnv>().get("/", requireUser, validate("query", favoritesQuerySchema), async (c) => {
  const result = await listFavorites(c.env.DB, c.var.user.id, c.req.valid("query"));
  c.header("Cache-Control", "private, no-store");
  return c.json(result satisfies CharacterListResponse, 200);
});
