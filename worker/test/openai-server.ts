/**
 * Vitest global setup of the `worker` project (runs in Node, not workerd): a
 * real OpenAI-compatible chat completions and moderations server on
 * 127.0.0.1 (random free port) for the `openai` providers' tests. Its base URL is provided as
 * `openaiBaseUrl` and becomes the Worker's `OPENAI_BASE_URL`
 * (vitest.config.ts); the key it accepts is OPENAI_TEST_KEY.
 *
 * `POST /v1/chat/completions` streams server-sent events exactly as OpenAI
 * does (`chat.completion.chunk`s, a role-only first chunk, a finish chunk,
 * `data: [DONE]`), and behaves according to the requested `model`. Asked
 * with `stream_options: {include_usage: true}`, every chunk carries
 * `usage: null` and a last chunk before `[DONE]` has `choices: []` and
 * `usage: {prompt_tokens, completion_tokens, total_tokens}` (as OpenAI
 * does): the prompt's tokens are the words of every message's content, the
 * completion's the pieces streamed (chatUsage). Models:
 *
 * - `echo`: "Echo: {last user message} ({n} messages, max_tokens {m})",
 *   word by word, events split across TCP writes;
 * - `echo-crlf`: the same with CRLF line endings;
 * - `recall`: "Recall: {last assistant message}" (what the prompt says the
 *   character said last), word by word;
 * - `prompt`: the request's `messages` as JSON text, in one piece (what the
 *   model was sent: tests read the stored reply to see the prompt);
 * - `slow`: "one two three …" one word every 100 ms, 40 words;
 * - `broken`: two words, then the connection is destroyed;
 * - `error-500`: HTTP 500 with an OpenAI error body;
 * - `error-400`: HTTP 400 with an OpenAI error body, whatever the request;
 * - `error-chunk`: a chunk carrying an `error` object;
 * - `hang`: headers, then nothing until the client gives up;
 * - `json`: a plain (non-streamed) completion, with its `usage`;
 * - `params`: the request's sampling parameters as JSON text, in one piece
 *   (`{max_tokens, temperature, top_p, frequency_penalty, stop}`: tests of a
 *   person's settings read what the endpoint was sent);
 * - `garbage`: a 200 event stream whose data is not JSON;
 * - `no-usage`: like `echo`, but never reports usage, whatever it is asked
 *   (as older servers do);
 * - `no-stream-options` (and any `no-stream-options-…`, so a test can be an
 *   endpoint no other test has used): 400 with OpenAI's "Unrecognized
 *   request argument supplied: stream_options" when the request has
 *   `stream_options`, else like `echo` without usage (servers that refuse
 *   the field).
 *
 * `GET /v1/models` lists those model names in OpenAI's `{object: "list",
 * data: [{id, object: "model", owned_by}]}` (OPENAI_TEST_MODELS).
 *
 * A request with another key answers 401 with OpenAI's wording, which
 * quotes the key it was given ("Incorrect API key provided: …"): tests check
 * Fabled never passes that text on.
 *
 * Any path under `/redirect-private/` answers `307` to
 * `http://169.254.169.254/latest/meta-data/` (the cloud metadata address):
 * a base URL of `{origin}/redirect-private/v1` tests that redirects to
 * private hosts are refused.
 *
 * Redirects to another origin (the key must not follow, issue 42): a path
 * `/redirect-other/{token}/…` answers `307` to the same path under
 * `/record/{token}/…` on a second loopback server (another port: another
 * origin, provided as `openaiOtherOrigin`), which records every request it
 * gets (`{method, path, authorization, body}`) and answers as an endpoint
 * would (`/models` lists a model named "stolen"; anything else 200 `{}`);
 * `GET {other origin}/__test/received/{token}` lists what it recorded.
 * `/redirect-same/…` answers `307` to the same path without that prefix on
 * this server (a same-origin redirect, which keeps the key).
 *
 * `POST /v1/images/generations` (`{model, prompt, n, size}`) answers as
 * OpenAI does, by `model`: `b64` a `{data: [{b64_json}]}` PNG of the size
 * asked (painted by the offline painter, so the prompt shows), `url` a
 * `{data: [{url}]}` naming `GET /v1/files/{name}.png` on this server,
 * `refused` 400 with OpenAI's `content_policy_violation` body, `error-500`
 * a 500, `empty` `{data: []}`, `hang` headers and then nothing.
 *
 * `POST /v1/moderations` (`{ model, input }`, input a string or an array of
 * strings) answers in OpenAI's moderation shape — `{ id, model, results: [{
 * flagged, categories, category_scores, category_applied_input_types }] }`,
 * one result per input, all 13 `omni-moderation` categories — deciding by
 * markers in the input (OPENAI_MODERATION_MARKERS):
 *
 * - `MOD-MINORS`: `sexual` and `sexual/minors` flagged;
 * - `MOD-HATE`: `hate` flagged;
 * - `MOD-FLAG:<category>` (e.g. `MOD-FLAG:self-harm/intent`): that category
 *   flagged, one marker per category;
 * - `MOD-NEW`: flagged through a category OpenAI does not have (`weapons`),
 *   as a newer model might answer;
 * - `MOD-500`: HTTP 500 with an OpenAI error body;
 * - `MOD-MALFORMED`: 200 with `results: []`;
 * - anything else: not flagged.
 *
 * `POST /v1/audio/speech` answers an "MP3" of `ID3` + the request's JSON;
 * `POST /v1/audio/transcriptions` answers `{text}` naming the file's size,
 * name, type and the model (see handleSpeech, handleTranscription); model
 * `error-500` makes either answer 500.
 *
 * `POST /v1/embeddings` (`{model, input}`, input a string or a list)
 * answers `{object: "list", data: [{object: "embedding", index,
 * embedding}], model}` with the rows in REVERSE input order (clients must
 * sort by `index`); each embedding has 8 dimensions, the counts of the
 * letters a–h in its input (handleEmbeddings). Model `error-500` answers
 * 500; model `short` answers one row fewer than asked.
 *
 * The response's `model` is `omni-moderation-2024-09-26` for
 * `omni-moderation-latest` (as OpenAI answers), else the requested model.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { paintPng } from "../../ai/images/offline-painter.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback OpenAI-compatible server, `http://127.0.0.1:<port>/v1`. */
    openaiBaseUrl: string;
    /** Origin of the second loopback server that records what reaches it, `http://127.0.0.1:<port>`. */
    openaiOtherOrigin: string;
  }
}

