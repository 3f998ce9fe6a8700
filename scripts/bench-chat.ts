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
 * checking every conversation's stored messages through the API afterwards,
 * and the bench's own event-loop delay while chatting (perf_hooks
 * monitorEventLoopDelay, ms past its 10 ms resolution): a frame is timed
 * when this process gets to it, so that delay is in every figure.
 *
 * Flags: --conversations N (default 100), --turns T (default 3), --think-ms
 * MIN-MAX, --burst, --probe, --characters K and --people P (below), --word-delay-ms D (offline model's pace, default
 * 25), --context-tokens T (the app's AI_CONTEXT_TOKENS; default the
 * wrangler.toml value, 8192 — a small budget such as 1200 with --turns 8
 * makes histories overflow, so the running summary is written after replies,
 * docs/decisions/0007), --port P (default: a free one), --bare, --direct
 * (the sockets skip wrangler's dev proxy: bench-tools.ts innerEntryPort), --state-dir DIR (where the
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
 *
 * Shared rooms (issue 23): `--people P` (1–10, default 1) makes every
 * conversation (and every group chat) a room of P people: N × P people get
 * sessions, each room's owner invites the others through the real endpoints
 * (`POST /api/conversations/{id}/invites`, then `POST /api/invites/{token}`
 * with each member's session), and all P open a socket to it. Every person
 * is a closed loop of their own (`--turns` messages each, the think-time
 * model above), so the senders of a room take turns as their think times
 * fall, and one may send while another's reply round is under way. Such a
 * message is either refused with `busy` (counted apart as "refused (busy)",
 * neither lost nor stored; the person waits for that round to end before
 * their next turn) or stored at once and answered when the round ends
 * (DESIGN.md "Shared rooms"); the bench takes either. A message's round is
 * the first to start on the sender's socket after its `message_saved`.
 * Printed beside the sender's figures: the fan-out, from one person's
 * `chat_message` sent to every other member's socket getting its
 * `message_saved` (p50/p95/max over all receipts; and the part of it after
 * the sender's own `message_saved`, the broadcast's share), and the first delta of
 * messages saved while the room was idle (a message stored during a round
 * waits for it). Lost also counts receipts a member never got; duplicated,
 * a `message_saved` or reply a socket got twice. Target of the issue at
 * N = 200, P = 5: p95 fan-out ≤ 50 ms, 0 lost, 0 duplicated.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { MAX_ROOM_PEOPLE } from "../schema/chat.ts";
import { freePort, freshState, innerEntryPort, percentile, pool, waitForServer } from "./lib/bench-tools.ts";
import { devArgs } from "./lib/dev-args.ts";
import { exchange, open, type Person, type Room, type Sample, sleep } from "./lib/chat-socket.ts";
import { seedDemo } from "./lib/seed.ts";
import { ROOT, toolEnv } from "./lib/tools.ts";

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
    people: { type: "string", default: "1" },
    direct: { type: "boolean", default: false },
  },
});
const count = Number(values.conversations);
const castSize = Number(values.characters);
if (!Number.isInteger(castSize) || castSize < 1 || castSize > 8) throw new Error("--characters must be a whole number from 1 to 8");
/** People per conversation (--people): 1, or a shared room's size. */
const roomSize = Number(values.people);
if (!Number.isInteger(roomSize) || roomSize < 1 || roomSize > MAX_ROOM_PEOPLE) {
  throw new Error(`--people must be a whole number from 1 to ${MAX_ROOM_PEOPLE}`);
}
const burst = values.burst || values.probe;
const probe = values.probe;
const turns = burst ? 1 : Number(values.turns);
const [thinkMin, thinkMax] = values["think-ms"].split("-").map(Number) as [number, number];
if (!Number.isInteger(count) || count < 1) throw new Error("--conversations must be a positive integer");
if (!Number.isInteger(turns) || turns < 1) throw new Error("--turns must be a positive integer");
if (!(thinkMin >= 0 && thinkMax >= thinkMin)) throw new Error("--think-ms must be MIN-MAX in ms, e.g. 15000-45000");

const port = values.port ?? (await freePort());

const base = `http://127.0.0.1:${port}`;
const origin = base;
/**
 * Where the sockets connect: wrangler dev's port, or with --direct the app's
 * own workerd behind it (innerEntryPort), skipping the dev proxy that
 * forwards every frame (a process of its own, not there in production).
 */
let socketPort = port;
const stateDir = values["state-dir"] ?? (existsSync("/dev/shm") ? "/dev/shm/fabled-bench-chat" : join(ROOT, ".bench", "chat-state"));

