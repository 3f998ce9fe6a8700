/**
 * Two projects: `worker` runs in the Workers runtime (workerd through
 * @cloudflare/vitest-plugin) against real D1, R2 and Durable Objects with the
 * project's own migrations; `web` runs the React app's unit tests in Node.
 * Browser tests are separate (npm run test:e2e).
 */
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, defineProject } from "vitest/config";

const migrationsDir = fileURLToPath(new URL("./migrations", import.meta.url));

// A VAPID key pair for the tests' pushes (RFC 8292), made afresh each run: the public key as
// browsers take it (uncompressed P-256 point) and the private scalar, both base64url.
const vapid = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ format: "jwk" });
const vapidPublicKey = Buffer.concat([Buffer.from([4]), Buffer.from(vapid.x!, "base64url"), Buffer.from(vapid.y!, "base64url")]).toString("base64url");

export default defineConfig({
  test: {
    projects: [
      defineProject({
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            // Workers AI is remote-only; tests never reach Cloudflare.
            remoteBindings: false,
            miniflare: {
              // The SPA shell the Worker writes link previews into (worker/routes/share.ts):
              // the source index.html, so tests need no web build.
              assets: { directory: "./web", binding: "ASSETS" },
              bindings: {
                ENVIRONMENT: "test",
                AI_PROVIDER: "offline",
                // The offline screen (ai/moderation/): a stand-in, not real moderation.
                MODERATION_PROVIDER: "offline",
                // eSpeak NG inside the Worker (ai/speech/offline-speech.ts); no speech to text
                // (worker/test/voices.test.ts passes an env with one where it needs it).
                SPEECH_PROVIDER: "offline",
                TRANSCRIPTION_PROVIDER: "",
                // Feature hashing in the room (ai/embeddings/offline.ts).
                EMBEDDING_PROVIDER: "offline",
                // The painter inside the Worker (ai/images/offline-painter.ts).
                IMAGE_PROVIDER: "offline",
                TEST_MIGRATIONS: await readD1Migrations(migrationsDir),
                // The loopback OpenID provider of worker/test/oidc-server.ts.
                AUTH_ISSUER: inject("oidcIssuer"),
                AUTH_CLIENT_ID: "fabled-test",
                AUTH_CLIENT_SECRET: "fabled-test-secret",
                // The loopback OpenAI-compatible server of worker/test/openai-server.ts.
                OPENAI_BASE_URL: inject("openaiBaseUrl"),
                OPENAI_API_KEY: "test-key",
                // Its second origin, which records whether a redirected request carried the key.
                TEST_OTHER_ORIGIN: inject("openaiOtherOrigin"),
                // The offline chat model writes a word every 5 ms: replies take ~0.2 s.
                OFFLINE_WORD_DELAY_MS: "5",
                // The visitors' edge cache is off (bound 0 s): tests write straight to D1, where no
                // purge sees it. worker/test/edge-cache.test.ts turns it on with its own bound.
                EDGE_CACHE_TTL_SECONDS: "0",
                // The loopback Cloudflare API of worker/test/cloudflare-api-server.ts (cache purge).
                CLOUDFLARE_API_BASE_URL: inject("cloudflareApiBase"),
                // Web Push (durable-objects/inbox/push.ts) to the loopback push service of worker/test/push-service.ts.
                VAPID_PUBLIC_KEY: vapidPublicKey,
                VAPID_PRIVATE_KEY: vapid.d!,
                VAPID_SUBJECT: "mailto:tests@fabled.example",
              },
              // The views queue runs locally as wrangler.toml declares it, but
              // delivers a partial batch after 1 s instead of 10 and retries
              // at once, so tests wait on counts for about a second.
              queueConsumers: {
                "fabled-views": { maxBatchSize: 100, maxBatchTimeout: 1, maxRetries: 10, retryDelay: 0 },
                // A new character's fan-out to followers (worker/lib/notifications/fan-out.ts).
                "fabled-notifications": { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 5, retryDelay: 0 },
              },
            },
          })),
        ],
        test: {
          name: "worker",
          // One runtime for every test file (docs/decisions/0023): starting workerd for each of
          // ~65 files cost about 4 minutes of a 10-minute `npm test`. Files therefore share D1, R2
          // and Durable Object storage, one file after another: a test counts only its own rows.
          isolate: false,
          include: ["worker/**/*.test.ts", "durable-objects/**/*.test.ts", "ai/**/*.test.ts"],
          // Some tests are heavy by design (50 requests at once, every filter combination, a 4 MB
          // card): a few seconds alone, more on a busy 2-core machine where `npm test` runs the
          // browser tests beside them. The timeout is there to catch a hang, not to time them.
          testTimeout: 30_000,
          setupFiles: ["./worker/test/apply-migrations.ts"],
          globalSetup: ["./worker/test/oidc-server.ts", "./worker/test/openai-server.ts", "./worker/test/cloudflare-api-server.ts", "./worker/test/push-service.ts"],
        },
      }),
      defineProject({
        test: {
          name: "web",
          environment: "node",
          include: ["web/**/*.test.{ts,tsx}", "schema/**/*.test.ts", "scripts/**/*.test.ts"],
        },
      }),
    ],
  },
});