/** One request the other origin received. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

export const OPENAI_TEST_KEY = "test-key";

/** What `GET /v1/models` lists. */
export const OPENAI_TEST_MODELS = [
  "echo",
  "echo-crlf",
  "recall",
  "prompt",
  "slow",
  "broken",
  "error-500",
  "error-400",
  "error-chunk",
  "hang",
  "json",
  "params",
  "garbage",
  "no-usage",
  "no-stream-options",
];

interface ChatRequest {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  frequency_penalty?: number;
  stop?: string[];
  stream_options?: { include_usage?: boolean };
  messages?: { role: string; content: string }[];
}

/** How many tokens the stub counts: the words (runs of non-space) of `text`. */
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * The `usage` the stub reports for `request` and a completion of
 * `completionTokens` pieces: prompt tokens are the words of every message's
 * content; `total_tokens` their sum.
 */
export function chatUsage(request: ChatRequest, completionTokens: number) {
  const promptTokens = (request.messages ?? []).reduce((sum, m) => sum + wordCount(String(m.content)), 0);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** A `chat.completion.chunk`; `usage` present (null, as OpenAI sends before the last chunk) when the request asked for it. */
function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null, usage?: null): string {
  return JSON.stringify({
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: "test",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage === null ? { usage } : {}),
  });
}

async function readJson<T = ChatRequest>(req: IncomingMessage): Promise<T | null> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
  } catch {
    return null;
  }
}

/** The categories of OpenAI's `omni-moderation` models, in the order its responses list them. */
const MODERATION_CATEGORIES = [
  "harassment",
  "harassment/threatening",
  "hate",
  "hate/threatening",
  "illicit",
  "illicit/violent",
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
  "sexual",
  "sexual/minors",
  "violence",
  "violence/graphic",
];

/** Input markers of `POST /v1/moderations` (see the file's docstring). */
const OPENAI_MODERATION_MARKERS = {
  minors: "MOD-MINORS",
  hate: "MOD-HATE",
  flag: "MOD-FLAG:",
  newCategory: "MOD-NEW",
  serverError: "MOD-500",
  malformed: "MOD-MALFORMED",
} as const;

