/** Hono bindings of the Worker: `Env` comes from `wrangler types` (worker/worker-configuration.d.ts). */
export type AppEnv = { Bindings: Env };
