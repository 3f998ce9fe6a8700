/** `/api/characters/:id/favorite` — favorites (SPEC.md §7, issue "Community"). */
import { Hono } from "hono";
import type { FavoriteStatus } from "../../schema/api.ts";
import type { AppEnv } from "../env.ts";
import { findVisibleCharacter, isFavorited, toggleFavorite } from "../lib/community.ts";
import { notFound } from "../lib/errors.ts";
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
    const row = await c.env.DB.prepare("SELECT favorite_count AS favoriteCount FROM characters WHERE id = ?")
      .bind(id)
      .first<{ favoriteCount: number }>();
    return c.json({ isFavorited: favorited, favoriteCount: row?.favoriteCount ?? 0 }, 200);
  });
