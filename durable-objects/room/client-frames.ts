/**
 * The room's client frames once read (room-protocol.ts readClientMessage):
 * who may send each in a shared room (DESIGN.md "Shared rooms", Powers),
 * and which module each goes to (DESIGN.md "Real-time chat protocol").
 *
 * In order, for every frame:
 * 1. A `chat_message` in a room of several people starts its resend lookup
 *    and rate limit (ReplyRounds.admitEarly), asked beside step 2.
 * 2. A suspended person is refused (room/suspension.ts).
 * 3. A frame naming another conversation: a `forbidden` error frame and a
 *    close with 1008 ("Wrong conversation").
 * 4. A member sending an owner's frame (OWNER_ONLY_FRAMES): a `forbidden`
 *    error frame naming why; nothing changes.
 * 5. `delete_message` naming a picture goes to room/images.ts (its asker or
 *    the owner may); `edit_message` / `delete_message` of someone else's
 *    message by a member: a `forbidden` error frame.
 * 6. The frame's module: replies.ts (messages, regenerate, stop, generate,
 *    `history_sync` on join), steering.ts (edit, delete, rewind, continue,
 *    memory, summary, author's note, hide, swipe), images.ts (imagine,
 *    cancel, a picture's swipe), sockets.ts (typing), check-ins.ts (a
 *    message restarts their clock) and memory.ts (new words are embedded).
 */
import type { ClientFrame } from "../../schema/chat-frames.ts";
import { CLOSE_CODES } from "../../schema/chat.ts";
import { readRoomMessages } from "./away-notices.ts";
import type { RoomCheckIns } from "./check-ins.ts";
import type { RoomImages } from "./images.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import type { ReplyRounds } from "./replies.ts";
import { send, type RoomSockets, type SocketState } from "./sockets.ts";
import type { Steering } from "./steering.ts";
import type { RoomStore } from "./store.ts";
import type { RoomSuspension } from "./suspension.ts";

/**
 * Every client frame's power in a shared room (DESIGN.md "Shared rooms",
 * Powers): the owner's alone (named as the refusal says it), or null for any
 * member — `edit_message` and `delete_message` further limited to the
 * member's own messages below. A Record over the union's types, so a new
 * frame type does not compile until it is given its power
 * (worker/test/room-holes.test.ts walks them all from a member's socket).
 */
const OWNER_ONLY_FRAMES: Readonly<Record<ClientFrame["type"], string | null>> = {
  join: null,
  chat_message: null,
  regenerate: null,
  stop: null,
  swipe: null,
  edit_message: null,
  delete_message: null,
  continue: null,
  generate: null,
  typing: null,
  imagine: null,
  cancel_image: null,
  set_memory: "change the memory",
  set_summary: "change the story so far",
  set_author_note: "change the author's note",
  rewind: "rewind the chat",
  hide_message: "hide messages from the context",
};

/** Frames that may start a reply: their suspension check reads the reply's model connection too (D1Sync.readSuspended). */
const REPLY_FRAMES: ReadonlySet<string> = new Set(["chat_message", "regenerate", "continue", "generate"]);

