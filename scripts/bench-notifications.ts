/**
 * `npm run bench:notifications -- --followers 10000` (issue 39 "Tests and
 * figures"; docs/decisions/0037-notifications.md "Fan-out"):
 *
 * `wrangler dev --local` on a fresh state of its own; straight into its
 * local D1 file (node:sqlite, as the other benches seed people): two
 * creators, one followed by `--followers` people and one by nobody, and a
 * session for everyone. Then, `--repeat` times, each creator publishes a
 * new character through the real API (`POST /api/characters`: a new
 * character is listed at once, which queues its `followed_character`
 * fan-out after the answer; worker/lib/notifications/fan-out.ts), the two
 * alternating which goes first. Before the next publish the bench waits
 * until the fan-out is over (the `fabled-notifications` queue has
 * acknowledged every message it implies), so a publish is never timed
 * while a fan-out is still delivering on the same machine.
 *
 * 1. The publishing request's time, ms (client side, request to parsed
 *    answer), p50/p95/max for each creator: the target is no difference
 *    beyond noise.
 * 2. Publish → the notification in a follower's inbox, ms: `--sample`
 *    followers (seeded random draw) each keep their own
 *    `/ws/notifications` socket open, and a `notification` frame there is
 *    the moment the Inbox stored it; p50/p95/max over every publication.
 *    "Every follower" is the time of the queue's last acknowledged
 *    delivery message (wrangler's `QUEUE fabled-notifications n/n` log
 *    line, written after the consumer returned, so after its Inbox calls).
 *    At the end every follower's inbox is read once through
 *    `GET /api/notifications` with their own session: each must hold
 *    exactly one notification per published character.
 * 3. D1 queries and Durable Object calls per delivered notification: from
 *    the code's own structure (FOLLOWER_PAGE followers per D1 query,
 *    DELIVERY_SIZE recipients per delivery message, one Inbox call per
 *    recipient), printed as a derivation, beside what the run observed:
 *    queue messages consumed (and retried) from wrangler's log, Inbox
 *    objects stored in the local state, notifications read back.
 *
 * Local queues deliver one batch at a time (Miniflare's broker); Cloudflare
 * runs several consumer invocations at once, so the delivery times here
 * are an upper bound for the same code.
 *
 * Flags: --followers N (default 10000), --sample N (default 200, at most
 * the followers), --repeat N (default 5), --port P (default: a free one),
 * --state-dir DIR (default /dev/shm/fabled-bench-notifications where
 * /dev/shm exists, else .bench/notifications-state; wiped first).
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DatabaseSync } from "node:sqlite";
import type { NotificationFrame, NotificationList } from "../schema/notifications.ts";
import { mulberry32 } from "../schema/seeded-random.ts";
import { freePort, freshState, jsonApi, percentile, pool, waitForServer } from "./lib/bench-tools.ts";
import { devArgs } from "./lib/dev-args.ts";
import { ROOT, toolEnv } from "./lib/tools.ts";

const { values } = parseArgs({
  options: {
    followers: { type: "string", default: "10000" },
    sample: { type: "string", default: "200" },
    repeat: { type: "string", default: "5" },
    port: { type: "string" },
    "state-dir": { type: "string" },
  },
});
const followers = Number(values.followers);
const repeat = Number(values.repeat);
if (!Number.isInteger(followers) || followers < 1) throw new Error("--followers must be a positive integer");
if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat must be a positive integer");
const sampleSize = Math.min(Number(values.sample), followers);
if (!Number.isInteger(sampleSize) || sampleSize < 1) throw new Error("--sample must be a positive integer");

const port = values.port ?? (await freePort());
const base = `http://127.0.0.1:${port}`;
const stateDir = values["state-dir"] ?? (existsSync("/dev/shm") ? "/dev/shm/fabled-bench-notifications" : join(ROOT, ".bench", "notifications-state"));
const QUEUE = "fabled-notifications";

/**
 * A constant of the fan-out's code, read from its source text: importing
 * worker/lib/notifications/fan-out.ts here would bring the Workers' types
 * into the scripts' typecheck, and the figures must follow the code as it is.
 *
 * @throws when the constant is no longer declared as `export const NAME = digits;`.
 */