/** One moderation result for `text`, in OpenAI's shape. */
function moderationResult(text: string) {
  const flagged = new Set<string>();
  if (text.includes(OPENAI_MODERATION_MARKERS.minors)) flagged.add("sexual").add("sexual/minors");
  if (text.includes(OPENAI_MODERATION_MARKERS.hate)) flagged.add("hate");
  for (const match of text.matchAll(/MOD-FLAG:([a-z/-]+)/g)) flagged.add(match[1]!);
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  const inputTypes: Record<string, string[]> = {};
  for (const name of MODERATION_CATEGORIES) {
    categories[name] = flagged.has(name);
    scores[name] = flagged.has(name) ? 0.97 : 0.0001;
    inputTypes[name] = ["text"];
  }
  if (text.includes(OPENAI_MODERATION_MARKERS.newCategory)) {
    categories.weapons = true;
    scores.weapons = 0.95;
    inputTypes.weapons = ["text"];
    flagged.add("weapons");
  }
  return { flagged: flagged.size > 0, categories, category_scores: scores, category_applied_input_types: inputTypes };
}

async function handleModeration(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson<{ model?: string; input?: unknown }>(req);
  const input = body?.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((t) => typeof t === "string") ? (input as string[]) : null;
  if (!texts) {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad body" } }));
    return;
  }
  if (texts.some((t) => t.includes(OPENAI_MODERATION_MARKERS.serverError))) {
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "The server had an error", type: "server_error" } }));
    return;
  }
  const model = !body?.model || body.model === "omni-moderation-latest" ? "omni-moderation-2024-09-26" : body.model;
  const malformed = texts.some((t) => t.includes(OPENAI_MODERATION_MARKERS.malformed));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `modr-${Math.random().toString(36).slice(2)}`,
      model,
      results: malformed ? [] : texts.map(moderationResult),
    }),
  );
}

/**
 * Streams `words` as chunks, then the finish chunk and `[DONE]`; with
 * `usageOf` (the request asked for usage), `usage: null` on every chunk and a
 * last `choices: []` chunk with the usage of the words sent.
 */
async function streamWords(
  res: ServerResponse,
  words: string[],
  options: { eol?: string; delayMs?: number; split?: boolean; usageOf?: ChatRequest } = {},
) {
  const eol = options.eol ?? "\n";
  const nullUsage = options.usageOf ? null : undefined;
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = async (data: string) => {
    const text = `data: ${data}${eol}${eol}`;
    if (options.split) {
      // One event over two TCP writes, cut inside the JSON (and inside the blank line).
      const cut = Math.max(1, text.length - eol.length - 3);
      res.write(text.slice(0, cut));
      await sleep(1);
      res.write(text.slice(cut));
    } else {
      res.write(text);
    }
  };
  await event(chunk(id, { role: "assistant", content: "" }, null, nullUsage));
  res.write(`: keep-alive comment${eol}${eol}`);
  for (const [i, word] of words.entries()) {
    if (res.destroyed) return;
    await event(chunk(id, { content: i === 0 ? word : ` ${word}` }, null, nullUsage));
    if (options.delayMs) await sleep(options.delayMs);
  }
  await event(chunk(id, {}, "stop", nullUsage));
  if (options.usageOf) {
    const created = Math.floor(Date.now() / 1000);
    await event(JSON.stringify({ id, object: "chat.completion.chunk", created, model: "test", choices: [], usage: chatUsage(options.usageOf, words.length) }));
  }
  await event("[DONE]");
  res.end();
}

/**
 * `POST /v1/audio/speech` (`{model, input, voice, response_format}`): an
 * "MP3" whose bytes are `ID3` and then the request as JSON text, so tests see
 * what was asked; model `error-500` answers 500.
 */
async function handleSpeech(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson<{ model?: string; input?: string; voice?: string; response_format?: string }>(req);
  if (!body || typeof body.input !== "string" || typeof body.voice !== "string") {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad body" } }));
    return;
  }
  if (body.model === "error-500") {
    res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "speech failed" } }));
    return;
  }
  res.writeHead(200, { "content-type": "audio/mpeg" }).end(Buffer.concat([Buffer.from("ID3"), Buffer.from(JSON.stringify(body))]));
}

/**
 * `POST /v1/audio/transcriptions` (multipart: `file`, `model`,
 * `response_format`): `{text}` saying what arrived — " Heard {bytes} bytes
 * of {filename} ({content type}) with {model}. " (spaces as Whisper leaves
 * them); model `error-500` answers 500.
 */
async function handleTranscription(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const form = await new Response(Buffer.concat(parts), { headers: { "content-type": req.headers["content-type"] ?? "" } })
    .formData()
    .catch(() => null);
  const file = form?.get("file");
  const model = form?.get("model");
  if (!form || !(file instanceof File) || typeof model !== "string") {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad form" } }));
    return;
  }
  if (model === "error-500") {
    res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "transcription failed" } }));
    return;
  }
  const text = ` Heard ${file.size} bytes of ${file.name} (${file.type}) with ${model}. `;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text }));
}

