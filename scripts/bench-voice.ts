/**
 * `npm run bench:voice`: how fast a reply is read aloud by the offline
 * synthesizer (eSpeak NG inside the Worker, DESIGN.md "Voices").
 *
 * Starts the app with `wrangler dev --local` (SPEECH_PROVIDER=offline) on a
 * fresh local state of its own, makes one person (a session written straight
 * into the local D1 file, as scripts/bench-chat.ts does), a character whose
 * greeting is a 60-word reply, and a conversation; then asks
 * `GET /api/conversations/{id}/messages/{messageId}/speech` for it:
 *
 * - cold: the first request of the server (the 18 MB `.wasm` is compiled,
 *   then the words are spoken and stored in R2);
 * - warm, not cached: another 60-word reply (the engine loaded);
 * - cached: the same reply again, `--repeat` times (median), from R2;
 * - long, streamed: a reply of the two above over and over, past the
 *   4,000 characters read aloud (cut at a sentence, about 4 minutes of
 *   audio): its first byte comes after the first piece is spoken, not the
 *   last, and the WAV stays under 16 MB.
 *
 * Reported: time to the first audio byte (ms, from the request to the first
 * body chunk), the whole answer (ms), the audio's duration (s) and the
 * real-time factor (answer time ÷ audio duration; below 1 is faster than
 * real time). Flags: --port P (default: a free one), --repeat N (default 10),
 * --state-dir DIR (default /dev/shm/fabled-bench-voice where /dev/shm
 * exists, else .bench/voice-state; wiped first).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readWav, wavDurationMs } from "../ai/speech/wav.ts";
import { freePort, freshStateWithPerson, jsonApi, waitForServer } from "./lib/bench-tools.ts";
import { devArgs } from "./lib/dev-args.ts";
import { ROOT, toolEnv } from "./lib/tools.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    repeat: { type: "string", default: "10" },
    "state-dir": { type: "string" },
  },
});
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat must be a positive integer");

const port = values.port ?? (await freePort());
const base = `http://127.0.0.1:${port}`;
const stateDir = values["state-dir"] ?? (existsSync("/dev/shm") ? "/dev/shm/fabled-bench-voice" : join(ROOT, ".bench", "voice-state"));

/** Sixty words each, as a character's reply might be. */
const REPLIES = [
  "The lamps along the harbour are lit one by one as the fog rolls in. I have walked this path every evening for twenty years, and I still count the ships before I sleep. Tonight there are seven, and one of them flies a flag I have never seen. Stay close, keep your voice low, and tell me what you know.",
  "Morning comes slowly in the mountains, so we will wait for the light before we cross the ridge. Eat something warm and check your boots twice. The path is narrow past the old shrine, and the wind there can push a grown man off his feet. If you hear bells, do not turn around. Just keep walking.",
];

/** A reply's greeting message: character, conversation, the message id. */
async function replyOf(greeting: string): Promise<string> {
  const character = await api<{ id: number }>("/api/characters", {
    name: "Lamplighter",
    description: "A lamplighter for the voice benchmark.",
    personality: "Calm and careful.",
    greeting,
  });
  const conversation = await api<{ id: string }>("/api/conversations/new", { characterId: character.id });
  const [message] = await api<{ id: string }[]>(`/api/conversations/${conversation.id}/messages`);
  return `/api/conversations/${conversation.id}/messages/${message!.id}/speech`;
}

/** Times one speech request: first byte and whole answer, ms; the audio's duration, s. */
async function timeSpeech(cookie: string, path: string): Promise<{ firstByteMs: number; totalMs: number; audioS: number }> {
  const start = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { cookie } });
  if (!res.ok || !res.body) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let firstByteMs = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (chunks.length === 0) firstByteMs = performance.now() - start;
    chunks.push(value);
  }
  const totalMs = performance.now() - start;
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { firstByteMs, totalMs, audioS: wavDurationMs(readWav(bytes)) / 1000 };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const row = (label: string, r: { firstByteMs: number; totalMs: number; audioS: number }) =>
  console.log(
    `${label.padEnd(22)} first byte ${r.firstByteMs.toFixed(0).padStart(6)} ms   whole ${r.totalMs.toFixed(0).padStart(6)} ms   audio ${r.audioS.toFixed(1)} s   real-time factor ${(r.totalMs / 1000 / r.audioS).toFixed(3)}`,
  );

const cookie = await freshStateWithPerson(stateDir, "voice");
const api = jsonApi(base, cookie);
const server = spawn("wrangler", devArgs(port, stateDir), { cwd: ROOT, env: toolEnv(), stdio: ["ignore", "ignore", "pipe"] });
let serverErrors = "";
server.stderr?.on("data", (chunk: Buffer) => {
  serverErrors = (serverErrors + chunk.toString()).slice(-4000);
});
try {
  await waitForServer(`${base}/api/voices`, server);
  const [first, second] = [await replyOf(REPLIES[0]!), await replyOf(REPLIES[1]!)];
  console.log(`offline synthesizer (eSpeak NG in the Worker), 60-word replies, wrangler dev on ${base}`);
  row("cold (first request)", await timeSpeech(cookie, first));
  row("warm, not cached", await timeSpeech(cookie, second));
  const cached = [];
  for (let i = 0; i < repeat; i++) cached.push(await timeSpeech(cookie, first));
  row(`cached (median of ${repeat})`, {
    firstByteMs: median(cached.map((r) => r.firstByteMs)),
    totalMs: median(cached.map((r) => r.totalMs)),
    audioS: cached[0]!.audioS,
  });
  const long = await replyOf(`${REPLIES[0]} ${REPLIES[1]} `.repeat(8).trim());
  row("long, streamed", await timeSpeech(cookie, long));
} catch (error) {
  console.error(serverErrors);
  throw error;
} finally {
  server.kill();
}
