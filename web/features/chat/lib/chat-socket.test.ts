import { afterEach, describe, expect, it, vi } from "vitest";
import { chatSocketUrl, newClientId, parseServerFrame } from "./chat-socket.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("chatSocketUrl", () => {
  it("uses wss on https pages and ws on http ones, on the page's host", () => {
    expect(chatSocketUrl({ protocol: "https:", host: "fabled.example" }, "abc")).toBe("wss://fabled.example/ws?conversationId=abc");
    expect(chatSocketUrl({ protocol: "http:", host: "127.0.0.1:8787" }, "abc")).toBe("ws://127.0.0.1:8787/ws?conversationId=abc");
  });

  it("encodes the conversation id", () => {
    expect(chatSocketUrl({ protocol: "http:", host: "h" }, "a&b=c")).toBe("ws://h/ws?conversationId=a%26b%3Dc");
  });
});

describe("newClientId", () => {
  it("uses crypto.randomUUID when there is one", () => {
    expect(newClientId({ randomUUID: () => "11111111-2222-4333-8444-555555555555", getRandomValues: (a) => a })).toBe(
      "11111111-2222-4333-8444-555555555555",
    );
  });

  it("builds a v4 UUID from random bytes outside secure contexts", () => {
    const id = newClientId({ getRandomValues: (a) => crypto.getRandomValues(a) });
    expect(id).toMatch(UUID_V4);
    const zeros = newClientId({ getRandomValues: <T extends ArrayBufferView | null>(a: T) => a });
    expect(zeros).toBe("00000000-0000-4000-8000-000000000000");
  });
});

describe("parseServerFrame", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads a frame of the protocol", () => {
    expect(parseServerFrame('{"type":"character_response_delta","messageId":"m","delta":"Hi"}')).toEqual({
      type: "character_response_delta",
      messageId: "m",
      delta: "Hi",
    });
  });

  it("logs and ignores what is not one", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(parseServerFrame("not json")).toBeNull();
    expect(parseServerFrame('{"type":"surprise"}')).toBeNull();
    expect(parseServerFrame(new ArrayBuffer(2))).toBeNull();
    expect(warn).toHaveBeenCalledTimes(3);
  });
});