/** `POST /v1/embeddings`: see the file's docstring. */
async function handleEmbeddings(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson<{ model?: string; input?: unknown }>(req);
  const inputs = typeof body?.input === "string" ? [body.input] : Array.isArray(body?.input) ? (body.input as unknown[]) : null;
  if (!body || !inputs || !inputs.every((input) => typeof input === "string")) {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad body" } }));
    return;
  }
  if (body.model === "error-500") {
    res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "embedding failed" } }));
    return;
  }
  const rows = (inputs as string[]).map((input, index) => ({
    object: "embedding",
    index,
    embedding: [..."abcdefgh"].map((letter) => [...input.toLowerCase()].filter((char) => char === letter).length),
  }));
  if (body.model === "short") rows.pop();
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: rows.reverse(), model: body.model }));
}

/** Pictures answered by `url`, by file name (served once asked). */
const pictures = new Map<string, Uint8Array>();

/** `POST /v1/images/generations`: see the file's docstring. */
async function handleImages(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson<{ model?: string; prompt?: unknown; size?: unknown }>(req);
  const json = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
  if (!body || typeof body.prompt !== "string") return void json(400, { error: { message: "bad body" } });
  const side = Number(/^(\d+)x\d+$/.exec(String(body.size ?? ""))?.[1] ?? 256);
  switch (body.model) {
    case "refused":
      return void json(400, {
        error: { code: "content_policy_violation", message: "Your request was rejected as a result of our safety system.", param: null, type: "invalid_request_error" },
      });
    case "error-500":
      return void json(500, { error: { message: "image generation failed", type: "server_error" } });
    case "empty":
      return void json(200, { created: 1, data: [] });
    case "hang":
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders();
      return;
    case "url": {
      const name = `${pictures.size + 1}.png`;
      pictures.set(name, paintPng(body.prompt, side));
      const host = req.headers.host ?? "127.0.0.1";
      return void json(200, { created: 1, data: [{ url: `http://${host}/v1/files/${name}`, revised_prompt: body.prompt }] });
    }
    default:
      return void json(200, { created: 1, data: [{ b64_json: Buffer.from(paintPng(body.prompt, side)).toString("base64") }] });
  }
}

