// Chat model settings that `wrangler types` cannot see (README.md "Chat"):
// merged into the global `Env` (Hono's bindings, worker/env.ts) and
// `Cloudflare.Env` (`env` from "cloudflare:workers") like worker/secrets.d.ts.
interface Env {
  /** Secret: key of the OpenAI-compatible endpoint (`AI_PROVIDER = "openai"`). */
  OPENAI_API_KEY?: string;
  /** Offline model's pause between words, ms (default 25; tests and the benchmark set it). */
  OFFLINE_WORD_DELAY_MS?: string;
}

declare namespace Cloudflare {
  interface Env {
    OPENAI_API_KEY?: string;
    OFFLINE_WORD_DELAY_MS?: string;
  }
}
