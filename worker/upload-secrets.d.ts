// Secrets of avatar uploads (worker/lib/uploads.ts), set with `wrangler secret
// put` and therefore invisible to `wrangler types`; merged into the global
// `Env` (Hono's bindings) and `Cloudflare.Env` (`env` from "cloudflare:workers")
// like worker/secrets.d.ts. All optional: without the R2 API token, uploads go
// through the Worker; without UPLOAD_TOKEN_SECRET, only development and test
// runs may sign Worker upload tokens (with a fixed development secret).
interface Env {
  /** R2 API token's access key id, for presigned PUT URLs on `R2_S3_ENDPOINT`. */
  R2_ACCESS_KEY_ID?: string;
  /** R2 API token's secret access key. */
  R2_SECRET_ACCESS_KEY?: string;
  /** HMAC secret of Worker upload tokens (README.md "Avatars and uploads"). */
  UPLOAD_TOKEN_SECRET?: string;
}

declare namespace Cloudflare {
  interface Env {
    R2_ACCESS_KEY_ID?: string;
    R2_SECRET_ACCESS_KEY?: string;
    UPLOAD_TOKEN_SECRET?: string;
  }
}