function fanOutConstant(name: string): number {
  const source = readFileSync(join(ROOT, "worker/lib/notifications/fan-out.ts"), "utf8");
  const match = new RegExp(`export const ${name} = ([\\d_]+);`).exec(source);
  if (!match) throw new Error(`${name} is no longer a plain constant in worker/lib/notifications/fan-out.ts; update the bench`);
  return Number(match[1]!.replaceAll("_", ""));
}
/** Followers read per D1 query. */
const FOLLOWER_PAGE = fanOutConstant("FOLLOWER_PAGE");
/** Recipients per delivery message (one Inbox call each). */
const DELIVERY_SIZE = fanOutConstant("DELIVERY_SIZE");
/** Queue messages one publication implies: itself, then one delivery message per DELIVERY_SIZE followers. */
const messagesFor = (n: number) => 1 + Math.ceil(n / DELIVERY_SIZE);
const FAN_OUT_TIMEOUT_MS = 15 * 60_000;

interface Person {
  id: string;
  cookie: string;
}

/** Seeds the creators, the followers, their sessions and follows into the local D1 file in one transaction. */
function seed(d1File: string): { creator: Person; quiet: Person; followerList: Person[] } {
  const db = new DatabaseSync(d1File);
  const addUser = db.prepare("INSERT INTO users (id, email, first_name, name, username) VALUES (?, ?, ?, ?, ?)");
  const addSession = db.prepare("INSERT INTO sessions (sid, sess, expire) VALUES (?, ?, ?)");
  const addFollow = db.prepare("INSERT INTO follows (follower_id, followee_id) VALUES (?, ?)");
  const person = (handle: string, name: string): Person => {
    const id = randomUUID();
    const token = randomBytes(32).toString("base64url");
    addUser.run(id, `bench-${handle}@bench.fabled.local`, name, name, `@bench_${handle}`);
    addSession.run(createHash("sha256").update(token).digest("hex"), JSON.stringify({ userId: id }), Date.now() + 24 * 60 * 60 * 1000);
    return { id, cookie: `fabled_session=${token}` };
  };
  db.exec("BEGIN");
  const creator = person("creator", "Followed Creator");
  const quiet = person("quiet", "Quiet Creator");
  const followerList: Person[] = [];
  for (let i = 0; i < followers; i++) {
    const follower = person(`f${i}`, `Follower ${i}`);
    addFollow.run(follower.id, creator.id);
    followerList.push(follower);
  }
  db.exec("COMMIT");
  db.close();
  return { creator, quiet, followerList };
}

/** Wrangler's `QUEUE fabled-notifications acked/total (ms)` lines, counted as they come. */
function queueLog() {
  const state = { acked: 0, total: 0, batches: 0, lastAt: 0, waiters: new Set<() => void>() };
  let pending = "";
  const read = (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const match = new RegExp(`QUEUE ${QUEUE} (\\d+)/(\\d+)`).exec(line.replace(/\x1b\[[0-9;]*m/g, ""));
      if (!match) continue;
      state.acked += Number(match[1]);
      state.total += Number(match[2]);
      state.batches += 1;
      state.lastAt = performance.now();
      for (const waiter of state.waiters) waiter();
    }
  };
  /** Resolves once `acked` messages in all were acknowledged. */
  const ackedAtLeast = (acked: number) =>
    new Promise<void>((resolve, reject) => {
      if (state.acked >= acked) return resolve();
      const timer = setTimeout(() => reject(new Error(`the queue acknowledged ${state.acked} of ${acked} messages within ${FAN_OUT_TIMEOUT_MS / 1000} s`)), FAN_OUT_TIMEOUT_MS);
      const waiter = () => {
        if (state.acked < acked) return;
        clearTimeout(timer);
        state.waiters.delete(waiter);
        resolve();
      };
      state.waiters.add(waiter);
    });
  return { state, read, ackedAtLeast };
}

