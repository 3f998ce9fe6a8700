/**
 * `npm run bench:chat -- --conversations N`: real-time chat under load.
 *
 * Starts the app with `wrangler dev --local` and the offline chat model on a
 * fresh database of its own (see --state-dir: demo catalog, plus N people
 * with sessions written straight into the local D1 file — only the SHA-256
 * of each session token is stored, as worker/lib/sessions.ts does), creates
 * one conversation per person through the API, opens N WebSockets
 * (`/ws?conversationId=…`, as the web client does; `--bare` for bare `/ws` +
 * `join`) and keeps all N conversations open at once while people chat.
 *
 * Load model (default): N people chatting at the same time, each one sending
 * `--turns` messages; after each reply a person reads and types for a think
 * time drawn uniformly from `--think-ms MIN-MAX` (default 15000-45000) before
 * sending the next one, and everybody's first message comes at a uniform
 * moment within the first MAX ms. This is the closed-loop model of load
 * testers (a user waits for the answer, then thinks). The default is a human
 * pace: reading a reply of ~40 words at ~240 words a minute (Brysbaert 2019,
 * "How many words do we read per minute?") takes ~10 s, and typing a message
 * of 10-25 words at ~40 words a minute takes 15-40 s; at N = 1,000 that is
 * 20-35 messages a second. `--think-ms 5000-15000` is a stress load three
 * times faster than people write (60-120 messages a second at N = 1,000).
 * `--burst` instead sends one message on every
 * conversation in the same instant (a thundering herd), and `--probe` with
 * `--burst` sends a message of spaces instead, which the room refuses at once
 * with an error frame (no storage, no rate limiter, no model): the runtime's
 * own time to answer N frames arriving together, the floor under any burst.
 *
 * Measured per message, from the `chat_message` sent to
 *   - `message_saved`, the first `character_response_delta` (first token), and
 *   - the final `character_response`,
 * plus messages lost (no `message_saved`, no reply, or not stored) and
 * duplicated (a second `message_saved` or reply, or extra stored messages),
 * checking every conversation's stored messages through the API afterwards.
 *
 * Flags: --conversations N (default 100), --turns T (default 3), --think-ms
 * MIN-MAX, --burst, --probe, --word-delay-ms D (offline model's pace, default
 * 25), --context-tokens T (the app's AI_CONTEXT_TOKENS; default the
 * wrangler.toml value, 8192 — a small budget such as 1200 with --turns 8
 * makes histories overflow, so the running summary is written after replies,
 * docs/decisions/0007), --port P (default: a free one), --bare, --state-dir DIR (where the
 * run's throwaway local D1, R2 and Durable Object files go, wiped first;
 * default /dev/shm/fabled-bench-chat where /dev/shm exists, else
 * .bench/chat-state). Locally every object, D1 and the rate limiter is an
 * SQLite file whose commits the one workerd thread waits for, so on a disk
 * the figures measure the disk as much as the app (README "Chat"); pass
 * `--state-dir .bench/chat-state` to measure on disk.
 * Target of the issue: N = 1,000 with p95 first delta ≤ 50 ms, 0 lost, 0 duplicated.
 *
 * Group chats (issue 22): `--characters K` (2–8) gives every person a second
 * conversation, with K demo characters in the `list` reply order (every
 * member answers each message, one after another), chatting beside the
 * one-to-one one on its own socket. Printed for the groups, beside the
 * one-to-one figures of the same run: the first delta of a round (from the
 * message sent), the hand-over (from one reply's `character_response` to the
 * next reply's first delta), and the whole round. Target: p95 hand-over
 * ≤ 50 ms with the offline model.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemo } from "./lib/seed.ts";
import { localD1File, migrateLocal, ROOT, toolEnv } from "./lib/tools.ts";

/**
 * How many conversation rooms under `stateDir` (miniflare's layout: one
 * SQLite file per Durable Object under v3/do/) have a running summary
 * (`room.summary_through > 0`, docs/decisions/0007); null when there are none.
 */
