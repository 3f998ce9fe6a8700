declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** The second origin of worker/test/openai-server.ts (records what reaches it). */
    TEST_OTHER_ORIGIN: string;
  }
}
