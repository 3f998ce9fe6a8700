// Secrets are set with `wrangler secret put` (locally: `.dev.vars`), so
// `wrangler types` cannot see them in wrangler.toml. They are declared here,
// merged into both the global `Env` (Hono's bindings, worker/env.ts) and
// `Cloudflare.Env` (`env` from "cloudflare:workers"). Optional: a public
// OpenID client (PKCE only) has no secret.
interface Env {
  /** OAuth client secret of the OpenID Connect provider (README.md "Sign-in"). */
  AUTH_CLIENT_SECRET?: string;
}

declare namespace Cloudflare {
  interface Env {
    AUTH_CLIENT_SECRET?: string;
  }
}
