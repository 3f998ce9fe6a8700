/** `/api/characters` — the catalog (SPEC.md §7; rules in DESIGN.md). */
import { Hono } from "hono";
import { catalogQuerySchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { listCharacters, viewCharacter } from "../lib/catalog.ts";
import { notFound } from "../lib/errors.ts";
import { parseIntegerId } from "../lib/ids.ts";
import { validate } from "../lib/validate.ts";

/** Parses a path id; anything but a positive integer is a 404 (it names no character). */
export const parseCharacterId = (raw: string) => parseIntegerId(raw, "Character");

export const charactersRoutes = new Hono<AppEnv>()
  .get("/", validate("query", catalogQuerySchema), async (c) => {
    const result = await listCharacters(c.env.DB, c.req.valid("query"), { userId: c.get("user")?.id });
    return c.json(result, 200);
  })
  .get("/:id", async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const character = await viewCharacter(c.env.DB, id, c.get("user")?.id);
    if (!character) throw notFound("Character not found");
    return c.json(character, 200);
  });
