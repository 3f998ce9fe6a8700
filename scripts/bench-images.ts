/**
 * `npm run bench:images` (DESIGN.md "Pictures"):
 *
 * 1. The offline painter (ai/images/offline-painter.ts) in this process:
 *    time to paint and encode one 768 × 768 PNG, over `--pictures` prompts
 *    of every kind it reads (sea, city, room, abstract …) after three
 *    warm-ups; p50, p95 and the largest, ms, and the mean file size. The
 *    target is p95 ≤ 300 ms, so tests that paint stay fast.
 * 2. Through the room: `wrangler dev --local` (IMAGE_PROVIDER=offline) on a
 *    fresh state of its own, one person (a session written straight into
 *    the local D1 file, as scripts/bench-voice.ts does), a character and a
 *    conversation; then `imagine` with a prompt over a real WebSocket,
 *    `--repeat` times (within the allowance of 10 a minute: the bench
 *    spaces them), timing `imagine` → `image_started` and `imagine` →
 *    `image_ready`, ms.
 *
 * Flags: --pictures N (default 40), --repeat N (default 8), --port P
 * (default: a free one), --state-dir DIR (default /dev/shm/fabled-bench-images
 * where /dev/shm exists, else .bench/images-state; wiped first).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { paintPng } from "../ai/images/offline-painter.ts";
import { freePort, freshStateWithPerson, jsonApi, percentile, timed, waitForServer } from "./lib/bench-tools.ts";
import { devArgs } from "./lib/dev-args.ts";
import { ROOT, toolEnv } from "./lib/tools.ts";

const { values } = parseArgs({
  options: {
    pictures: { type: "string", default: "40" },
    repeat: { type: "string", default: "8" },
    port: { type: "string" },
    "state-dir": { type: "string" },
  },
});
const pictures = Number(values.pictures);
const repeat = Number(values.repeat);
if (!Number.isInteger(pictures) || pictures < 1) throw new Error("--pictures must be a positive integer");
if (!Number.isInteger(repeat) || repeat < 1 || repeat > 10) throw new Error("--repeat must be 1 to 10 (the allowance is 10 a minute)");

const SCENES = [
  "A night sea under the moon",
  "a knight in a crimson cloak before a castle at sunset",
  "a snowy mountain village at dawn",
  "neon city street in the rain at night",
  "a cosy tavern with a fire",
  "a forest in the mist",
  "desert dunes at midday",
  "the feeling of a forgotten song",
  "a girl in a meadow of flowers",
  "a volcano erupting over a burning plain",
];
const SIDE = 768;

function painterFigures(): void {
  for (let i = 0; i < 3; i++) paintPng(`warm-up ${i} ${SCENES[i]}`, SIDE);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < pictures; i++) {
    const prompt = `${SCENES[i % SCENES.length]}, take ${Math.floor(i / SCENES.length) + 1}`;
    let png: Uint8Array = new Uint8Array();
    times.push(timed(() => (png = paintPng(prompt, SIDE))));
    bytes += png.length;
  }
  times.sort((a, b) => a - b);
  console.log(`offline painter, ${pictures} pictures of ${SIDE} × ${SIDE} (PNG, fast-png), Node ${process.version}`);
  console.log(
    `  p50 ${percentile(times, 50).toFixed(1)} ms   p95 ${percentile(times, 95).toFixed(1)} ms   max ${times.at(-1)!.toFixed(1)} ms   mean size ${(bytes / pictures / 1024).toFixed(0)} KiB   (target p95 ≤ 300 ms)`,
  );
}

const port = values.port ?? (await freePort());
const base = `http://127.0.0.1:${port}`;
const stateDir = values["state-dir"] ?? (existsSync("/dev/shm") ? "/dev/shm/fabled-bench-images" : join(ROOT, ".bench", "images-state"));

/** Frames of one socket, awaited by type and request. */
function frames(ws: WebSocket) {
  const waiting = new Set<(frame: { type: string; requestId?: string }) => boolean>();
  ws.addEventListener("message", (event) => {
    const frame = JSON.parse(String(event.data)) as { type: string; requestId?: string };
    for (const waiter of waiting) if (waiter(frame)) waiting.delete(waiter);
  });
  return (type: string, requestId?: string, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
      waiting.add((frame) => {
        if (frame.type === "error" && frame.requestId === requestId) {
          clearTimeout(timer);
          reject(new Error(`error frame: ${JSON.stringify(frame)}`));
          return true;
        }
        if (frame.type !== type || (requestId !== undefined && frame.requestId !== requestId)) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
}

async function roomFigures(): Promise<void> {
  const cookie = await freshStateWithPerson(stateDir, "images");
  const api = jsonApi(base, cookie);
  const server = spawn("wrangler", devArgs(port, stateDir), { cwd: ROOT, env: toolEnv(), stdio: ["ignore", "ignore", "pipe"] });
  let serverErrors = "";
  server.stderr?.on("data", (chunk: Buffer) => {
    serverErrors = (serverErrors + chunk.toString()).slice(-4000);
  });
  try {
    await waitForServer(`${base}/api/voices`, server);
    const character = await api<{ id: number }>("/api/characters", {
      name: "Keeper",
      description: "A lighthouse keeper for the pictures benchmark.",
      personality: "Quiet and kind.",
      greeting: "The lamp is lit.",
    });
    const conversation = await api<{ id: string }>("/api/conversations/new", { characterId: character.id });
    // Node's WebSocket (undici) takes headers, though the DOM typings know only protocols.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?conversationId=${conversation.id}`, { headers: { cookie, origin: base } } as unknown as string[]);
    const next = frames(ws);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve(), { once: true });
      ws.addEventListener("error", () => reject(new Error("socket failed")), { once: true });
    });
    const synced = next("history_sync");
    ws.send(JSON.stringify({ type: "join", conversationId: conversation.id }));
    await synced;
    const started: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const requestId = randomUUID();
      const gotStarted = next("image_started", requestId);
      const gotReady = next("image_ready", requestId);
      const at = performance.now();
      ws.send(JSON.stringify({ type: "imagine", conversationId: conversation.id, prompt: SCENES[i % SCENES.length], clientId: requestId }));
      await gotStarted;
      started.push(performance.now() - at);
      await gotReady;
      ready.push(performance.now() - at);
    }
    ws.close();
    started.sort((a, b) => a - b);
    ready.sort((a, b) => a - b);
    console.log(`through the room (wrangler dev --local, offline painter), ${repeat} imagines with a prompt`);
    console.log(`  imagine → image_started   p50 ${percentile(started, 50).toFixed(0)} ms   max ${started.at(-1)!.toFixed(0)} ms`);
    console.log(`  imagine → image_ready     p50 ${percentile(ready, 50).toFixed(0)} ms   p95 ${percentile(ready, 95).toFixed(0)} ms   max ${ready.at(-1)!.toFixed(0)} ms (the first picture includes the painter's cold start)`);
  } catch (error) {
    console.error(serverErrors);
    throw error;
  } finally {
    server.kill("SIGTERM");
  }
}

painterFigures();
await roomFigures();
process.exit(0);