function summarizedRooms(stateDir: string): { rooms: number; summarized: number } | null {
  const doDir = join(stateDir, "v3/do");
  if (!existsSync(doDir)) return null;
  let rooms = 0;
  let summarized = 0;
  for (const namespace of readdirSync(doDir).filter((name) => name.includes("ConversationRoom"))) {
    for (const file of readdirSync(join(doDir, namespace)).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")) {
      const db = new DatabaseSync(join(doDir, namespace, file), { readOnly: true });
      try {
        const row = db.prepare("SELECT summary_through AS through FROM room").get() as { through: number } | undefined;
        rooms += 1;
        if ((row?.through ?? 0) > 0) summarized += 1;
      } catch {
        // A room of another schema (no summary) or still empty.
      } finally {
        db.close();
      }
    }
  }
  return rooms === 0 ? null : { rooms, summarized };
}

const { values } = parseArgs({
  options: {
    conversations: { type: "string", default: "100" },
    turns: { type: "string", default: "3" },
    "think-ms": { type: "string", default: "15000-45000" },
    burst: { type: "boolean", default: false },
    probe: { type: "boolean", default: false },
    "word-delay-ms": { type: "string", default: "25" },
    "context-tokens": { type: "string" },
    port: { type: "string" },
    bare: { type: "boolean", default: false },
    "state-dir": { type: "string" },
    characters: { type: "string", default: "1" },
  },
});
const count = Number(values.conversations);
const castSize = Number(values.characters);
if (!Number.isInteger(castSize) || castSize < 1 || castSize > 8) throw new Error("--characters must be a whole number from 1 to 8");
const burst = values.burst || values.probe;
const probe = values.probe;
const turns = burst ? 1 : Number(values.turns);
const [thinkMin, thinkMax] = values["think-ms"].split("-").map(Number) as [number, number];
if (!Number.isInteger(count) || count < 1) throw new Error("--conversations must be a positive integer");
if (!Number.isInteger(turns) || turns < 1) throw new Error("--turns must be a positive integer");
if (!(thinkMin >= 0 && thinkMax >= thinkMin)) throw new Error("--think-ms must be MIN-MAX in ms, e.g. 15000-45000");

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
const stateDir = values["state-dir"] ?? (existsSync("/dev/shm") ? "/dev/shm/fabled-bench-chat" : join(ROOT, ".bench", "chat-state"));

interface Person {
  id: string;
  cookie: string;
}