/** The second origin: records each request under its token (RecordedRequest) and answers like an endpoint. */
async function handleOtherOrigin(req: IncomingMessage, res: ServerResponse, received: Map<string, RecordedRequest[]>): Promise<void> {
  const path = req.url ?? "/";
  const listed = /^\/__test\/received\/([^/]+)$/.exec(path);
  if (req.method === "GET" && listed) {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(listed[1]!) ?? []));
    return;
  }
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const token = /^\/record\/([^/]+)\//.exec(path)?.[1] ?? "";
  const entry = { method: req.method ?? "", path, authorization: req.headers.authorization ?? null, body: Buffer.concat(parts).toString("utf8") };
  received.set(token, [...(received.get(token) ?? []), entry]);
  const body = path.endsWith("/models") ? { object: "list", data: [{ id: "stolen", object: "model", owned_by: "attacker" }] } : {};
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse, otherOrigin: string): Promise<void> {
  if (req.url?.startsWith("/redirect-private/")) {
    res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    return;
  }
  const other = /^\/redirect-other\/([^/]+)(\/.*)$/.exec(req.url ?? "");
  if (other) {
    res.writeHead(307, { location: `${otherOrigin}/record/${other[1]}${other[2]}` }).end();
    return;
  }
  if (req.url?.startsWith("/redirect-same/")) {
    res.writeHead(307, { location: req.url.slice("/redirect-same".length) }).end();
    return;
  }
  const file = req.method === "GET" ? /^\/v1\/files\/([\w.-]+)$/.exec(req.url ?? "")?.[1] : undefined;
  if (file) {
    const bytes = pictures.get(file);
    if (!bytes) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "image/png", "content-length": bytes.length }).end(bytes);
    return;
  }
  const listing = req.method === "GET" && req.url === "/v1/models";
  const known = ["/v1/chat/completions", "/v1/moderations", "/v1/audio/speech", "/v1/audio/transcriptions", "/v1/embeddings", "/v1/images/generations"];
  if (!listing && (req.method !== "POST" || !known.includes(req.url ?? ""))) {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
    return;
  }
  if (req.headers.authorization !== `Bearer ${OPENAI_TEST_KEY}`) {
    const given = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${given}. You can find your API key in your account.`, code: "invalid_api_key" } }));
    return;
  }
  if (listing) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", data: OPENAI_TEST_MODELS.map((id) => ({ id, object: "model", owned_by: "fabled-test" })) }));
    return;
  }
  if (req.url === "/v1/moderations") {
    await handleModeration(req, res);
    return;
  }
  if (req.url === "/v1/embeddings") {
    await handleEmbeddings(req, res);
    return;
  }
  if (req.url === "/v1/images/generations") {
    await handleImages(req, res);
    return;
  }
  if (req.url === "/v1/audio/speech") {
    await handleSpeech(req, res);
    return;
  }
  if (req.url === "/v1/audio/transcriptions") {
    await handleTranscription(req, res);
    return;
  }
  const body = await readJson(req);
  if (!body || !Array.isArray(body.messages)) {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad body" } }));
    return;
  }
  const lastUser = body.messages.findLast((m) => m.role === "user")?.content ?? "";
  const echo = `Echo: ${lastUser} (${body.messages.length} messages, max_tokens ${body.max_tokens})`.split(" ");
  // Asked for usage (OpenAI's `stream_options.include_usage`): reported at the end.
  const usageOf = body.stream_options?.include_usage === true ? body : undefined;
  const model = body.model?.startsWith("no-stream-options-") ? "no-stream-options" : body.model;
  switch (model) {
    case "echo":
      await streamWords(res, echo, { split: true, usageOf });
      return;
    case "echo-crlf":
      await streamWords(res, echo, { eol: "\r\n", split: true, usageOf });
      return;
    case "recall": {
      const lastReply = body.messages.findLast((m) => m.role === "assistant")?.content ?? "";
      await streamWords(res, `Recall: ${lastReply}`.split(" "), { usageOf });
      return;
    }
    case "prompt":
      await streamWords(res, [JSON.stringify(body.messages)], { usageOf });
      return;
    case "slow":
      await streamWords(res, Array.from({ length: 40 }, (_, i) => `word${i + 1}`), { delayMs: 100, usageOf });
      return;
    case "no-usage":
      await streamWords(res, echo);
      return;
    case "no-stream-options":
      if (body.stream_options !== undefined) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error", param: null, code: null },
          }),
        );
        return;
      }
      await streamWords(res, echo);
      return;
    case "broken": {
      const id = "chatcmpl-broken";
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${chunk(id, { content: "Half" })}\n\n`);
      res.write(`data: ${chunk(id, { content: " a" })}\n\n`);
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    case "error-500":
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "The server had an error", type: "server_error" } }));
      return;
    case "error-400":
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Invalid value for 'temperature'", type: "invalid_request_error", param: "temperature" } }));
      return;
    case "error-chunk":
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${chunk("x", { content: "Hi" })}\n\n`);
      res.write(`data: ${JSON.stringify({ error: { message: "overloaded", type: "server_error" } })}\n\n`);
      res.end();
      return;
    case "hang":
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      await new Promise<void>((resolve) => {
        req.socket.once("close", () => resolve());
        setTimeout(resolve, 30_000).unref();
      });
      res.end();
      return;
    case "params": {
      const { max_tokens, temperature, top_p, frequency_penalty, stop } = body;
      await streamWords(res, [JSON.stringify({ max_tokens, temperature, top_p, frequency_penalty, stop })], { usageOf });
      return;
    }
    case "garbage":
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end("data: this is not json\n\n");
      return;
    case "json":
      res.writeHead(200, { "content-type": "application/json" });
      // A whole completion reports its usage always (OpenAI does, whatever stream_options says).
      res.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: "assistant", content: echo.join(" ") }, finish_reason: "stop" }],
          usage: chatUsage(body, echo.length),
        }),
      );
      return;
    default:
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no model ${body.model}` } }));
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const received = new Map<string, RecordedRequest[]>();
  const otherServer = createServer((req, res) => {
    handleOtherOrigin(req, res, received).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => otherServer.listen(0, "127.0.0.1", resolve));
  const otherOrigin = `http://127.0.0.1:${(otherServer.address() as AddressInfo).port}`;
  const server = createServer((req, res) => {
    handle(req, res, otherOrigin).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("openaiBaseUrl", `http://127.0.0.1:${port}/v1`);
  project.provide("openaiOtherOrigin", otherOrigin);
  return async () => {
    for (const each of [server, otherServer]) {
      each.closeAllConnections();
      await new Promise<void>((resolve) => each.close(() => resolve()));
    }
  };
}
