/**
 * `npm run bench:charx` (issue 37 "Import time and peak memory for a 50 MB
 * CharX"): writes a `.charx` of about `--mb` MB as RisuAI shapes one
 * (card.json at the root, an icon, emotions and backgrounds under
 * `assets/…`, each a real PNG of noise so nothing compresses it away), then
 * imports it `--repeat` times through `POST /api/characters/import` on
 * `wrangler dev --local` with a fresh state of its own (one person, the
 * session written straight into the local D1 file, as bench-images does).
 *
 * Prints, per import: the time from the first byte sent to the 201, ms; and
 * the app's workerd resident memory (VmRSS from /proc, sampled every 20 ms)
 * before and at its peak during the import, MB. The archive is read as it
 * streams (worker/lib/cards/card-import.ts), one file held at a time, so the
 * peak should stay far below the archive's size.
 *
 * Flags: --mb N (default 50), --repeat N (default 3), --port P (default: a
 * free one), --state-dir DIR (default /dev/shm/fabled-bench-charx where
 * /dev/shm exists, else .bench/charx-state; wiped first). Linux only (/proc).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { encode as encodePng } from "fast-png";
import { strToU8, type Zippable, zipSync } from "fflate";
import { freePort, freshStateWithPerson, waitForServer, workerdPids } from "./lib/bench-tools.ts";
import { devArgs } from "./lib/dev-args.ts";
import { ROOT, toolEnv } from "./lib/tools.ts";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "50" },
    repeat: { type: "string", default: "3" },
    port: { type: "string" },
    "state-dir": { type: "string" },
  },
});
const targetBytes = Number(values.mb) * 1024 * 1024;
const repeat = Number(values.repeat);
if (!(targetBytes > 0) || targetBytes > 200 * 1024 * 1024) throw new Error("--mb must be above 0 and at most 200");
if (!Number.isInteger(repeat) || repeat < 1) throw new Error("--repeat must be a positive integer");

/** Side of each picture, px: 1,024² RGBA noise is a 4 MiB PNG, well inside the avatar pixel limit. */
const SIDE = 1024;
const LABELS = ["neutral", "joy", "amusement", "sadness", "anger", "fear", "surprise", "love", "curiosity", "embarrassment", "pride", "relief"];

/** A PNG of `SIDE`² random pixels (deflate cannot shrink noise). */
function noisePng(): Uint8Array {
  return encodePng({ width: SIDE, height: SIDE, data: randomBytes(SIDE * SIDE * 4), channels: 4 });
}

/** The archive: card.json naming every asset by `embeded://`, then pictures until `targetBytes`. */
function writeCharx(): Uint8Array {
  const files: Zippable = {};
  const assets: { type: string; uri: string; name: string; ext: string }[] = [];
  let total = 0;
  for (let i = 0; total < targetBytes; i++) {
    const [type, name] = i === 0 ? ["icon", "main"] : i <= LABELS.length ? ["emotion", LABELS[i - 1]!] : ["background", `scene ${i - LABELS.length}`];
    const path = `assets/${type}/images/${name.replace(/ /g, "_")}.png`;
    const png = noisePng();
    files[path] = [png, { level: 0 }];
    assets.push({ type, uri: `embeded://${path}`, name, ext: "png" });
    total += png.length;
  }
  const card = {
    spec: "chara_card_v3",
    spec_version: "3.0",
    data: {
      name: "Ledger Keeper",
      description: "A keeper of a harbour ledger, for the CharX import benchmark.",
      personality: "Careful.",
      scenario: "A harbour office at dusk.",
      first_mes: "*The keeper looks up from the ledger.* Yes?",
      mes_example: "",
      creator_notes: "",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: [],
      tags: [],
      creator: "bench",
      character_version: "1",
      extensions: {},
      group_only_greetings: [],
      assets,
    },
  };
  files["card.json"] = strToU8(JSON.stringify(card));
  return zipSync(files);
}

const port = values.port ?? (await freePort());
const base = `http://127.0.0.1:${port}`;
const stateDir = values["state-dir"] ?? (existsSync("/dev/shm") ? "/dev/shm/fabled-bench-charx" : join(ROOT, ".bench", "charx-state"));

/** Resident memory of `pid`, bytes (0 once it is gone). */
function rss(pid: string): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const started = performance.now();
const charx = writeCharx();
console.log(`CharX of ${mb(charx.length)} MB written in ${(performance.now() - started).toFixed(0)} ms (${SIDE}² noise PNGs, stored without compression)`);

const cookie = await freshStateWithPerson(stateDir, "charx");
const server = spawn("wrangler", devArgs(port, stateDir), { cwd: ROOT, env: toolEnv(), stdio: ["ignore", "ignore", "pipe"] });
let serverErrors = "";
server.stderr?.on("data", (chunk: Buffer) => {
  serverErrors = (serverErrors + chunk.toString()).slice(-4000);
});
try {
  await waitForServer(`${base}/api/voices`, server);
  // The app's workerd is the larger of the two (the dev proxy holds no Worker state).
  const pids = workerdPids(server.pid!);
  if (pids.length === 0) throw new Error("workerd not found under wrangler dev (this bench reads Linux's /proc)");
  console.log(`POST /api/characters/import, ${repeat} times (wrangler dev --local; RSS of ${pids.length} workerd processes summed, sampled every 20 ms)`);
  for (let i = 0; i < repeat; i++) {
    const before = pids.reduce((sum, pid) => sum + rss(pid), 0);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, pids.reduce((sum, pid) => sum + rss(pid), 0));
    }, 20);
    const at = performance.now();
    const res = await fetch(`${base}/api/characters/import`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/zip" },
      body: charx as Uint8Array<ArrayBuffer>,
    });
    const body = (await res.json()) as { id?: number; assets?: unknown[]; error?: string };
    const ms = performance.now() - at;
    clearInterval(sampler);
    if (res.status !== 201) throw new Error(`import answered ${res.status}: ${JSON.stringify(body)}`);
    console.log(
      `  import ${i + 1}: ${ms.toFixed(0)} ms, ${body.assets?.length ?? 0} assets; workerd RSS ${mb(before)} MB before, ${mb(peak)} MB at peak (+${mb(peak - before)} MB)`,
    );
  }
} catch (error) {
  console.error(serverErrors);
  throw error;
} finally {
  server.kill("SIGTERM");
}
process.exit(0);