/** Fresh state: migrations, the demo catalog, and `count` × `roomSize` people with sessions (room i's are i × roomSize onwards, its owner first). */
async function prepare(): Promise<{ people: Person[]; characterIds: number[] }> {
  const dbFile = await freshState(stateDir);
  seedDemo(dbFile);
  const db = new DatabaseSync(dbFile);
  const people: Person[] = [];
  const expire = Date.now() + 24 * 60 * 60 * 1000 * 30;
  db.exec("BEGIN");
  const insertUser = db.prepare("INSERT INTO users (id, email, first_name, name, username) VALUES (?, ?, ?, ?, ?)");
  const insertSession = db.prepare("INSERT INTO sessions (sid, sess, expire) VALUES (?, ?, ?)");
  for (let i = 0; i < count * roomSize; i++) {
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


async function api<T>(path: string, person: Person, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: { cookie: person.cookie, origin, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** What the run is doing, for the watchdog's message. */
let stage = "starting";
// A run that stops making progress (a stuck server, a lost socket) ends with an error instead of
// hanging: 10 min for setup and checks, plus, per turn, the longest think time, a 60 s reply and
// (shared rooms) 60 s waiting for another person's round after a busy refusal.
const WATCHDOG_MS = 10 * 60_000 + turns * (thinkMax + 120_000);
setTimeout(() => {
  console.error(`bench:chat gave up after ${(WATCHDOG_MS / 60_000).toFixed(1)} min while ${stage}`);
  process.exit(2);
}, WATCHDOG_MS).unref();

await assertNobodyListens();
stage = "preparing the database";
const { people, characterIds } = await prepare();
console.log(`${people.length} people with sessions; ${characterIds.length} demo characters; local storage in ${stateDir}`);
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

/** The people of room `i`: its owner first. */
const roomPeople = (i: number) => people.slice(i * roomSize, (i + 1) * roomSize);
const owners = Array.from({ length: count }, (_, i) => people[i * roomSize]!);

/**
 * Makes conversation `conversationId` (owned by `owner`) a shared room of
 * `members` through the real endpoints: the owner's invite, then each
 * member joins by it with their own session.
 */
async function invite(conversationId: string, owner: Person, members: Person[]): Promise<void> {
  if (members.length === 0) return;
  const { token } = await api<{ token: string }>(`/api/conversations/${conversationId}/invites`, owner, { method: "POST" });
  for (const member of members) await api(`/api/invites/${token}`, member, { method: "POST" });
}

try {
  stage = "waiting for wrangler dev";
  await waitForServer(`${base}/api/tags?popular=true`, server);
  if (values.direct) {
    const inner = await innerEntryPort(server.pid!, "/api/tags?popular=true");
    if (!inner) throw new Error("--direct: the app's own workerd port was not found (Linux /proc only)");
    socketPort = inner;
    console.log(`--direct: sockets connect to the app's workerd on port ${inner}, not through wrangler's dev proxy on ${port}`);
  }
  stage = "creating conversations";
  let t = performance.now();
  const conversations = await pool(owners, 16, (owner, i) =>
    api<{ id: string }>("/api/conversations", owner, {
      method: "POST",
      body: { characterId: characterIds[i % characterIds.length] },
    }),
  );
  console.log(`created ${count} conversations in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // Group chats: a second conversation per room, K characters answering in list order.
  const groups =
    castSize > 1
      ? await pool(owners, 16, async (owner, i) => {
          const cast = Array.from({ length: castSize }, (_, k) => characterIds[(i + k) % characterIds.length]!);
          const group = await api<{ id: string }>("/api/conversations", owner, { method: "POST", body: { characterIds: cast } });
          await api(`/api/conversations/${group.id}`, owner, { method: "PATCH", body: { replyOrder: "list" } });
          return group;
        })
      : [];
  if (groups.length > 0) console.log(`created ${count} group chats of ${castSize} characters (list order)`);
  const newRoom = (conversationId: string, i: number, repliesPerMessage: number): Room => ({
    conversationId,
    repliesPerMessage,
    initialReplies: 0,
    people: roomPeople(i),
    members: [],
    samples: new Map(),
  });
  const singles = conversations.map((c, i) => newRoom(c.id, i, 1));
  const groupRooms = groups.map((g, i) => newRoom(g.id, i, castSize));
  const rooms = [...singles, ...groupRooms];
  if (roomSize > 1) {
    stage = "inviting people";
    t = performance.now();
    await pool(rooms, 16, (room) => invite(room.conversationId, room.people[0]!, room.people.slice(1)));
    console.log(`${roomSize - 1} people joined each of ${rooms.length} rooms by invitation in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  stage = "opening WebSockets";

  t = performance.now();
  const members = await pool(
    rooms.flatMap((room) => room.people.map((_, index) => ({ room, index }))),
    64,
    ({ room, index }) => open(room, index, { port: socketPort, bare: values.bare, probe }),
  );
  await Promise.all(members.map((m) => m.joined));
  await pool(rooms, 16, async (room) => {
    const messages = await api<{ isUser: boolean }[]>(`/api/conversations/${room.conversationId}/messages`, room.people[0]!);
    room.initialReplies = messages.filter((m) => !m.isUser).length;
  });
  console.log(`opened and joined ${members.length} WebSockets in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const messageText = (i: number, turn: number) =>
    probe ? "   " : `Hello! This is bench message ${turn + 1} of person ${i}. Tell me about your day.`;
  const uniform = (min: number, max: number) => min + Math.random() * (max - min);
  const sendStart = performance.now();
  stage = "chatting";
  // The bench's own event loop: a frame is timed when this process gets to it, so its delays are in every figure.
  const clientDelay = monitorEventLoopDelay({ resolution: 10 });
  clientDelay.enable();
  if (burst) {
    // Every person's message in the same instant.
    await Promise.all(members.map((member, i) => exchange(member, messageText(i, 0))));
  } else {
    // Every person is a closed loop of their own: in a shared room the senders take turns as their think times fall.
    await Promise.all(
      members.map(async (member, i) => {
        await sleep(uniform(0, thinkMax));
        for (let turn = 0; turn < turns; turn++) {
          if (turn > 0) await sleep(uniform(thinkMin, thinkMax));
          await exchange(member, messageText(i, turn));
        }
      }),
    );
  }
  const wall = performance.now() - sendStart;
  clientDelay.disable();
  // Let late duplicates show up, if any.
  await sleep(500);
  for (const member of members) member.ws.close(1000, "bench done");

  // Stored state: the greetings, then each message not refused and the replies to it, each exactly once.
  stage = "reading the stored messages";
  const stored = await pool(rooms, 16, async (room) => {
    const messages = await api<{ isUser: boolean; clientId: string | null }[]>(`/api/conversations/${room.conversationId}/messages`, room.people[0]!);
    const perClientId = new Map<string, number>();
    for (const m of messages) if (m.clientId) perClientId.set(m.clientId, (perClientId.get(m.clientId) ?? 0) + 1);
    return { perClientId, replies: messages.filter((m) => !m.isUser).length - room.initialReplies }; // minus the greetings
  });

  let sent = 0;
  let lostMessages = 0;
  let lostReceipts = 0;
  let duplicated = 0;
  let refusedBusy = 0;
  let failed = 0;
  rooms.forEach((room, i) => {
    const s = stored[i]!;
    const samples = [...room.samples.values()];
    sent += samples.length;
    if (room.members.some((m) => m.errors.length > 0)) failed += 1;
    if (probe) return;
    let accepted = 0;
    for (const sample of samples) {
      const copies = s.perClientId.get(sample.clientId) ?? 0;
      const savedFrames = room.members.map((m) => m.saved.get(sample.clientId) ?? 0);
      if (sample.refusal === "busy") {
        refusedBusy += 1;
        // Refused, so nowhere: a stored copy or a `message_saved` of it is one too many.
        if (copies > 0 || savedFrames.some((n) => n > 0)) duplicated += 1;
        continue;
      }
      accepted += 1;
      if (savedFrames[sample.sender] === 0 || sample.responseAt === null || copies === 0) lostMessages += 1;
      if (copies > 1 || savedFrames.some((n) => n > 1)) duplicated += 1;
      // Every other member's socket gets the message once.
      if (sample.refusal === null) {
        lostReceipts += room.members.filter((m, k) => k !== sample.sender && savedFrames[k] === 0).length;
      }
    }
    // Replies a socket saw twice, and stored replies beyond a full round per accepted message
    // (rounds may answer several messages at once, never fewer than one).
    for (const member of room.members) duplicated += [...member.responses.values()].filter((n) => n > 1).length;
    duplicated += Math.max(0, s.replies - accepted * room.repliesPerMessage);
  });
  const answeredSamples = (from: Room[]) => from.flatMap((room) => [...room.samples.values()]).filter((s) => s.refusal === null);
  const samples = answeredSamples(singles);
  const groupSamples = answeredSamples(groupRooms);
  const since = (pick: (s: Sample) => number | null, from: Sample[] = samples) =>
    from.filter((s) => pick(s) !== null).map((s) => pick(s)! - s.sentAt).sort((a, b) => a - b);
  const row = (label: string, xs: number[]) =>
    `| ${label.padEnd(48)} | ${percentile(xs, 50).toFixed(1).padStart(8)} | ${percentile(xs, 95).toFixed(1).padStart(8)} | ${(xs.at(-1) ?? Number.NaN).toFixed(1).padStart(8)} |`;
  // Shared rooms: from each message's send to each other member's `message_saved`, over every receipt of every room.
  const fanout = [...samples, ...groupSamples].flatMap((s) => [...s.receipts.values()].map((at) => at - s.sentAt)).sort((a, b) => a - b);
  // The broadcast's own share: each receipt from the sender's own `message_saved` (negative when another socket got it first).
  const spread = [...samples, ...groupSamples]
    .filter((s) => s.savedAt !== null)
    .flatMap((s) => [...s.receipts.values()].map((at) => at - s.savedAt!))
    .sort((a, b) => a - b);

  const load = burst
    ? `one ${probe ? "probe (a message of spaces, refused at once)" : "message"} per person, all sent in the same instant`
    : `${turns} messages per person, think time ${thinkMin}-${thinkMax} ms, ${(sent / (wall / 1000)).toFixed(0)} messages/s on average`;
  const shape = roomSize > 1 ? `shared rooms of ${roomSize} people (${people.length.toLocaleString("en-US")} people)` : "concurrent conversations";
  console.log(
    `\nN = ${count.toLocaleString("en-US")} ${shape} (${values.bare ? "bare /ws + join" : "/ws?conversationId="}); ` +
      `${load}; offline model at ${values["word-delay-ms"]} ms/word${values["context-tokens"] ? `; AI_CONTEXT_TOKENS ${values["context-tokens"]}` : ""}\n`,
  );
  console.log(`| ${"ms from chat_message sent".padEnd(48)} |      p50 |      p95 |      max |`);
  console.log(`|${"-".repeat(50)}|---------:|---------:|---------:|`);
  if (probe) {
    const refused = rooms.flatMap((room) => [...room.samples.values()]);
    console.log(row("to the error frame", since((s) => s.refusedAt, refused)));
  } else {
    console.log(row("to message_saved (sender)", since((s) => s.savedAt)));
    if (roomSize > 1) {
      console.log(row(`to every other member's message_saved (fan-out)`, fanout));
      console.log(row("  of which after the sender's own", spread));
    }
    console.log(row("to first character_response_delta", since((s) => s.firstDeltaAt)));
    if (roomSize > 1) {
      console.log(row("  the same, room idle when saved", since((s) => s.firstDeltaAt, samples.filter((s) => !s.queued))));
    }
    console.log(row("to character_response (round's end)", since((s) => s.responseAt)));
  }
  const handoffs = groupSamples.flatMap((s) => s.handoffs).sort((a, b) => a - b);
  if (groupRooms.length > 0) {
    console.log(row(`group of ${castSize}: to message_saved`, since((s) => s.savedAt, groupSamples)));
    console.log(row(`group of ${castSize}: to the round's first delta`, since((s) => s.firstDeltaAt, groupSamples)));
    console.log(row(`group of ${castSize}: to the round's end`, since((s) => s.responseAt, groupSamples)));
    console.log(row("group: reply end → next first delta", handoffs));
  }
  const first = since((s) => s.firstDeltaAt);
  const lost = lostMessages + lostReceipts;
  const queued = [...samples, ...groupSamples].filter((s) => s.queued).length;
  console.log(
    `\nmessages sent: ${sent}; rounds ended: ${samples.filter((s) => s.responseAt !== null).length}; ` +
      (roomSize > 1 ? `refused (busy): ${refusedBusy}; stored while the room was not idle: ${queued}; fan-out receipts: ${fanout.length}; ` : "") +
      `conversations with errors: ${failed}; lost: ${lost}${roomSize > 1 ? ` (messages ${lostMessages}, receipts ${lostReceipts})` : ""}; ` +
      `duplicated: ${duplicated}; wall ${(wall / 1000).toFixed(1)} s`,
  );
  // Nanoseconds → ms, past the 10 ms sampling resolution.
  const delayMs = (ns: number) => (Math.max(0, ns / 1e6 - 10)).toFixed(1);
  console.log(`the bench client's own event-loop delay (in every figure above): p50 ${delayMs(clientDelay.percentile(50))} ms, p95 ${delayMs(clientDelay.percentile(95))} ms, max ${delayMs(clientDelay.max)} ms`);
  if (!probe) {
    if (roomSize > 1) {
      const ok = lost === 0 && duplicated === 0 && fanout.length > 0 && percentile(fanout, 95) <= 50;
      console.log(`target (p95 fan-out ≤ 50 ms, 0 lost, 0 duplicated): ${ok ? "met" : "NOT met"}`);
    } else {
      const ok = lost === 0 && duplicated === 0 && percentile(first, 95) <= 50;
      console.log(`target (p95 first delta ≤ 50 ms, 0 lost, 0 duplicated): ${ok ? "met" : "NOT met"}`);
    }
    if (groupRooms.length > 0) {
      const handoffOk = handoffs.length > 0 && percentile(handoffs, 95) <= 50;
      console.log(`group target (p95 reply end → next first delta ≤ 50 ms; ${handoffs.length} hand-overs): ${handoffOk ? "met" : "NOT met"}`);
    }
  }
  if (failed > 0) console.log(`first error: ${members.find((m) => m.errors.length > 0)?.errors[0]}`);
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