/** A sampled follower's open `/ws/notifications`: when each character's notification arrived (performance.now()). */
async function openInboxSocket(person: Person): Promise<{ arrived: Map<string, number>; ws: WebSocket }> {
  const arrived = new Map<string, number>();
  // Node's WebSocket (undici) takes headers, though the DOM typings know only protocols.
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/notifications`, { headers: { cookie: person.cookie, origin: base } } as unknown as string[]);
  ws.addEventListener("message", (event) => {
    const frame = JSON.parse(String(event.data)) as NotificationFrame;
    if (frame.type === "notification" && frame.notification.kind === "followed_character" && !arrived.has(frame.notification.target.id)) {
      arrived.set(frame.notification.target.id, performance.now());
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error("a follower's notification socket failed to open")), { once: true });
  });
  return { arrived, ws };
}

const CHARACTER = {
  description: "A lighthouse keeper written for the notifications benchmark.",
  personality: "Quiet and kind.",
  greeting: "The lamp is lit.",
};

/** Publishes a new (listed) character as `person`: its id and the request's time, ms. */
async function publish(person: Person, name: string): Promise<{ id: string; ms: number }> {
  const api = jsonApi(base, person.cookie);
  const at = performance.now();
  const character = await api<{ id: number; isActive: boolean }>("/api/characters", { name, ...CHARACTER });
  const ms = performance.now() - at;
  if (!character.isActive) throw new Error(`${name} was not published (held for review?)`);
  return { id: String(character.id), ms };
}

/** Inbox objects with storage in the local state (one SQLite file each under wrangler's `v3/do/<worker>-Inbox/`). */
function inboxObjects(): number | null {
  const doDir = join(stateDir, "v3", "do");
  if (!existsSync(doDir)) return null;
  const folder = readdirSync(doDir).find((name) => name.endsWith("-Inbox"));
  if (!folder) return null;
  return readdirSync(join(doDir, folder)).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite").length;
}

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 100 ? 1 : 0)} ms`);
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 50))}   p95 ${fmt(percentile(sorted, 95))}   max ${fmt(sorted.at(-1)!)}`;
};

console.log(`seeding ${followers.toLocaleString("en")} followers into ${stateDir} …`);
const d1File = await freshState(stateDir);
const { creator, quiet, followerList } = seed(d1File);
const random = mulberry32(39);
const sample = [...followerList]
  .map((person) => ({ person, key: random() }))
  .sort((a, b) => a.key - b.key)
  .slice(0, sampleSize)
  .map(({ person }) => person);

const log = queueLog();
const server = spawn("wrangler", devArgs(port, stateDir), { cwd: ROOT, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"] });
let serverOutput = "";
const keep = (chunk: Buffer) => {
  serverOutput = (serverOutput + chunk.toString()).slice(-4000);
};
server.stdout?.on("data", (chunk: Buffer) => {
  keep(chunk);
  log.read(chunk);
});
server.stderr?.on("data", (chunk: Buffer) => {
  keep(chunk);
  log.read(chunk);
});

try {
  await waitForServer(`${base}/api/voices`, server);
  const sockets = await pool(sample, 20, openInboxSocket);

  // Warm-up (not timed): the first request of each kind compiles and opens what later ones reuse.
  await publish(quiet, "Warm-up Keeper");
  let expected = messagesFor(0);
  await log.ackedAtLeast(expected);

  const times = { followed: [] as number[], quiet: [] as number[] };
  const delivery: number[] = [];
  const everyone: number[] = [];
  const published: string[] = [];
  for (let round = 0; round < repeat; round++) {
    const order = round % 2 === 0 ? (["followed", "quiet"] as const) : (["quiet", "followed"] as const);
    for (const who of order) {
      if (who === "quiet") {
        const { ms } = await publish(quiet, `Quiet Keeper ${round + 1}`);
        times.quiet.push(ms);
        expected += messagesFor(0);
        await log.ackedAtLeast(expected);
        continue;
      }
      const start = performance.now();
      const { id, ms } = await publish(creator, `Followed Keeper ${round + 1}`);
      times.followed.push(ms);
      published.push(id);
      expected += messagesFor(followers);
      await log.ackedAtLeast(expected);
      everyone.push(log.state.lastAt - start);
      // The sockets' frames may trail the queue's acknowledgement by a moment.
      const deadline = Date.now() + 60_000;
      while (sockets.some((s) => !s.arrived.has(id))) {
        if (Date.now() > deadline) throw new Error(`${sockets.filter((s) => !s.arrived.has(id)).length} sampled followers had no frame for character ${id}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const s of sockets) delivery.push(s.arrived.get(id)! - start);
      console.log(`  publication ${round + 1}: every follower's inbox by ${fmt(everyone.at(-1)!)}`);
    }
  }
  for (const s of sockets) s.ws.close();

  // Every follower's inbox, read once as they would: one notification per published character, no more.
  const wanted = new Set(published);
  const counts = await pool(followerList, 16, async (person) => {
    const page = await jsonApi(base, person.cookie)<NotificationList>(`/api/notifications?limit=${Math.min(50, published.length + 10)}`);
    const mine = page.notifications.filter((n) => n.kind === "followed_character" && wanted.has(n.target.id));
    return { distinct: new Set(mine.map((n) => n.target.id)).size, rows: mine.length, folded: mine.reduce((sum, n) => sum + n.count, 0) };
  });
  const complete = counts.filter((c) => c.distinct === published.length).length;
  const rows = counts.reduce((sum, c) => sum + c.rows, 0);
  const folded = counts.reduce((sum, c) => sum + c.folded, 0);
  const delivered = followers * published.length;

  console.log("");
  console.log(`notifications fan-out, wrangler dev --local (state in ${stateDir}), ${followers.toLocaleString("en")} followers, ${repeat} publications per creator, Node ${process.version}`);
  console.log("");
  console.log(`1. the publishing request (POST /api/characters, client side), ${repeat} each, alternating which creator goes first, each after the previous fan-out finished:`);
  console.log(`   creator with ${followers.toLocaleString("en")} followers   ${spread(times.followed)}   (${times.followed.map((t) => t.toFixed(0)).join(", ")} ms)`);
  console.log(`   creator with no followers   ${spread(times.quiet)}   (${times.quiet.map((t) => t.toFixed(0)).join(", ")} ms)`);
  const gap = percentile([...times.followed].sort((a, b) => a - b), 50) - percentile([...times.quiet].sort((a, b) => a - b), 50);
  const noise = Math.max(...times.quiet) - Math.min(...times.quiet);
  console.log(`   p50 difference ${gap >= 0 ? "+" : ""}${gap.toFixed(1)} ms; the quiet creator's own spread (max − min) is ${noise.toFixed(1)} ms`);
  console.log("");
  console.log(`2. publish → notification in the follower's inbox (a frame on their own /ws/notifications), ${sampleSize} sampled followers × ${published.length} publications:`);
  console.log(`   per follower      ${spread(delivery)}`);
  console.log(`   every follower    ${spread(everyone)}   (the queue's last delivery message acknowledged)`);
  console.log(`   read back through GET /api/notifications, every follower: ${complete.toLocaleString("en")} of ${followers.toLocaleString("en")} hold all ${published.length} characters' notifications; ${rows.toLocaleString("en")} notifications for ${delivered.toLocaleString("en")} deliveries (events in them: ${folded.toLocaleString("en")}, so ${folded === rows ? "none was delivered twice" : `${folded - rows} repeats folded in`})`);
  console.log("");
  const pages = Math.floor(followers / FOLLOWER_PAGE) + 1;
  const d1PerPublication = 2 + pages;
  const deliveryMessages = Math.ceil(followers / DELIVERY_SIZE);
  const batchesFor = (rows: number) => Math.ceil(Math.ceil(rows / DELIVERY_SIZE) / 100);
  const sendBatches = Math.floor(followers / FOLLOWER_PAGE) * batchesFor(FOLLOWER_PAGE) + batchesFor(followers % FOLLOWER_PAGE);
  console.log(`3. calls per delivered notification, from the code (worker/lib/notifications/fan-out.ts, durable-objects/inbox/):`);
  console.log(`   the publishing request: 1 queue send after its answer, whatever the followers (0 D1, 0 DO for the fan-out)`);
  console.log(`   the publication message: D1 1 (character still listed) + 1 (creator as actor) + ${pages} follower page${pages === 1 ? "" : "s"} of ≤ ${FOLLOWER_PAGE.toLocaleString("en")} (keyset; the last one short or empty) = ${d1PerPublication} D1 queries; ${deliveryMessages} delivery messages in ${sendBatches} sendBatch call${sendBatches === 1 ? "" : "s"} (≤ 100 messages each, per page)`);
  console.log(`   each delivery message: ≤ ${DELIVERY_SIZE} recipients, 1 Inbox RPC (deliver) each, 0 D1 (settings live in the Inbox's own SQLite; push is off by default)`);
  console.log(`   per delivered notification: D1 ${d1PerPublication} / ${followers.toLocaleString("en")} = ${(d1PerPublication / followers).toFixed(5)}; Durable Object calls ${followers.toLocaleString("en")} / ${followers.toLocaleString("en")} = 1 (+ ${DELIVERY_SIZE} repeated per retried delivery message)`);
  // The warm-up and every publication of both creators, then the followed creator's delivery messages.
  const expectedMessages = 2 * repeat + 1 + repeat * deliveryMessages;
  const objects = inboxObjects();
  console.log(
    `   observed: queue messages consumed ${log.state.total} (expected ${expectedMessages}: ${repeat + 1 + repeat} publications + ${repeat} × ${deliveryMessages} deliveries) in ${log.state.batches} batches, retried ${log.state.total - log.state.acked}; ` +
      `Inbox objects stored ${objects === null ? "(not found in the state)" : objects.toLocaleString("en")} (expected ${followers.toLocaleString("en")}); notifications read back ${rows.toLocaleString("en")} (expected ${delivered.toLocaleString("en")})`,
  );
  console.log(`   (local queues deliver one batch at a time; Cloudflare runs consumer invocations side by side, so section 2 is an upper bound for this code)`);
} catch (error) {
  console.error(serverOutput);
  throw error;
} finally {
  server.kill("SIGTERM");
}
process.exit(0);
