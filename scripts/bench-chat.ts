/**
 * `npm run bench:chat -- --conversations N`: real-time chat under load.
 *
 * Starts the app with `wrangler dev --local` and the offline chat model on a
 * fresh database of its own (.bench/chat-state: demo catalog, plus N people
 * with sessions written straight into the local D1 file — only the SHA-256
 * of each session token is stored, as worker/lib/sessions.ts does), creates
 * one conversation per person through the API, opens N WebSockets at once
 * (`/ws?conversationId=…`, as the web client does; `--bare` for bare `/ws` +
 * `join`), joins, then sends one `chat_message` on each and measures, per
 * conversation, from the send to
 *   - the first `character_response_delta` (first token), and
 *   - the final `character_response`,
 * and counts messages lost (no `message_saved`, no reply, or not stored) and
 * duplicated (a second `message_saved` or reply, or extra stored messages),
 * checking every conversation's stored messages through the API afterwards.
 *
 * Flags: --conversations N (default 100), --spread-ms S (sends spread evenly
 * over S ms; default 0 = all at once), --word-delay-ms D (offline model's
 * pace, default 25), --port P (default: a free one), --bare.
 * Target of the issue: N = 1,000 with p95 first delta ≤ 50 ms, 0 lost, 0 duplicated.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemo } from "./lib/seed.ts";
import { localD1File, migrateLocal, ROOT, toolEnv } from "./lib/tools.ts";

const { values } = parseArgs({
  options: {
    conversations: { type: "string", default: "100" },
    "spread-ms": { type: "string", default: "0" },
    "word-delay-ms": { type: "string", default: "25" },
    port: { type: "string" },
    bare: { type: "boolean", default: false },
  },
});
const count = Number(values.conversations);
const spreadMs = Number(values["spread-ms"]);
if (!Number.isInteger(count) || count < 1) throw new Error("--conversations must be a positive integer");

/** A port nobody listens on (other local servers, e.g. browser-test runs, must not answer for us). */
async function freePort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return String(port);
}
const port = values.port ?? (await freePort());

const base = `http://127.0.0.1:${port}`;
const origin = base;
const stateDir = join(ROOT, ".bench", "chat-state");

interface Person {
  id: string;
  cookie: string;
}

