// Env values that `wrangler types` cannot see in wrangler.toml — secrets, set
// with `wrangler secret put NAME` (locally: `.dev.vars`), and settings only
// tests and the benchmark set — declared once here (README.md
// "Configuration"). Merged into both the global `Env` (Hono's bindings,
// worker/env.ts; the Durable Object's `this.env`) and `Cloudflare.Env` (`env`
// from "cloudflare:workers"). All optional: each has a documented behaviour
// when it is not set.
interface SecretEnv {
  /** OAuth client secret of the OpenID Connect provider (README.md "Sign-in"); absent for a public client (PKCE only). */
  AUTH_CLIENT_SECRET?: string;
  /** Key of the OpenAI-compatible endpoint (`AI_PROVIDER = "openai"`). */
  OPENAI_API_KEY?: string;
  /** Key of `MODERATION_BASE_URL` (`MODERATION_PROVIDER = "openai"`); absent: `OPENAI_API_KEY`. */
  MODERATION_API_KEY?: string;
  /** Offline model's pause between words, ms (default 25; tests and the benchmark set it). */
  OFFLINE_WORD_DELAY_MS?: string;
  /** R2 API token's access key id, for presigned PUT URLs on `R2_S3_ENDPOINT`; without it, uploads go through the Worker. */
  R2_ACCESS_KEY_ID?: string;
  /** R2 API token's secret access key. */
  R2_SECRET_ACCESS_KEY?: string;
  /**
   * HMAC secret of Worker upload tokens (README.md "Avatars and uploads");
   * without it, only development and test runs may sign them (with a fixed
   * development secret).
   */
  UPLOAD_TOKEN_SECRET?: string;
  /**
   * Staleness bound of the visitors' edge cache, seconds (default 30;
   * worker/lib/edge-cache.ts). Tests and the benchmark set it.
   */
  EDGE_CACHE_TTL_SECONDS?: string;
  /**
   * Zone id and API token (permission Zone › Cache Purge) for purging a
   * changed character's cached page in every data center; without them a
   * change purges the data center it was made in, and other copies expire
   * within the bound (docs/decisions/0010-edge-cache-and-latency.md).
   */
  CACHE_PURGE_ZONE_ID?: string;
  CACHE_PURGE_API_TOKEN?: string;
  /**
   * Secret the API keys of people's model connections are encrypted under
   * (AES-GCM, ai/model-keys.ts). Without it, development and test runs use a
   * fixed development secret; a deployment refuses to store keys (503).
   */
  MODEL_KEYS_SECRET?: string;
  /** The secret before the last rotation: keys written under it still decrypt (docs/decisions/0018). */
  MODEL_KEYS_SECRET_PREVIOUS?: string;
  /** The operator's models a person may pick ("this site's models"), comma-separated; empty: AI_MODEL only. */
  AI_MODELS?: string;
  /** Base of Cloudflare's API for the purge (default https://api.cloudflare.com/client/v4; tests use a local stub). */
  CLOUDFLARE_API_BASE_URL?: string;
}

interface Env extends SecretEnv {}

declare namespace Cloudflare {
  interface Env extends SecretEnv {}
}
