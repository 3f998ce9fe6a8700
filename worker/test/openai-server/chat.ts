/**
 * `POST /v1/chat/completions` of the loopback OpenAI-compatible server: the
 * models and the streaming described in worker/test/openai-server.ts's
 * docstring, and the `usage` it reports (chatUsage).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson, sleep } from "./http.ts";

/** The body of a chat completions request, as far as the stub reads it. */
export interface ChatRequest {
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

/** `POST /v1/chat/completions`: answers as the requested `model` does (see worker/test/openai-server.ts). */
export async function handleChat(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson<ChatRequest>(req);
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
