/**
 * The room's protocol (room-protocol.ts) as both ends use it: how a client's
 * WebSocket message is read, the Worker → room upgrade headers, and the
 * greeting a conversation starts with.
 */
import { describe, expect, it } from "vitest";
import { CLOSE_CODES, MAX_FRAME_BYTES } from "../schema/chat.ts";
import { clientFrameSchema } from "../schema/chat-frames.ts";
import { closeCodeAnswering, greetingFor, readClientMessage, readRoomVisitor, ROOM_HEADERS, roomUpgradeHeaders } from "./room-protocol.ts";

const conversationId = "0b6f1c9e-7a53-4c1e-9d51-3f7f9e2b8a10";

describe("readClientMessage", () => {
  it("a valid frame is read, with the text it came in", () => {
    const text = JSON.stringify({ type: "chat_message", conversationId, content: "  Hello  ", clientId: "c1" });
    expect(readClientMessage(text)).toEqual({
      kind: "frame",
      frame: { type: "chat_message", conversationId, content: "Hello", clientId: "c1" },
      text,
    });
  });

  it("binary data closes with 1003; over MAX_FRAME_BYTES of UTF-8 closes with 1009", () => {
    expect(readClientMessage(new ArrayBuffer(4))).toEqual({ kind: "close", code: CLOSE_CODES.unsupportedData, reason: "Frames must be JSON text" });
    const tooBig = { kind: "close", code: CLOSE_CODES.tooBig, reason: "Frames can be at most 16 KB" };
    expect(readClientMessage("x".repeat(MAX_FRAME_BYTES + 1))).toEqual(tooBig);
    // Fewer characters than the limit, more bytes: "é" is 2 bytes of UTF-8.
    const accented = JSON.stringify({ type: "chat_message", conversationId, content: "é".repeat(MAX_FRAME_BYTES / 2) });
    expect(accented.length).toBeLessThan(MAX_FRAME_BYTES + 100);
    expect(readClientMessage(accented)).toEqual(tooBig);
    // Exactly at the limit is still read (and then judged as a frame).
    expect(readClientMessage(" ".repeat(MAX_FRAME_BYTES)).kind).toBe("answer");
  });

  it("anything else is answered with an invalid_frame error saying why, and the socket stays", () => {
    const answer = (text: string) => {
      const read = readClientMessage(text);
      return read.kind === "answer" ? read.frame : read;
    };
    expect(answer("{not json")).toEqual({ type: "error", code: "invalid_frame", message: "Messages must be JSON" });
    expect(answer('{"type":"dance"}')).toEqual({ type: "error", code: "invalid_frame", message: 'Unknown message type: "dance"' });
    expect(answer("null")).toEqual({ type: "error", code: "invalid_frame", message: "Unknown message type: null" });
    expect(answer(JSON.stringify({ type: "chat_message", conversationId, content: "   " }))).toEqual({
      type: "error",
      code: "invalid_frame",
      message: "Messages cannot be empty",
    });
  });

  it("every frame type of the union is known (a bad field is not reported as an unknown type)", () => {
    for (const option of clientFrameSchema.options) {
      const type = option.shape.type.value;
      const read = readClientMessage(JSON.stringify({ type, conversationId: 42 }));
      expect(read.kind).toBe("answer");
      if (read.kind === "answer") expect(read.frame.message).not.toMatch(/^Unknown message type/);
    }
  });
});

describe("Worker → room headers", () => {
  it("carry the conversation, the person and their name (any Unicode) through to the room", () => {
    const visitor = { conversationId, userId: "u-1", userName: "Zoë 李 ✨", personaDescription: "A bard.\nLoves \"songs\" & 100% sure." };
    const headers = new Headers(roomUpgradeHeaders(visitor));
    expect(headers.get("upgrade")).toBe("websocket");
    expect(headers.get(ROOM_HEADERS.userName)).toBe(encodeURIComponent("Zoë 李 ✨"));
    expect(readRoomVisitor(headers)).toEqual({ ...visitor, role: "owner", sessionId: null });
    // The session the socket was opened with, so ending that session closes it (DESIGN.md "Your account, your data").
    expect(readRoomVisitor(new Headers(roomUpgradeHeaders({ ...visitor, sessionId: "s-1" }))).sessionId).toBe("s-1");
    // A member of a shared room, as the Worker vouches (DESIGN.md "Shared rooms").
    expect(readRoomVisitor(new Headers(roomUpgradeHeaders({ ...visitor, role: "member" }))).role).toBe("member");
  });

  it("missing or malformed headers read as empty, never throw", () => {
    expect(readRoomVisitor(new Headers())).toEqual({ conversationId: "", userId: "", userName: "", personaDescription: null, role: "owner", sessionId: null });
    expect(readRoomVisitor(new Headers({ [ROOM_HEADERS.userName]: "%E0%A4%A" })).userName).toBe("");
  });
});

describe("greetingFor", () => {
  it("normalises line ends, trims, and replaces the macros; no greeting is null", () => {
    expect(greetingFor("\r\n*{{char}} waves at {{user}}.*\r\nHello, <USER>!\r\n", "Orla", "Mira")).toBe("*Orla waves at Mira.*\nHello, Mira!");
    expect(greetingFor("   ", "Orla", "Mira")).toBeNull();
    expect(greetingFor(null, "Orla", "Mira")).toBeNull();
  });
});

describe("closeCodeAnswering", () => {
  it("never sends a reserved code: 1005 becomes 1000; 1006, 1015 and invalid codes become 1011; others pass", () => {
    expect(closeCodeAnswering(1005)).toBe(CLOSE_CODES.normal);
    for (const code of [1006, 1015, 999, 0, 5000]) expect(closeCodeAnswering(code)).toBe(CLOSE_CODES.serverError);
    for (const code of [1000, 1001, 1003, 1008, 1009, 1011, 4000, 4999]) expect(closeCodeAnswering(code)).toBe(code);
  });
});
