/**
 * `/api/model-connections` — the models a person plugs in (DESIGN.md "Your
 * own model (turn 3)"; rules in worker/lib/model-connections.ts). Only the
 * owner ever sees a connection; someone else's id answers 404. The API key
 * is write-only: no answer carries it (`keyHint`: last four characters).
 *
 * - `GET /` → 200 `ModelConnection[]`, the default first; after a rotation
 *   of MODEL_KEYS_SECRET the person's keys are re-encrypted under the new
 *   secret after the answer (docs/decisions/0018).
 * - `POST /` `{name, kind, baseUrl?, apiKey?, model, settings?, isDefault?}` → 201.
 * - `PUT /:id` (partial) → 200; `DELETE /:id` → 204.
 * - `POST /test` `{baseUrl, apiKey?, id?}` → 200 `{models}`: "Test
 *   connection" lists the endpoint's `/models`; a refused URL or a failing
 *   endpoint → 400 with words for the person (never the key). With `id` and
 *   no `apiKey`, the saved key is sent only to the saved base URL's origin
 *   (another → 400 on `apiKey`); `PUT` moving a keyed connection to another
 *   origin without a new key is refused the same way (docs/decisions/0027).
 * - `GET /site-models` → 200 `{models, default}`: what a `site` connection may name.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { EndpointRefused } from "../../ai/endpoint-guard.ts";
import { endpointFailureText, listEndpointModels, siteModels } from "../../ai/model-connection.ts";
import {
  type ModelConnection,
  modelConnectionInputSchema,
  modelConnectionTestSchema,
  modelConnectionUpdateSchema,
  type ModelList,
  type SiteModels,
} from "../../schema/model-connections.ts";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  assertConnectionTarget,
  assertKeyStaysWithItsAddress,
  CONNECTION_NOT_FOUND,
  createModelConnection,
  deleteModelConnection,
  endpointPolicy,
  findOwnModelConnection,
  listModelConnections,
  ownApiKey,
  parseConnectionId,
  rewrapApiKeys,
  updateModelConnection,
} from "../lib/model-connections.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** Largest body, bytes: a key, a URL, eight stop strings and change. */
const CONNECTION_MAX_BYTES = 8 * 1024;

const connectionBodyLimit = bodyLimit({ maxSize: CONNECTION_MAX_BYTES });

export const modelConnectionsRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    const userId = c.var.user!.id;
    const connections = await listModelConnections(c.env.DB, userId);
    if (c.env.MODEL_KEYS_SECRET_PREVIOUS) {
      await afterResponse(
        c,
        rewrapApiKeys(c.env, userId).catch((error: unknown) => console.error("re-encrypting model keys failed", String(error))),
      );
    }
    c.header("Cache-Control", "private, no-store");
    return c.json(connections satisfies ModelConnection[], 200);
  })
  .get("/site-models", (c) => {
    const models = siteModels(c.env);
    return c.json({ models, default: models[0]! } satisfies SiteModels, 200);
  })
  .post("/", limitWrites("WRITE_RATE_LIMITER"), connectionBodyLimit, validate("json", modelConnectionInputSchema), async (c) => {
    const input = c.req.valid("json");
    assertConnectionTarget(c.env, endpointPolicy(c.env, c.req.url), { kind: input.kind, baseUrl: input.baseUrl ?? null, model: input.model });
    const connection = await createModelConnection(c.env, c.var.user!.id, input);
    return c.json(connection satisfies ModelConnection, 201);
  })
  .post("/test", limitWrites("LOOKUP_RATE_LIMITER"), connectionBodyLimit, validate("json", modelConnectionTestSchema), async (c) => {
    const { baseUrl, apiKey, id } = c.req.valid("json");
    const userId = c.var.user!.id;
    const key = apiKey ? apiKey : id ? await ownApiKey(c.env, userId, parseConnectionId(id), baseUrl) : undefined;
    let models: string[];
    try {
      models = await listEndpointModels({ baseUrl, apiKey: key, policy: endpointPolicy(c.env, c.req.url) });
    } catch (error) {
      const message = error instanceof EndpointRefused ? error.message : endpointFailureText(error);
      if (message === null) throw error;
      throw new ApiError("validation_failed", message, { issues: [{ path: "baseUrl", message }] });
    }
    return c.json({ models } satisfies ModelList, 200);
  })
  .put("/:id", limitWrites("WRITE_RATE_LIMITER"), connectionBodyLimit, validate("json", modelConnectionUpdateSchema), async (c) => {
    const id = parseConnectionId(c.req.param("id"));
    const userId = c.var.user!.id;
    const current = await findOwnModelConnection(c.env.DB, userId, id);
    const patch = c.req.valid("json");
    const kind = patch.kind ?? current.kind;
    const target = { kind, baseUrl: patch.baseUrl !== undefined ? patch.baseUrl : current.baseUrl, model: patch.model ?? current.model };
    // A target left as it was is not checked again (the site's models may have changed since).
    if (patch.kind !== undefined || patch.baseUrl !== undefined || patch.model !== undefined) {
      assertConnectionTarget(c.env, endpointPolicy(c.env, c.req.url), target);
    }
    // The saved key does not follow the connection to another address unless typed again.
    if (kind === "openai" && target.baseUrl && patch.apiKey === undefined) assertKeyStaysWithItsAddress(current, target.baseUrl);
    const updated = await updateModelConnection(c.env, userId, id, patch, kind);
    return c.json(updated satisfies ModelConnection, 200);
  })
  .delete("/:id", limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseConnectionId(c.req.param("id"));
    if (!(await deleteModelConnection(c.env.DB, c.var.user!.id, id))) throw notFound(CONNECTION_NOT_FOUND);
    return c.body(null, 204);
  });