/** Hands each client frame of a socket to the module that owns it, after the checks every frame passes. */
export class ClientFrames {
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly inputs: PromptInputs;
  private readonly replies: ReplyRounds;
  private readonly steering: Steering;
  private readonly suspension: RoomSuspension;
  private readonly images: RoomImages;
  private readonly checkIns: RoomCheckIns;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    parts: {
      store: RoomStore;
      sockets: RoomSockets;
      inputs: PromptInputs;
      replies: ReplyRounds;
      steering: Steering;
      suspension: RoomSuspension;
      images: RoomImages;
      checkIns: RoomCheckIns;
    },
  ) {
    this.ctx = ctx;
    this.env = env;
    this.store = parts.store;
    this.sockets = parts.sockets;
    this.inputs = parts.inputs;
    this.replies = parts.replies;
    this.steering = parts.steering;
    this.suspension = parts.suspension;
    this.images = parts.images;
    this.checkIns = parts.checkIns;
  }

  /**
   * One valid frame `data` from socket `ws` of `state`'s person, in a room
   * that exists. Every answer goes out as frames on the sockets; nothing is
   * returned. Throws only what the module it goes to throws.
   */
  async receive(ws: WebSocket, state: SocketState, data: ClientFrame): Promise<void> {
    // A message in a room of several people: its resend lookup now, its rate limit beside the suspension check (replies.ts).
    const early = data.type === "chat_message" ? this.replies.admitEarly(state, data.clientId ?? null) : undefined;
    // A suspension written only to D1 (the operator's CLI) still stops every frame (room/suspension.ts).
    if (await this.suspension.refuses(ws, state.userId, REPLY_FRAMES.has(data.type))) return;
    if (data.conversationId !== undefined && data.conversationId !== state.conversationId) {
      send(ws, { type: "error", code: "forbidden", message: "This connection belongs to another conversation" });
      ws.close(CLOSE_CODES.policyViolation, "Wrong conversation");
      return;
    }
    const steering = this.steering;
    // What only the owner may do (DESIGN.md "Shared rooms"): refused with a frame naming why, nothing changes.
    const ownerOnly = OWNER_ONLY_FRAMES[data.type];
    if (ownerOnly && state.role === "member") {
      send(ws, { type: "error", code: "forbidden", message: `Only the chat's owner can ${ownerOnly}.`, ...("clientId" in data && data.clientId ? { clientId: data.clientId } : {}) });
      return;
    }
    // A picture is deleted by its asker or the owner (room/images.ts), never edited.
    if (data.type === "delete_message" && this.images.get(data.messageId)) {
      await this.images.delete(ws, state, data.messageId, data.clientId);
      return;
    }
    if ((data.type === "edit_message" || data.type === "delete_message") && state.role === "member" && !this.steering.isOwnMessage(data.messageId, state.userId)) {
      send(ws, {
        type: "error",
        code: "forbidden",
        message: data.type === "edit_message" ? "You can only edit your own messages." : "You can only delete your own messages.",
        ...(data.clientId ? { clientId: data.clientId } : {}),
      });
      return;
    }
    switch (data.type) {
      case "join":
        send(ws, this.replies.historySync(state.userId));
        // In a shared room, what the person's bell said about this room is read now (room/away-notices.ts).
        if (this.store.room && this.store.people.isShared()) this.ctx.waitUntil(readRoomMessages(this.env, state.userId, this.store.room.conversation_id));
        // The first message will not wait for the card.
        void this.inputs.loadCharacter().catch(() => {});
        return;
      case "chat_message":
        await this.replies.receiveMessage(ws, state, data.content, data.clientId ?? null, early);
        // A message answers the check-ins before it: the clock starts again (a paused chat's too).
        this.ctx.waitUntil(this.checkIns.arm().catch((error: unknown) => console.warn("could not arm a check-in", String(error))));
        // Embedded after message_saved went out; a reply's recall waits for it (room/memory.ts).
        this.ctx.waitUntil(this.store.memory.embedPending());
        return;
      case "regenerate":
        await this.replies.regenerate(ws, state);
        return;
      case "stop":
        this.replies.stop();
        return;
      case "swipe":
        if (this.images.get(data.messageId)) return this.images.chooseVersion(ws, data.messageId, data.index);
        await steering.swipe(ws, state.userId, data.messageId, data.index);
        // The version now shown is embedded in place of the other (room/memory.ts).
        this.ctx.waitUntil(this.store.memory.embedPending());
        return;
      case "edit_message":
        await steering.steer(ws, data.clientId, () => steering.editMessage(data, state.userId));
        this.ctx.waitUntil(this.store.memory.embedPending());
        return;
      case "delete_message":
        await steering.steer(ws, data.clientId, () => steering.deleteMessages(data.messageId, "one", data.clientId));
        return;
      case "rewind":
        await steering.steer(ws, data.clientId, () => steering.deleteMessages(data.messageId, "from_here", data.clientId));
        return;
      case "continue":
        await steering.steer(ws, data.clientId, () => steering.continueReply(state, data.clientId));
        return;
      case "set_memory":
        await steering.steer(ws, data.clientId, () => steering.setMemory(data));
        return;
      case "set_summary":
        await steering.steer(ws, data.clientId, () => steering.setSummary(data));
        return;
      case "set_author_note":
        await steering.steer(ws, data.clientId, () => steering.setAuthorNote(data));
        return;
      case "hide_message":
        await steering.steer(ws, data.clientId, () => steering.hideMessage(data, state.userId));
        return;
      case "generate":
        await this.replies.generate(ws, state, data.characterId, data.clientId);
        return;
      case "imagine":
        await this.images.imagine(ws, state, data.prompt, data.clientId, data.imageId);
        return;
      case "cancel_image":
        this.images.cancel(ws, state, data.requestId);
        return;
      case "typing":
        this.sockets.broadcastExcept(state.userId, { type: "typing", userId: state.userId, name: state.name ?? "" });
        return;
    }
  }
}
