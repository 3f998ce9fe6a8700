/**
 * The chat model providers and their stream parsing:
 * - `openai` against a real OpenAI-compatible server on loopback
 *   (worker/test/openai-server.ts): a streamed reply, CRLF events split
 *   across TCP writes, a plain JSON answer, a 500, a wrong key, a broken
 *   stream, an error chunk, a stop mid-stream;
 * - `workers-ai` against a stub of the AI binding (the outside world, passed
 *   to the constructor) streaming both shapes it emits;
 * - the SSE parser on awkward byte boundaries, the token watchdog, the
 *   offline model, and which provider AI_PROVIDER picks.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  type AiRunner,
  ChatModelError,
  chatModelName,
  createChatModel,
  OpenAIChatModel,
  WorkersAIChatModel,
  withTokenTimeout,
} from "./chat-models.ts";
import type { PromptMessage } from "./chat-model.ts";
import { OfflineChatModel, type OfflineCharacter, offlineReply } from "./offline-model.ts";
import { ChatStreamError, parseServerSentEvents, textOfChunk } from "./stream-parsers.ts";

const prompt: PromptMessage[] = [
  { role: "system", content: "You are Orla." },
  { role: "assistant", content: "Evening." },
  { role: "user", content: "Any ships tonight?" },
];

async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

const openai = (model: string, apiKey: string | undefined = env.OPENAI_API_KEY) =>
  new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL, apiKey, model });

/** A ReadableStream of the given chunks (strings as UTF-8, or raw bytes). */
function byteStream(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

describe("openai provider (a real OpenAI-compatible server)", () => {
  it("streams the reply piece by piece from chat.completion.chunk events", async () => {
    const pieces = await collect(openai("echo").stream(prompt, { maxTokens: 64 }));
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe("Echo: Any ships tonight? (3 messages, max_tokens 64)");
  });

  it("reads CRLF events split across TCP writes, and a non-streamed JSON answer", async () => {
    expect((await collect(openai("echo-crlf").stream(prompt, { maxTokens: 8 }))).join("")).toBe(
      "Echo: Any ships tonight? (3 messages, max_tokens 8)",
    );
    expect(await collect(openai("json").stream(prompt, { maxTokens: 8 }))).toEqual(["Echo: Any ships tonight? (3 messages, max_tokens 8)"]);
  });

  it("a 500 or a wrong key is a ChatModelError with the status", async () => {
    await expect(collect(openai("error-500").stream(prompt, { maxTokens: 8 }))).rejects.toMatchObject({
      name: "ChatModelError",
      status: 500,
    });
    await expect(collect(openai("echo", "wrong").stream(prompt, { maxTokens: 8 }))).rejects.toMatchObject({ status: 401 });
    await expect(
      collect(new OpenAIChatModel({ baseUrl: "http://127.0.0.1:9", model: "echo" }).stream(prompt, { maxTokens: 8 })),
    ).rejects.toBeInstanceOf(ChatModelError);
  });

  it("a stream that breaks off or carries an error throws after what it gave", async () => {
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const piece of openai("broken").stream(prompt, { maxTokens: 8 })) got.push(piece);
      })(),
    ).rejects.toThrow();
    expect(got.join("")).toBe("Half a");
    await expect(collect(openai("error-chunk").stream(prompt, { maxTokens: 8 }))).rejects.toBeInstanceOf(ChatStreamError);
  });

  it("asks for the tokens used and reports them from the last chunk; a whole completion reports its own", async () => {
    const reports: unknown[] = [];
    const pieces = await collect(openai("echo").stream(prompt, { maxTokens: 64, onUsage: (usage) => reports.push(usage) }));
    expect(pieces.join("")).toBe("Echo: Any ships tonight? (3 messages, max_tokens 64)");
    // The stub counts words: 3 + 1 + 3 in the prompt, 8 pieces streamed.
    expect(reports).toEqual([{ promptTokens: 7, completionTokens: 8 }]);
    reports.length = 0;
    await collect(openai("json").stream(prompt, { maxTokens: 8, onUsage: (usage) => reports.push(usage) }));
    expect(reports).toEqual([{ promptTokens: 7, completionTokens: 8 }]);
  });

  it("a server that reports no usage answers all the same, with no token count", async () => {
    const reports: unknown[] = [];
    const pieces = await collect(openai("no-usage").stream(prompt, { maxTokens: 8, onUsage: (usage) => reports.push(usage) }));
    expect(pieces.join("")).toBe("Echo: Any ships tonight? (3 messages, max_tokens 8)");
    expect(reports).toEqual([]);
  });

  it("a server that refuses stream_options (400) is asked again without it, and not asked with it again", async () => {
    const sent: Record<string, unknown>[] = [];
    const counting: typeof fetch = async (input, init) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return fetch(input, init);
    };
    // A model name no other test uses: what this isolate remembers of the endpoint is this test's alone.
    const name = `no-stream-options-${crypto.randomUUID()}`;
    const model = () => new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: name, fetch: counting });
    const reports: unknown[] = [];
    const pieces = await collect(model().stream(prompt, { maxTokens: 8, onUsage: (usage) => reports.push(usage) }));
    expect(pieces.join("")).toBe("Echo: Any ships tonight? (3 messages, max_tokens 8)");
    expect(reports).toEqual([]);
    expect(sent.map((body) => body.stream_options)).toEqual([{ include_usage: true }, undefined]);
    // The next reply (another instance, same endpoint) goes without it at once.
    expect((await collect(model().stream(prompt, { maxTokens: 8 }))).join("")).toBe("Echo: Any ships tonight? (3 messages, max_tokens 8)");
    expect(sent).toHaveLength(3);
    expect(sent[2]!.stream_options).toBeUndefined();
    // A 400 for another reason is still a 400 (after the one retry without stream_options).
    await expect(collect(openai("error-400").stream(prompt, { maxTokens: 8 }))).rejects.toMatchObject({ name: "ChatModelError", status: 400 });
  });

  it("stops when its signal is aborted", async () => {
    const controller = new AbortController();
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const piece of openai("slow").stream(prompt, { maxTokens: 8, signal: controller.signal })) {
          got.push(piece);
          if (got.length === 2) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(got).toEqual(["word1", " word2"]);
  });

  it("the watchdog ends a stream that goes silent", async () => {
    const controller = new AbortController();
    const started = Date.now();
    await expect(
      collect(withTokenTimeout(openai("hang").stream(prompt, { maxTokens: 8, signal: controller.signal }), 200, () => controller.abort())),
    ).rejects.toThrow("no token within 200 ms");
    expect(controller.signal.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/** A stub of the Workers AI binding: records calls, answers with the given stream or value. */
function stubAi(answer: () => unknown): AiRunner & { calls: { model: string; inputs: Record<string, unknown> }[] } {
  const calls: { model: string; inputs: Record<string, unknown> }[] = [];
  return {
    calls,
    async run(model, inputs) {
      calls.push({ model, inputs });
      const value = answer();
      if (value instanceof Error) throw value;
      return value;
    },
  };
}

describe("workers-ai provider (a stub of the AI binding)", () => {
  it('reads its own shape: data: {"response": "…"} … data: [DONE]', async () => {
    const ai = stubAi(() =>
      byteStream([
        'data: {"response":"Not","p":"abc"}\n\n',
        'data: {"response":" a"}\n\ndata: {"respo',
        'nse":" one."}\n\n',
        'data: {"response":"","usage":{"prompt_tokens":12,"completion_tokens":3}}\n\n',
        "data: [DONE]\n\n",
        'data: {"response":"after done"}\n\n',
      ]),
    );
    const model = new WorkersAIChatModel(ai, "@cf/mistralai/mistral-small-3.1-24b-instruct");
    const reports: unknown[] = [];
    expect(await collect(model.stream(prompt, { maxTokens: 100, onUsage: (usage) => reports.push(usage) }))).toEqual(["Not", " a", " one."]);
    // Its last event before [DONE] reports the tokens used.
    expect(reports).toEqual([{ promptTokens: 12, completionTokens: 3 }]);
    expect(ai.calls).toEqual([
      { model: "@cf/mistralai/mistral-small-3.1-24b-instruct", inputs: { messages: prompt, stream: true, max_tokens: 100 } },
    ]);
  });

  it("reads the OpenAI shape newer models stream: chat.completion.chunk with choices[0].delta.content", async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const ai = stubAi(() => byteStream([chunk({ role: "assistant" }), chunk({ content: "Calm " }), chunk({ content: "seas." }), chunk({}, "stop"), "data: [DONE]\n\n"]));
    expect(await collect(new WorkersAIChatModel(ai, "@cf/meta/llama").stream(prompt, { maxTokens: 10 }))).toEqual(["Calm ", "seas."]);
  });

  it("takes a non-streamed {response} too, and turns a failing run into a ChatModelError", async () => {
    const reports: unknown[] = [];
    const whole = new WorkersAIChatModel(stubAi(() => ({ response: "Whole.", usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } })), "m");
    expect(await collect(whole.stream(prompt, { maxTokens: 5, onUsage: (usage) => reports.push(usage) }))).toEqual(["Whole."]);
    expect(reports).toEqual([{ promptTokens: 9, completionTokens: 2 }]);
    await expect(collect(new WorkersAIChatModel(stubAi(() => new Error("3040: capacity")), "m").stream(prompt, { maxTokens: 5 }))).rejects.toBeInstanceOf(
      ChatModelError,
    );
    await expect(collect(new WorkersAIChatModel(stubAi(() => 42), "m").stream(prompt, { maxTokens: 5 }))).rejects.toBeInstanceOf(ChatStreamError);
  });
});

describe("server-sent events", () => {
  it("handles CRLF split between chunks, multi-line data, comments, a missing final blank line, split UTF-8", async () => {
    const bytes = new TextEncoder().encode('data: {"response":"héllo"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside "é"
    const events = await collect(
      parseServerSentEvents(
        byteStream([
          ": comment\r\n\r\n",
          "data: one\r",
          "\ndata: two\r\n\r",
          "\n",
          bytes.slice(0, cut),
          bytes.slice(cut),
          "event: x\nid: 3\ndata:three",
        ]),
      ),
    );
    expect(events).toEqual(["one\ntwo", '{"response":"héllo"}', "three"]);
  });

  it("textOfChunk reads both shapes and refuses what is not JSON", () => {
    expect(textOfChunk('{"response":"a"}')).toEqual({ done: false, text: "a" });
    expect(textOfChunk('{"choices":[{"delta":{"content":"b"}}]}')).toEqual({ done: false, text: "b" });
    expect(textOfChunk('{"choices":[{"delta":{"role":"assistant"}}]}')).toEqual({ done: false, text: "" });
    expect(textOfChunk(" [DONE] ")).toEqual({ done: true });
    // Usage: OpenAI's last chunk (choices: []), and `usage: null` or counts that are not whole numbers reported as nothing.
    expect(textOfChunk('{"choices":[],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}')).toEqual({
      done: false,
      text: "",
      usage: { promptTokens: 20, completionTokens: 5 },
    });
    expect(textOfChunk('{"choices":[{"delta":{"content":"c"}}],"usage":null}')).toEqual({ done: false, text: "c" });
    expect(textOfChunk('{"response":"","usage":{"prompt_tokens":-1,"completion_tokens":2.5}}')).toEqual({ done: false, text: "" });
    expect(() => textOfChunk("<html>")).toThrow(ChatStreamError);
    expect(() => textOfChunk('{"error":"boom"}')).toThrow("model error: boom");
  });
});

const orla: OfflineCharacter = {
  name: "Orla",
  description: "A lighthouse keeper on a lonely rock.",
  personality: "Gruff, loyal, secretly sentimental. She never leaves the lamp unattended.",
  scenario: "A storm is coming.",
  exampleConversation: "<START>\n{{user}}: Any ships?\n{{char}}: *squints* Not a one tonight, and good riddance to them.",
  greeting: '*The door creaks.* "Well, {{user}}, you picked a foul night to come calling at my lighthouse."',
};

describe("offline model", () => {
  it("answers in character from the card's own lines, taking up the person's key word without quoting them, deterministically", async () => {
    const reply = offlineReply(orla, "Mira", "Can I stay until the lighthouse storm passes?", 3);
    expect(reply).toBe(offlineReply(orla, "Mira", "Can I stay until the lighthouse storm passes?", 3));
    expect(reply).toMatch(/^\*Orla /);
    expect(reply).toMatch(/lighthouse/i);
    expect(reply).not.toContain("Can I stay until the lighthouse storm passes");
    expect(reply).toContain("Mira");
    expect(reply).not.toMatch(/\{\{|\}\}/);
    const cardLines = ["Well, Mira, you picked a foul night to come calling at my lighthouse.", "Not a one tonight, and good riddance to them."];
    expect(cardLines.some((line) => reply.includes(line))).toBe(true);
    expect(offlineReply(orla, "Mira", "Something else entirely", 3)).not.toBe(reply);
  });

  it("streams word by word and stops when aborted", async () => {
    const model = new OfflineChatModel(orla, "Mira", { wordDelayMs: 1 });
    const pieces = await collect(model.stream(prompt, { maxTokens: 100 }));
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.join("")).toBe(offlineReply(orla, "Mira", "Any ships tonight?", 2));
    const controller = new AbortController();
    const some: string[] = [];
    for await (const piece of model.stream(prompt, { maxTokens: 100, signal: controller.signal })) {
      some.push(piece);
      if (some.length === 3) controller.abort();
    }
    expect(some).toHaveLength(3);
  });

  it("speaks from the personality when the card has no lines to quote", () => {
    const reply = offlineReply({ ...orla, greeting: null, exampleConversation: null }, "Mira", "hello", 1);
    const sentences = ["Gruff, loyal, secretly sentimental.", "She never leaves the lamp unattended.", "A lighthouse keeper on a lonely rock."];
    expect(sentences.some((sentence) => reply.includes(`*${sentence}*`))).toBe(true);
  });
});

describe("provider choice (AI_PROVIDER)", () => {
  it("picks workers-ai, openai or offline, and falls back to offline when a provider is not configured", () => {
    expect(chatModelName({ AI_PROVIDER: "workers-ai", AI: {} })).toBe("workers-ai");
    expect(chatModelName({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "http://x" })).toBe("openai");
    expect(chatModelName({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "" })).toBe("offline");
    expect(chatModelName({ AI_PROVIDER: "offline" })).toBe("offline");
    expect(chatModelName({ AI_PROVIDER: "gpt-9000" })).toBe("offline");
    expect(chatModelName(env)).toBe("offline");
    expect(createChatModel({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "http://x", AI_MODEL: "m" }, orla, "Mira")).toBeInstanceOf(OpenAIChatModel);
    expect(createChatModel({ AI_PROVIDER: "workers-ai", AI: stubAi(() => null) }, orla, "Mira")).toBeInstanceOf(WorkersAIChatModel);
    expect(createChatModel(env, orla, "Mira")).toBeInstanceOf(OfflineChatModel);
  });
});
