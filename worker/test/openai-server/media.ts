/**
 * The media endpoints of the loopback OpenAI-compatible server: speech,
 * transcriptions, embeddings and image generations, with the pictures
 * answered by URL (see worker/test/openai-server.ts's docstring).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { paintPng } from "../../../ai/images/offline-painter.ts";
import { readJson } from "./http.ts";

/**
 * `POST /v1/audio/speech` (`{model, input, voice, response_format}`): an
 * "MP3" whose bytes are `ID3` and then the request as JSON text, so tests see
 * what was asked; model `error-500` answers 500.
 */
export async function handleSpeech(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
export async function handleTranscription(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
export async function handleEmbeddings(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
export const pictures = new Map<string, Uint8Array>();

/** `POST /v1/images/generations`: see the file's docstring. */
export async function handleImages(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
