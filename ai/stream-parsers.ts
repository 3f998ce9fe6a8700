/**
 * Streams of chat models into plain text pieces.
 *
 * - `parseServerSentEvents`: a `text/event-stream` body (WHATWG HTML
 *   "Server-sent events" §9.2.6: lines ending in LF, CR or CRLF; `data:`
 *   lines joined with LF; an empty line dispatches; lines starting with `:`
 *   are comments) into the `data` of each event.
 * - `textOfChunk`: one event's data into text. Both shapes the Workers AI
 *   binding streams are understood — its own `{"response": "…"}` and the
 *   OpenAI `chat.completion.chunk` with `choices[0].delta.content` that newer
 *   models emit — and `[DONE]` ends the stream.
 * - `usageOf`: the token counts a chunk (or a whole completion) reports in
 *   `usage: {prompt_tokens, completion_tokens}`: OpenAI's last chunk with
 *   `stream_options.include_usage` (`choices: []`; earlier chunks carry
 *   `usage: null`), llama.cpp's and vLLM's the same, and Workers AI's last
 *   `{"response": "", "usage": {…}}` event.
 */
import type { ReplyUsage } from "../schema/chat.ts";

/** A stream that broke or said something we cannot read. The message is for logs, not people. */
export class ChatStreamError extends Error {
  override readonly name = "ChatStreamError";
}

/** The data of each server-sent event, in order. Throws when the byte stream errors. */
export async function* parseServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let data: string[] = [];
  /** Handles one line; returns the data of an event it completes. */
  const line = (text: string): string | null => {
    if (text === "") {
      const event = data.length > 0 ? data.join("\n") : null;
      data = [];
      return event;
    }
    if (text.startsWith(":")) return null;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + 1);
    if (field === "data") data.push(value.startsWith(" ") ? value.slice(1) : value);
    return null;
  };
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      buffer += value;
      for (;;) {
        const end = /\r\n|\r|\n/.exec(buffer);
        // A CR at the very end may be the first half of a CRLF split across chunks.
        if (!end || (end[0] === "\r" && end.index === buffer.length - 1)) break;
        const event = line(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end[0].length);
        if (event !== null) yield event;
      }
    }
  } finally {
    // A consumer that stops early (a `stop`, a timeout) cancels the body, which closes the connection.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  // A stream may end without the final blank line.
  for (const rest of buffer.split(/\r\n|\r|\n/)) line(rest);
  if (data.length > 0) yield data.join("\n");
}

/** What one event's data says: text to add (maybe empty) and the tokens it reports, or the end of the reply. */
export type ChunkText = { done: true } | { done: false; text: string; usage?: ReplyUsage };

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

/**
 * The tokens a chunk or completion reports: its `usage.prompt_tokens` and
 * `usage.completion_tokens` (OpenAI "The chat completion chunk object",
 * `usage`), when both are whole numbers ≥ 0; else null (no `usage`, `usage:
 * null`, or counts we cannot trust).
 */
export function usageOf(chunk: unknown): ReplyUsage | null {
  const usage = (chunk as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null } | null)?.usage;
  if (typeof usage !== "object" || usage === null) return null;
  const { prompt_tokens: promptTokens, completion_tokens: completionTokens } = usage;
  return isCount(promptTokens) && isCount(completionTokens) ? { promptTokens, completionTokens } : null;
}

/**
 * Text of one streamed chunk: `[DONE]` ends; `{"response": "…"}` (Workers AI)
 * and `{"choices":[{"delta":{"content":"…"}}]}` (OpenAI chat completions) give
 * their text; usage-only and role-only chunks give "". A chunk reporting
 * tokens (`usageOf`) has them in `usage`. An `error` field or data that is
 * not JSON throws ChatStreamError.
 */
export function textOfChunk(data: string): ChunkText {
  const trimmed = data.trim();
  if (trimmed === "[DONE]") return { done: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw new ChatStreamError(`stream chunk is not JSON: ${trimmed.slice(0, 80)}`);
  }
  if (typeof parsed !== "object" || parsed === null) throw new ChatStreamError("stream chunk is not an object");
  const chunk = parsed as {
    response?: unknown;
    error?: unknown;
    choices?: { delta?: { content?: unknown }; text?: unknown; finish_reason?: unknown }[];
  };
  if (chunk.error !== undefined && chunk.error !== null) {
    const detail = typeof chunk.error === "string" ? chunk.error : JSON.stringify(chunk.error);
    throw new ChatStreamError(`model error: ${detail.slice(0, 200)}`);
  }
  const usage = usageOf(chunk);
  const withUsage = (text: string): ChunkText => (usage ? { done: false, text, usage } : { done: false, text });
  if (typeof chunk.response === "string") return withUsage(chunk.response);
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (choice) {
    if (typeof choice.delta?.content === "string") return withUsage(choice.delta.content);
    if (typeof choice.text === "string") return withUsage(choice.text);
  }
  return withUsage("");
}

/**
 * The text pieces of an SSE body of either shape, until `[DONE]` or the end
 * of the stream. Empty pieces are skipped. `onUsage` gets each report of
 * tokens (`usageOf`) when its chunk is read; the last is the request's.
 */
export async function* textOfEventStream(body: ReadableStream<Uint8Array>, onUsage?: (usage: ReplyUsage) => void): AsyncGenerator<string> {
  for await (const data of parseServerSentEvents(body)) {
    const chunk = textOfChunk(data);
    if (chunk.done) return;
    if (chunk.usage) onUsage?.(chunk.usage);
    if (chunk.text !== "") yield chunk.text;
  }
}