/** Fresh state: migrations, the demo catalog, and `count` people with sessions. */
async function prepare(): Promise<{ people: Person[]; characterIds: number[] }> {
  // Wiped first: only an empty folder or an earlier run's state (wrangler's `v3/`), never anything else.
  if (existsSync(stateDir) && readdirSync(stateDir).some((name) => name !== "v3")) {
    throw new Error(`--state-dir ${stateDir} holds other files; give an empty or new folder`);
  }
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

/** One message of one conversation, timed from the send (performance.now(), ms). */
interface Sample {
  clientId: string;
  sentAt: number;
  savedAt: number | null;
  firstDeltaAt: number | null;
  /** The last reply of the round ended (one reply in a one-to-one chat). */
  responseAt: number | null;
  refusedAt: number | null;
  /** Replies of the round ended so far, and when the latest did. */
  repliesSeen: number;
  lastReplyAt: number | null;
  /** Group chats: ms from each reply's end to the next reply's first delta. */
  handoffs: number[];
}

interface Run {
  conversationId: string;
  /** Replies per message: 1, or the cast's size in a group chat (the list order). */
  repliesPerMessage: number;
  /** Messages the conversation started with (greetings). */
  initialReplies: number;
  ws: WebSocket;
  joined: Promise<void>;
  samples: Sample[];
  /** `message_saved` frames for our clientIds, and replies, counted per message id. */
  saved: Map<string, number>;
  responses: Map<string, number>;
  errors: string[];
  /** Resolves on the reply to (or refusal of) the message in flight. */
  answered: (() => void) | null;
  closed: boolean;
}

function open(person: Person, conversationId: string, repliesPerMessage = 1): Promise<Run> {
  const url = values.bare ? `ws://127.0.0.1:${port}/ws` : `ws://127.0.0.1:${port}/ws?conversationId=${conversationId}`;
  // Node's WebSocket (undici) takes headers — the browser's cookie and Origin —
  // though the DOM typings know only the protocols argument.
  const ws = new WebSocket(url, { headers: { cookie: person.cookie, origin } } as unknown as string[]);
  return new Promise((resolve, reject) => {
    let joinedResolve!: () => void;
    const run: Run = {
      conversationId,
      repliesPerMessage,
      initialReplies: 0,
      ws,
      joined: new Promise((r) => (joinedResolve = r)),
      samples: [],
      saved: new Map(),
      responses: new Map(),
      errors: [],
      answered: null,
      closed: false,
    };
    const settle = () => {
      const answered = run.answered;
      run.answered = null;
      answered?.();
    };
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "join", conversationId }));
      resolve(run);
    });
    ws.addEventListener("error", () => reject(new Error(`WebSocket to ${conversationId} failed`)));
    ws.addEventListener("message", (event) => {
      const now = performance.now();
      const frame = JSON.parse(String(event.data)) as { type: string; clientId?: string | null; messageId?: string; message?: string };
      const current = run.samples.at(-1);
      switch (frame.type) {
        case "history_sync":
          joinedResolve();
          break;
        case "message_saved":
          if (frame.clientId && run.samples.some((s) => s.clientId === frame.clientId)) {
            run.saved.set(frame.clientId, (run.saved.get(frame.clientId) ?? 0) + 1);
            if (current?.clientId === frame.clientId) current.savedAt ??= now;
          }
          break;
        case "character_response_delta":
          if (current && current.firstDeltaAt === null) current.firstDeltaAt = now;
          else if (current && current.lastReplyAt !== null && current.handoffs.length < current.repliesSeen) {
            current.handoffs.push(now - current.lastReplyAt);
          }
          break;
        case "character_response":
          run.responses.set(frame.messageId ?? "?", (run.responses.get(frame.messageId ?? "?") ?? 0) + 1);
          if (current) {
            current.repliesSeen += 1;
            current.lastReplyAt = now;
            if (current.repliesSeen >= run.repliesPerMessage) {
              current.responseAt ??= now;
              settle();
            }
          } else settle();
          break;
        case "error":
          if (current) current.refusedAt ??= now;
          if (!probe) run.errors.push(frame.message ?? "?");
          settle();
          break;
      }
    });
    ws.addEventListener("close", (event) => {
      run.closed = true;
      if (run.answered) run.errors.push(`closed ${event.code} ${event.reason}`);
      settle();
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends one message on `run` and waits for its reply (or refusal), at most 60 s. */
async function exchange(run: Run, text: string): Promise<void> {
  if (run.closed) return;
  const sample: Sample = {
    clientId: randomUUID(),
    sentAt: 0,
    savedAt: null,
    firstDeltaAt: null,
    responseAt: null,
    refusedAt: null,
    repliesSeen: 0,
    lastReplyAt: null,
    handoffs: [],
  };
  run.samples.push(sample);
  const answered = new Promise<void>((resolve) => (run.answered = resolve));
  sample.sentAt = performance.now();
  run.ws.send(JSON.stringify({ type: "chat_message", conversationId: run.conversationId, content: text, isUser: true, clientId: sample.clientId }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, 60_000)))]);
  clearTimeout(timer);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** What the run is doing, for the watchdog's message. */
let stage = "starting";
// A run that stops making progress (a stuck server, a lost socket) ends with an error instead of
// hanging: 10 min for setup and checks, plus, per turn, the longest think time and a 60 s reply.
const WATCHDOG_MS = 10 * 60_000 + turns * (thinkMax + 60_000);
setTimeout(() => {
  console.error(`bench:chat gave up after ${(WATCHDOG_MS / 60_000).toFixed(1)} min while ${stage}`);
  process.exit(2);
}, WATCHDOG_MS).unref();

await assertNobodyListens();
stage = "preparing the database";
const { people, characterIds } = await prepare();
console.log(`${count} people with sessions; ${characterIds.length} demo characters; local storage in ${stateDir}`);
const contextTokens: Record<string, string> = values["context-tokens"] ? { AI_CONTEXT_TOKENS: values["context-tokens"] } : {};
const server = spawn("wrangler", devArgs(port, stateDir, { OFFLINE_WORD_DELAY_MS: values["word-delay-ms"], ...contextTokens }), {
  cwd: ROOT,
  env: toolEnv(),
  stdio: ["ignore", "ignore", "pipe"],
});
let serverErrors = "";
server.stderr?.on("data", (chunk: Buffer) => {
  serverErrors = (serverErrors + chunk.toString()).slice(-4000);
});

