/**
 * `npm run deploy`: builds the web app, applies migrations to the remote D1
 * database, and deploys the Worker (README.md "Deploy to Cloudflare").
 *
 * Unless wrangler.toml sets `SPEECH_PROVIDER = "offline"`, the offline
 * synthesizer's eSpeak NG package (an 18 MB `.wasm`) is replaced by a
 * stand-in that refuses (ai/speech/offline-speech-absent.ts), keeping the
 * upload within Workers' script size limit (docs/decisions/0022-voices.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, run } from "./lib/tools.ts";

const offlineSpeech = /^\s*SPEECH_PROVIDER\s*=\s*"offline"/m.test(readFileSync(join(ROOT, "wrangler.toml"), "utf8"));
const absent = "./ai/speech/offline-speech-absent.ts";
const aliases = offlineSpeech ? [] : ["--alias", `#offline-speech:${absent}`];

await run("vite", ["build"]);
await run("wrangler", ["d1", "migrations", "apply", "DB", "--remote"]);
await run("wrangler", ["deploy", ...aliases]);
