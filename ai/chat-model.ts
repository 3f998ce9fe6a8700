/**
 * What every chat model is, apart from any provider (DESIGN.md "Chat
 * models"): the OpenAI-style prompt message it reads and the `ChatModel`
 * interface it implements. Types only, imported by the providers
 * (chat-models.ts, offline-model.ts), by prompt assembly
 * (durable-objects/prompt.ts) and by the room (durable-objects/room/), so
 * none of them imports another for a type.
 */
import type { ChatModelName, ReplyUsage } from "../schema/chat.ts";

/** One message of an OpenAI-style prompt. */
export interface PromptMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * A person's sampling settings (schema/model-connections.ts `ModelSettings`),
 * sent as the chat-completions parameters of the same meaning; left out: the
 * model's own default.
 */
export interface Sampling {
  temperature?: number;
  topP?: number;
  frequencyPenalty?: number;
  /** The reply ends before the first of these strings. */
  stop?: string[];
}

export interface ChatModelOptions {
  /** Longest reply, in tokens (`AI_MAX_TOKENS`, or the person's `maxTokens`). */
  maxTokens: number;
  /** The person's sampling settings, when they set any. */
  sampling?: Sampling;
  /** Aborts the request (a `stop`, a timeout). */
  signal?: AbortSignal;
  /**
   * How many versions of this reply were written before (a regenerate: 1 or
   * more; default 0). Sampling models vary on their own; the offline model,
   * which is deterministic, varies by it.
   */
  attempt?: number;
  /**
   * What the prompt asks for: a new `reply` (default), the `continue` of the
   * last reply, or a `summary` of the story. Hosted models read it from the
   * prompt itself; the offline model, which does not read instructions,
   * from here.
   */
  purpose?: "reply" | "continue" | "summary";
  /**
   * Stop sequences: the model ends its reply before writing any of them
   * (OpenAI's `stop`). Group chats name the other speakers here; the room
   * also cuts a reply at them, whatever the provider does.
   */
  stop?: string[];
  /**
   * Called with the tokens the request cost when the endpoint reports them
   * (OpenAI-compatible servers with `stream_options.include_usage`, Workers
   * AI): after the last text piece, before the stream ends. Called again
   * only if the endpoint reports again (the last call holds the request's
   * count); never called when it reports nothing — nothing is estimated. A
   * consumer that stops reading early may not get it.
   */
  onUsage?: (usage: ReplyUsage) => void;
}

/**
 * A chat model streams its reply to a prompt as text pieces (tokens or
 * words), in order. Iterating may throw (ChatModelError, ChatStreamError, an
 * AbortError); the caller turns that into plain words for people.
 */
export interface ChatModel {
  readonly name: ChatModelName;
  stream(prompt: PromptMessage[], options: ChatModelOptions): AsyncIterable<string>;
}
