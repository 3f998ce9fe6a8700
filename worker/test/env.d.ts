declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** The second origin of worker/test/openai-server.ts (records what reaches it). */
    TEST_OTHER_ORIGIN: string;
  }
}

/**
 * Vite's `import.meta.glob` (tests run through Vite in the Workers pool),
 * as the one test that uses it calls it: eager, so each match is its module.
 * The whole of `vite/client` is not referenced: its asset declarations are
 * the web app's, not the Worker's.
 */
interface ImportMeta {
  glob<T = Record<string, unknown>>(pattern: string, options: { eager: true }): Record<string, T>;
}
