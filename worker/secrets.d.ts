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
}

interface Env extends SecretEnv {}

declare namespace Cloudflare {
  interface Env extends SecretEnv {}
}