/** Fresh state: migrations, the demo catalog, and `count` people with sessions. */
async function prepare(): Promise<{ people: Person[]; characterIds: number[] }> {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  await migrateLocal(stateDir);
  const dbFile = localD1File(stateDir)!;
  seedDemo(dbFile);
  const db = new DatabaseSync(dbFile);
  const people: Person[] = [];
  const expire = Date.now() + 24 * 60 * 60 * 1000 * 30;
  db.exec("BEGIN");
  const insertUser = db.prepare("INSERT INTO users (id, email, first_name, name, username) VALUES (?, ?, ?, ?, ?)");
  const insertSession = db.prepare("INSERT INTO sessions (sid, sess, expire) VALUES (?, ?, ?)");
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const token = randomBytes(32).toString("base64url");
    insertUser.run(id, `bench-${i}@bench.fabled.local`, `Bench${i}`, `Bench ${i}`, `@bench_${i}`);
    insertSession.run(createHash("sha256").update(token).digest("hex"), JSON.stringify({ userId: id }), expire);
    people.push({ id, cookie: `fabled_session=${token}` });
  }
  db.exec("COMMIT");
  const characterIds = (db.prepare("SELECT id FROM characters WHERE is_active = 1 ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  db.close();
  return { people, characterIds };
}

async function assertNobodyListens(): Promise<void> {
  const answered = await fetch(`${base}/`).then(
    () => true,
    () => false,
  );
  if (answered) throw new Error(`something already answers on ${base}; pick another --port`);
}

async function waitForServer(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("wrangler dev exited early");
    try {
      if ((await fetch(`${base}/api/tags?popular=true`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("wrangler dev did not start within 120 s");
}

/** Runs `task` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}

async function api<T>(path: string, person: Person, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: { cookie: person.cookie, origin, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Run {
  conversationId: string;
  clientId: string;
  ws: WebSocket;
  joined: Promise<void>;
  sentAt: number;
  savedAt: number | null;
  firstDeltaAt: number | null;
  responseAt: number | null;
  saved: number;
  responses: number;
  errors: string[];
  done: Promise<void>;
}

function open(person: Person, conversationId: string): Promise<Run> {
  const url = values.bare ? `ws://127.0.0.1:${port}/ws` : `ws://127.0.0.1:${port}/ws?conversationId=${conversationId}`;
  // Node's WebSocket (undici) takes headers — the browser's cookie and Origin —
  // though the DOM typings know only the protocols argument.
  const ws = new WebSocket(url, { headers: { cookie: person.cookie, origin } } as unknown as string[]);
  return new Promise((resolve, reject) => {
    let joinedResolve!: () => void;
    let doneResolve!: () => void;
    const run: Run = {
      conversationId,
      clientId: randomUUID(),
      ws,
      joined: new Promise((r) => (joinedResolve = r)),
      sentAt: 0,
      savedAt: null,
      firstDeltaAt: null,
      responseAt: null,
      saved: 0,
      responses: 0,
      errors: [],
      done: new Promise((r) => (doneResolve = r)),
    };
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "join", conversationId }));
      resolve(run);
    });
    ws.addEventListener("error", () => reject(new Error(`WebSocket to ${conversationId} failed`)));
    ws.addEventListener("message", (event) => {
      const now = performance.now();
      const frame = JSON.parse(String(event.data)) as { type: string; clientId?: string | null; message?: string };
      switch (frame.type) {
        case "history_sync":
          joinedResolve();
          break;
        case "message_saved":
          if (frame.clientId === run.clientId) {
            run.saved += 1;
            run.savedAt ??= now;
          }
          break;
        case "character_response_delta":
          if (run.sentAt && run.firstDeltaAt === null) run.firstDeltaAt = now;
          break;
        case "character_response":
          run.responses += 1;
          run.responseAt ??= now;
          doneResolve();
          break;
        case "error":
          run.errors.push(frame.message ?? "?");
          doneResolve();
          break;
      }
    });
    ws.addEventListener("close", (event) => {
      if (run.responseAt === null) run.errors.push(`closed ${event.code} ${event.reason}`);
      doneResolve();
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

await assertNobodyListens();
const { people, characterIds } = await prepare();
console.log(`${count} people with sessions; ${characterIds.length} demo characters`);
const server = spawn("wrangler", devArgs(port, stateDir, { OFFLINE_WORD_DELAY_MS: values["word-delay-ms"] }), {
  cwd: ROOT,
  env: toolEnv(),
  stdio: ["ignore", "ignore", "pipe"],
});
let serverErrors = "";
server.stderr?.on("data", (chunk: Buffer) => {
  serverErrors = (serverErrors + chunk.toString()).slice(-4000);
});

try {
  await waitForServer(server);
  let t = performance.now();
  const conversations = await pool(people, 16, (person, i) =>
    api<{ id: string }>("/api/conversations", person, {
      method: "POST",
      body: { characterId: characterIds[i % characterIds.length] },
    }),
  );
  console.log(`created ${count} conversations in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  t = performance.now();
  const runs = await pool(people, 64, (person, i) => open(person, conversations[i]!.id));
  await Promise.all(runs.map((r) => r.joined));
  console.log(`opened and joined ${count} WebSockets in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Send: all at once, or spread evenly over --spread-ms.
  const sendStart = performance.now();
  await Promise.all(
    runs.map(async (run, i) => {
      if (spreadMs > 0) await new Promise((r) => setTimeout(r, (spreadMs * i) / count));
      run.sentAt = performance.now();
      run.ws.send(
        JSON.stringify({
          type: "chat_message",
          conversationId: run.conversationId,
          content: `Hello! This is bench message ${i}. Tell me about your day.`,
          isUser: true,
          clientId: run.clientId,
        }),
      );
    }),
  );
  await Promise.race([Promise.all(runs.map((r) => r.done)), new Promise((r) => setTimeout(r, 120_000))]);
  const wall = performance.now() - sendStart;
  // Let late duplicates show up, if any.
  await new Promise((r) => setTimeout(r, 500));
  for (const run of runs) run.ws.close(1000, "bench done");

  // Stored state: greeting + the message + the reply, each exactly once.
  const stored = await pool(runs, 16, async (run, i) => {
    const messages = await api<{ isUser: boolean; clientId: string | null }[]>(`/api/conversations/${run.conversationId}/messages`, people[i]!);
    const mine = messages.filter((m) => m.clientId === run.clientId).length;
    const replies = messages.filter((m) => !m.isUser).length - 1; // minus the greeting
    return { mine, replies };
  });

  let lost = 0;
  let duplicated = 0;
  let failed = 0;
  runs.forEach((run, i) => {
    const s = stored[i]!;
    if (run.saved === 0 || run.responses === 0 || s.mine === 0 || s.replies === 0) lost += 1;
    if (run.saved > 1 || run.responses > 1 || s.mine > 1 || s.replies > 1) duplicated += 1;
    if (run.errors.length > 0) failed += 1;
  });
  const saved = runs.filter((r) => r.savedAt !== null).map((r) => r.savedAt! - r.sentAt).sort((a, b) => a - b);
  const first = runs.filter((r) => r.firstDeltaAt !== null).map((r) => r.firstDeltaAt! - r.sentAt).sort((a, b) => a - b);
  const full = runs.filter((r) => r.responseAt !== null).map((r) => r.responseAt! - r.sentAt).sort((a, b) => a - b);
  const row = (label: string, xs: number[]) =>
    `| ${label.padEnd(32)} | ${percentile(xs, 50).toFixed(1).padStart(8)} | ${percentile(xs, 95).toFixed(1).padStart(8)} | ${(xs.at(-1) ?? Number.NaN).toFixed(1).padStart(8)} |`;

  console.log(
    `\nN = ${count.toLocaleString("en-US")} concurrent conversations (${values.bare ? "bare /ws + join" : "/ws?conversationId="}), ` +
      `sends ${spreadMs > 0 ? `spread over ${spreadMs} ms` : "all at once"}, offline model at ${values["word-delay-ms"]} ms/word\n`,
  );
  console.log(`| ${"ms from chat_message sent".padEnd(32)} |      p50 |      p95 |      max |`);
  console.log(`|${"-".repeat(34)}|---------:|---------:|---------:|`);
  console.log(row("to message_saved", saved));
  console.log(row("to first character_response_delta", first));
  console.log(row("to character_response", full));
  console.log(
    `\nreplies: ${full.length}/${count}; errors: ${failed}; lost: ${lost}; duplicated: ${duplicated}; ` +
      `all replies done in ${(wall / 1000).toFixed(1)} s`,
  );
  const ok = lost === 0 && duplicated === 0 && percentile(first, 95) <= 50;
  console.log(`target (p95 first delta ≤ 50 ms, 0 lost, 0 duplicated): ${ok ? "met" : "NOT met"}`);
  if (failed > 0) console.log(`first error: ${runs.find((r) => r.errors.length > 0)?.errors[0]}`);
  process.exitCode = lost === 0 && duplicated === 0 ? 0 : 1;
} catch (error) {
  console.error(error);
  console.error(serverErrors);
  process.exitCode = 1;
} finally {
  server.kill("SIGTERM");
}
