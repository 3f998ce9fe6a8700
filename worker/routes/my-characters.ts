/** `GET /api/my-characters` — the signed-in person's own characters (SPEC.md §2 "My Characters"). */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { listOwnCharacters } from "../lib/characters.ts";
import { requireUser } from "../middleware/session.ts";

export const myCharactersRoutes = new Hono<AppEnv>().get("/", requireUser, async (c) => {
  return c.json(await listOwnCharacters(c.env.DB, c.get("user")!.id), 200);
});