try {
  stage = "waiting for wrangler dev";
  await waitForServer(server);
  stage = "creating conversations";
  let t = performance.now();
  const conversations = await pool(people, 16, (person, i) =>
    api<{ id: string }>("/api/conversations", person, {
      method: "POST",
      body: { characterId: characterIds[i % characterIds.length] },
    }),
  );
  console.log(`created ${count} conversations in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // Group chats: a second conversation per person, K characters answering in list order.
  const groups =
    castSize > 1
      ? await pool(people, 16, async (person, i) => {
          const cast = Array.from({ length: castSize }, (_, k) => characterIds[(i + k) % characterIds.length]!);
          const group = await api<{ id: string }>("/api/conversations", person, { method: "POST", body: { characterIds: cast } });
          await api(`/api/conversations/${group.id}`, person, { method: "PATCH", body: { replyOrder: "list" } });
          return group;
        })
      : [];
  if (groups.length > 0) console.log(`created ${count} group chats of ${castSize} characters (list order)`);
  stage = "opening WebSockets";

  t = performance.now();
  const singles = await pool(people, 64, (person, i) => open(person, conversations[i]!.id));
  const groupRuns = await pool(groups.length > 0 ? people : [], 64, (person, i) => open(person, groups[i]!.id, castSize));
  const runs = [...singles, ...groupRuns];
  const owners = [...people, ...(groupRuns.length > 0 ? people : [])];
  await Promise.all(runs.map((r) => r.joined));
  await pool(runs, 16, async (run, i) => {
    const messages = await api<{ isUser: boolean }[]>(`/api/conversations/${run.conversationId}/messages`, owners[i]!);
    run.initialReplies = messages.filter((m) => !m.isUser).length;
  });
  console.log(`opened and joined ${runs.length} WebSockets in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const messageText = (i: number, turn: number) =>
    probe ? "   " : `Hello! This is bench message ${turn + 1} of person ${i}. Tell me about your day.`;
  const uniform = (min: number, max: number) => min + Math.random() * (max - min);
  const sendStart = performance.now();
  stage = "chatting";
  if (burst) {
    // Every conversation's message in the same instant.
    await Promise.all(runs.map((run, i) => exchange(run, messageText(i, 0))));
  } else {
    await Promise.all(
      runs.map(async (run, i) => {
        await sleep(uniform(0, thinkMax));
        for (let turn = 0; turn < turns; turn++) {
          if (turn > 0) await sleep(uniform(thinkMin, thinkMax));
          await exchange(run, messageText(i, turn));
        }
      }),
    );
  }
  const wall = performance.now() - sendStart;
  // Let late duplicates show up, if any.
  await sleep(500);
  for (const run of runs) run.ws.close(1000, "bench done");

  // Stored state: the greeting, then each of our messages and a reply to it, each exactly once.
  stage = "reading the stored messages";
  const stored = await pool(runs, 16, async (run, i) => {
    const messages = await api<{ isUser: boolean; clientId: string | null }[]>(`/api/conversations/${run.conversationId}/messages`, owners[i]!);
    return {
      perClientId: run.samples.map((s) => messages.filter((m) => m.clientId === s.clientId).length),
      replies: messages.filter((m) => !m.isUser).length - run.initialReplies, // minus the greetings
    };
  });

  let sent = 0;
  let lost = 0;
  let duplicated = 0;
  let failed = 0;
  runs.forEach((run, i) => {
    const s = stored[i]!;
    sent += run.samples.length;
    if (run.errors.length > 0) failed += 1;
    if (probe) return;
    run.samples.forEach((sample, k) => {
      const savedFrames = run.saved.get(sample.clientId) ?? 0;
      if (savedFrames === 0 || sample.responseAt === null || s.perClientId[k] === 0) lost += 1;
      if (savedFrames > 1 || s.perClientId[k]! > 1) duplicated += 1;
    });
    const replies = [...run.responses.values()];
    // Replies the socket saw twice, and stored replies beyond one per message.
    duplicated += replies.filter((n) => n > 1).length + Math.max(0, s.replies - run.samples.length * run.repliesPerMessage);
  });
  const samples = singles.flatMap((r) => r.samples);
  const groupSamples = groupRuns.flatMap((r) => r.samples);
  const since = (pick: (s: Sample) => number | null, from: Sample[] = samples) =>
    from.filter((s) => pick(s) !== null).map((s) => pick(s)! - s.sentAt).sort((a, b) => a - b);
  const row = (label: string, xs: number[]) =>
    `| ${label.padEnd(40)} | ${percentile(xs, 50).toFixed(1).padStart(8)} | ${percentile(xs, 95).toFixed(1).padStart(8)} | ${(xs.at(-1) ?? Number.NaN).toFixed(1).padStart(8)} |`;

  const load = burst
    ? `one ${probe ? "probe (a message of spaces, refused at once)" : "message"} per conversation, all sent in the same instant`
    : `${turns} messages per conversation, think time ${thinkMin}-${thinkMax} ms, ${(sent / (wall / 1000)).toFixed(0)} messages/s on average`;
  console.log(
    `\nN = ${count.toLocaleString("en-US")} concurrent conversations (${values.bare ? "bare /ws + join" : "/ws?conversationId="}); ` +
      `${load}; offline model at ${values["word-delay-ms"]} ms/word${values["context-tokens"] ? `; AI_CONTEXT_TOKENS ${values["context-tokens"]}` : ""}\n`,
  );
  console.log(`| ${"ms from chat_message sent".padEnd(40)} |      p50 |      p95 |      max |`);
  console.log(`|${"-".repeat(42)}|---------:|---------:|---------:|`);
  if (probe) {
    console.log(row("to the error frame", since((s) => s.refusedAt)));
  } else {
    console.log(row("to message_saved", since((s) => s.savedAt)));
    console.log(row("to first character_response_delta", since((s) => s.firstDeltaAt)));
    console.log(row("to character_response", since((s) => s.responseAt)));
  }
  const handoffs = groupSamples.flatMap((s) => s.handoffs).sort((a, b) => a - b);
  if (groupRuns.length > 0) {
    console.log(row(`group of ${castSize}: to message_saved`, since((s) => s.savedAt, groupSamples)));
    console.log(row(`group of ${castSize}: to the round's first delta`, since((s) => s.firstDeltaAt, groupSamples)));
    console.log(row(`group of ${castSize}: to the round's end`, since((s) => s.responseAt, groupSamples)));
    console.log(
      `| ${"group: reply end → next first delta".padEnd(40)} | ${percentile(handoffs, 50).toFixed(1).padStart(8)} | ${percentile(handoffs, 95).toFixed(1).padStart(8)} | ${(handoffs.at(-1) ?? Number.NaN).toFixed(1).padStart(8)} |`,
    );
  }
  const first = since((s) => s.firstDeltaAt);
  console.log(
    `\nmessages sent: ${sent}; replies: ${samples.filter((s) => s.responseAt !== null).length}; ` +
      `conversations with errors: ${failed}; lost: ${lost}; duplicated: ${duplicated}; wall ${(wall / 1000).toFixed(1)} s`,
  );
  if (!probe) {
    const ok = lost === 0 && duplicated === 0 && percentile(first, 95) <= 50;
    console.log(`target (p95 first delta ≤ 50 ms, 0 lost, 0 duplicated): ${ok ? "met" : "NOT met"}`);
    if (groupRuns.length > 0) {
      const handoffOk = handoffs.length > 0 && percentile(handoffs, 95) <= 50;
      console.log(`group target (p95 reply end → next first delta ≤ 50 ms; ${handoffs.length} hand-overs): ${handoffOk ? "met" : "NOT met"}`);
    }
  }
  if (failed > 0) console.log(`first error: ${runs.find((r) => r.errors.length > 0)?.errors[0]}`);
  const summaries = summarizedRooms(stateDir);
  if (summaries !== null) console.log(`conversations whose history was folded into a running summary: ${summaries.summarized} of ${summaries.rooms}`);
  process.exitCode = lost === 0 && duplicated === 0 ? 0 : 1;
} catch (error) {
  console.error(error);
  console.error(serverErrors);
  process.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  // State in memory is not left behind (on disk it stays, to look at, until the next run).
  if (stateDir.startsWith("/dev/shm/")) {
    await new Promise<void>((resolve) => (server.exitCode === null ? server.once("exit", () => resolve()) : resolve()));
    rmSync(stateDir, { recursive: true, force: true });
  }
}
