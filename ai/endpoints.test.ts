/**
 * The plumbing every model call shares (ai/endpoints.ts): the endpoint URL,
 * the headers, and failures turned into the caller's error with one message
 * shape. The providers' own tests (chat-models.test.ts,
 * moderation/moderation.test.ts) cover it against the loopback server.
 */
import { describe, expect, it } from "vitest";
import { endpointUrl, postJson, runWorkersAI } from "./endpoints.ts";

class TestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
const fail = (message: string, status?: number) => new TestError(message, status);

describe("endpointUrl", () => {
  it("joins a base URL and a path with one slash", () => {
    expect(endpointUrl("http://127.0.0.1:11434/v1", "chat/completions")).toBe("http://127.0.0.1:11434/v1/chat/completions");
    expect(endpointUrl("https://api.openai.com/v1//", "moderations")).toBe("https://api.openai.com/v1/moderations");
  });
});

describe("postJson", () => {
  const url = "http://model.test/v1/moderations";

  it("sends JSON with the key as a Bearer token, and no authorization without a key", async () => {
    const seen: Headers[] = [];
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return new Response("{}", { status: 200 });
    }) as typeof globalThis.fetch;
    await postJson({ baseUrl: "x", apiKey: "k", fetch }, url, { a: 1 }, { accept: "application/json" }, fail);
    await postJson({ baseUrl: "x", fetch }, url, { a: 1 }, { accept: "text/event-stream" }, fail);
    expect(seen[0]!.get("authorization")).toBe("Bearer k");
    expect(seen[0]!.get("content-type")).toBe("application/json");
    expect(seen[1]!.get("authorization")).toBeNull();
    expect(seen[1]!.get("accept")).toBe("text/event-stream");
  });

  it("a non-2xx answer: the caller's error with the status and the body", async () => {
    const fetch = (async () => new Response("overloaded", { status: 503 })) as typeof globalThis.fetch;
    const error = await postJson({ baseUrl: "x", fetch }, url, {}, { accept: "application/json" }, fail).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestError);
    expect(error).toMatchObject({ message: `${url} answered 503: overloaded`, status: 503 });
  });

  it("a network failure: the caller's error without a status; an abort: the abort error itself", async () => {
    const broken = (async () => {
      throw new TypeError("connection refused");
    }) as typeof globalThis.fetch;
    const error = await postJson({ baseUrl: "x", fetch: broken }, url, {}, { accept: "application/json" }, fail).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: `${url}: TypeError: connection refused`, status: undefined });

    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    const aborted = await postJson({ baseUrl: "x", fetch: broken }, url, {}, { accept: "application/json", signal: controller.signal }, fail).catch(
      (e: unknown) => e,
    );
    expect(aborted).toBeInstanceOf(TypeError);
  });
});

describe("runWorkersAI", () => {
  it("a binding that throws: the caller's error naming the model", async () => {
    const ai = { run: async () => Promise.reject(new Error("capacity")) };
    const error = await runWorkersAI(ai, "@cf/some/model", {}, undefined, fail).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: "Workers AI @cf/some/model: Error: capacity" });
  });
});
