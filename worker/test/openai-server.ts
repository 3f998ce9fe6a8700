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
import { handleChat } from "./openai-server/chat.ts";
import { handleEmbeddings, handleImages, handleSpeech, handleTranscription, pictures } from "./openai-server/media.ts";
import { handleModeration } from "./openai-server/moderations.ts";

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

/** The only key the server accepts (`Authorization: Bearer test-key`). */
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

/** Redirects, pictures, the key check and `/v1/models` here; each endpoint's body is its handler's (./openai-server/). */
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
  await handleChat(req, res);
}

/** Starts the server and the second origin on free loopback ports and provides their addresses; resolves to the teardown that closes both. */
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
