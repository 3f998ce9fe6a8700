/**
 * `/api/personas` — who the signed-in person is in chats (issue "Chat people
 * can steer"; rules in worker/lib/personas.ts). Only the owner ever sees a
 * persona: someone else's id answers 404 like an unknown one.
 *
 * - `GET /` → 200 `Persona[]`, the default first, then oldest first.
 * - `POST /` `{name, description?, avatarUrl?, isDefault?}` → 201 `Persona`;
 *   409 "You can keep at most 20 personas".
 * - `PUT /:id` (any of those fields, at least one) → 200 `Persona`.
 * - `DELETE /:id` → 200 `{deleted: true}`.
 * A replaced or deleted persona's uploaded avatar is deleted from R2 after
 * the answer, unless something else of the person still shows it. Someone
 * else's upload is refused as an avatar (400, `assertOwnPicture`).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Persona } from "../../schema/api.ts";
import { personaInputSchema, personaUpdateSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import { notFound } from "../lib/errors.ts";
import {
  createPersona,
  deletePersona,
  findOwnPersona,
  listPersonas,
  PERSONA_NOT_FOUND,
  parsePersonaId,
  updatePersona,
} from "../lib/personas.ts";
import { screenWrite, TEXT_OF } from "../lib/screening.ts";
import { assertOwnPicture, deleteUnusedAvatar } from "../lib/uploads.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** Largest persona body, bytes: 2,000 characters of description (up to 4 bytes each) and change. */
const PERSONA_MAX_BYTES = 16 * 1024;

const personaBodyLimit = bodyLimit({ maxSize: PERSONA_MAX_BYTES });

export const personasRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    const personas = await listPersonas(c.env.DB, c.var.user.id);
    c.header("Cache-Control", "private, no-store");
    return c.json(personas satisfies Persona[], 200);
  })
  .post("/", limitWrites("WRITE_RATE_LIMITER"), personaBodyLimit, validate("json", personaInputSchema), async (c) => {
    const input = c.req.valid("json");
    assertOwnPicture(input.avatarUrl, c.var.user.id, "avatarUrl");
    // A persona's name and description enter every prompt of the person's chats (issue 21).
    await screenWrite(c.env, { subjectType: "persona", text: TEXT_OF.persona(input), nsfw: false, who: { userId: c.var.user.id } });
    const persona = await createPersona(c.env.DB, c.var.user.id, input);
    return c.json(persona satisfies Persona, 201);
  })
  .put("/:id", limitWrites("WRITE_RATE_LIMITER"), personaBodyLimit, validate("json", personaUpdateSchema), async (c) => {
    const id = parsePersonaId(c.req.param("id"));
    const user = c.var.user;
    const current = await findOwnPersona(c.env.DB, user.id, id);
    const patch = c.req.valid("json");
    if (patch.avatarUrl !== undefined && patch.avatarUrl !== current.avatarUrl) assertOwnPicture(patch.avatarUrl, user.id, "avatarUrl");
    await screenWrite(c.env, { subjectType: "persona", text: TEXT_OF.persona(patch), nsfw: false, who: { userId: user.id, subjectId: id } });
    const updated = await updatePersona(c.env.DB, user.id, id, patch);
    if (updated.avatarUrl !== current.avatarUrl) await afterResponse(c, deleteUnusedAvatar(c.env, current.avatarUrl, user.id));
    return c.json(updated satisfies Persona, 200);
  })
  .delete("/:id", limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parsePersonaId(c.req.param("id"));
    const user = c.var.user;
    const deleted = await deletePersona(c.env.DB, user.id, id);
    if (!deleted) throw notFound(PERSONA_NOT_FOUND);
    await afterResponse(c, deleteUnusedAvatar(c.env, deleted.avatarUrl, user.id));
    return c.json({ deleted: true }, 200);
  });
