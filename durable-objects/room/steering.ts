/**
 * Steering (docs/decisions/0007): what the owner may change in their
 * conversation, and when — edit, delete, rewind, continue, the memory note,
 * the running summary (rewrite, reset), swipe (which version of the last reply counts), thumbs on a reply, and the
 * source of a branch.
 *
 * Who may: only the conversation's owner ever reaches the room (the Worker
 * checks the session and the owner; `fetch` and the RPC methods check
 * `user_id` again). When: never while a reply is being written or a message
 * admitted (`busy`, nothing changes). Which message: a visible (complete)
 * one; swipe and continue only the last reply.
 *
 * A steering frame with a `clientId` is applied once: its answer is kept
 * (kept.ts FRAME_RECEIPT_TTL_MS, ms) and a resend gets it again, to the sender
 * alone. Refusals are error frames to the sender, never thrown; the only
 * thrown error is a D1 failure of a rating (`rateMessage`).
 */
import { EDIT_REFUSED_TEXT, MAX_CHAT_MESSAGE_LENGTH, MEMORY_REFUSED_TEXT, AUTHOR_NOTE_REFUSED_TEXT, SUMMARY_REFUSED_TEXT } from "../../schema/chat.ts";
import { type ChatErrorCode, chooseVersion, type ClientFrame, replyVersions, type ServerFrame } from "../../schema/chat-frames.ts";
import type { TimedState } from "../../schema/lorebook/activation.ts";
import type { SeedMessage, SeedPicture } from "../room-protocol.ts";
import type { D1Sync } from "./d1-sync.ts";
import type { ReplyRounds } from "./replies.ts";
import type { RoomScreening } from "./screening.ts";
import { refusal, type RoomSockets, send, type SocketState } from "./sockets.ts";
import { seedOf, versionFields } from "./message-rows.ts";
import type { MessageRow, RoomStore } from "./store.ts";

function isRow(value: MessageRow | ServerFrame): value is MessageRow {
  return "seq" in value;
}

export class Steering {
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly d1: D1Sync;
  private readonly replies: ReplyRounds;
  private readonly screening: RoomScreening;

  constructor(store: RoomStore, sockets: RoomSockets, d1: D1Sync, replies: ReplyRounds, screening: RoomScreening) {
    this.store = store;
    this.sockets = sockets;
    this.d1 = d1;
    this.replies = replies;
    this.screening = screening;
  }

  /**
   * Screens a steering frame's text before it is applied (issue 21): S4 is
   * the `message_refused` error frame with `sentence` (nothing changes,
   * logged); null otherwise. The screen is awaited, so a reply may have
   * started meanwhile: then `busy`, as if it had come first.
   */
  private async screenFrame(
    frame: object,
    subjectType: "message" | "memory" | "summary",
    subjectId: string | null,
    sentence: string,
    clientId: string | undefined,
  ): Promise<ServerFrame | null> {
    if (await this.screening.refuses(frame, subjectType, subjectId)) return refusal("message_refused", sentence, clientId);
    if (this.replies.busy) return refusal("busy", "Please wait for the reply to finish first.", clientId);
    return null;
  }

  /** The room exists and is `userId`'s. */
  private owns(userId: string): boolean {
    return !this.store.deleted && this.store.room !== null && this.store.room.user_id === userId;
  }

  /**
   * Runs a steering frame. Refused with `busy` while a reply is being
   * written or a message admitted (nothing changes). With a `clientId`, the
   * frame is applied once: its answer is kept (FRAME_RECEIPT_TTL_MS) and a
   * resend gets it again, to the sender alone. `apply` broadcasts its own
   * success and returns the frame to keep, or returns the error frame for
   * the sender (a refusal, never kept: a resend tries again), or null when
   * the answer comes later (continue keeps its receipt when it ends).
   */
  async steer(ws: WebSocket, clientId: string | undefined, apply: () => Promise<ServerFrame | null>): Promise<void> {
    if (clientId) {
      const receipt = this.store.kept.receipt(clientId);
      if (receipt) {
        send(ws, receipt);
        return;
      }
    }
    if (this.replies.busy) {
      send(ws, {
        type: "error",
        code: "busy",
        message: "Please wait for the reply to finish first.",
        ...(clientId ? { clientId } : {}),
      });
      return;
    }
    const answer = await apply();
    if (!answer || this.store.deleted) return;
    if (answer.type === "error") send(ws, answer);
    else if (clientId) this.store.kept.keepReceipt(clientId, answer);
  }

  /** Whether `messageId` is a message `userId` wrote (a shared room's member may edit and delete only those). */
  isOwnMessage(messageId: string, userId: string): boolean {
    const row = this.store.visibleRow(messageId);
    return row !== null && row.role === "user" && (row.author_id ?? this.store.room?.user_id) === userId;
  }

  /** A visible stored message by id, or the `message_not_found` error frame. */
  private findMessage(messageId: string, clientId: string | undefined): MessageRow | ServerFrame {
    return this.store.visibleRow(messageId) ?? refusal("message_not_found", "That message is not in this conversation.", clientId);
  }

  /**
   * `edit_message`: the message's text (a reply's shown version) becomes
   * `content` and `edited_at` is set; its id, rating and other versions stay.
   * The person's messages keep their limit (MAX_CHAT_MESSAGE_LENGTH); replies
   * have MAX_EDITED_REPLY_LENGTH (the frame's own). When it is the last
   * message, D1's preview follows. Every socket gets `message_updated`.
   * Screened first (screenFrame): S4 is refused with `message_refused`
   * (EDIT_REFUSED_TEXT) and the message keeps its text. `viewer`: the
   * sender's user id (the kept answer carries their own thumb).
   */
  async editMessage(frame: Extract<ClientFrame, { type: "edit_message" }>, viewer: string): Promise<ServerFrame> {
    const { messageId, content, clientId } = frame;
    const row = this.findMessage(messageId, clientId);
    if (!isRow(row)) return row;
    if (row.role === "user" && content.length > MAX_CHAT_MESSAGE_LENGTH) {
      return refusal("invalid_frame", `Messages can be at most ${MAX_CHAT_MESSAGE_LENGTH.toLocaleString("en-US")} characters`, clientId);
    }
    const refused = await this.screenFrame(frame, "message", messageId, EDIT_REFUSED_TEXT, clientId);
    if (refused) return refused;
    // Deleted while it was screened: nothing to edit.
    if (!this.store.visibleRow(messageId)) return this.findMessage(messageId, clientId) as ServerFrame;
    const updated = this.store.edits.editContent(messageId, content);
    if (this.store.lastVisible()?.id === messageId) await this.d1.writeLastMessage();
    return this.broadcastUpdated(updated, clientId, viewer);
  }

  /**
   * Every socket gets `message_updated` for `row`, each with its person's own
   * thumb (DESIGN.md "Shared rooms": thumbs are per person); returns the
   * frame as `viewer` (the sender) reads it, to keep as the receipt.
   */
  private broadcastUpdated(row: MessageRow, clientId: string | undefined, viewer: string): ServerFrame {
    const frameFor = (userId: string): ServerFrame => ({
      type: "message_updated",
      messageId: row.id,
      message: this.store.toWire(row, null, userId),
      ...(clientId ? { clientId } : {}),
    });
    this.sockets.broadcastEach(frameFor);
    return frameFor(viewer);
  }

  /**
   * `delete_message` (`one`): the message, with all its versions. `rewind`
   * (`from_here`): the message and every message after it. A summary that
   * covered a deleted message is dropped (it is written again when the
   * history next overflows). D1's preview and `last_message_at` become the
   * last remaining message's; `message_count` is not lowered (it counts
   * messages exchanged with the character, like views: decision 0007).
   * Every socket gets `messages_deleted`.
   */
  async deleteMessages(messageId: string, scope: "one" | "from_here", clientId: string | undefined): Promise<ServerFrame> {
    const row = this.findMessage(messageId, clientId);
    if (!isRow(row)) return row;
    const gone = this.store.deleteMessages(row, scope);
    await this.d1.writeLastMessage();
    const visible = new Set(gone);
    const ordered = [messageId, ...gone.filter((id) => id !== messageId)].filter((id) => visible.has(id));
    const answer: ServerFrame = { type: "messages_deleted", messageIds: ordered, ...(clientId ? { clientId } : {}) };
    this.sockets.broadcast(answer);
    return answer;
  }

  /**
   * `set_memory`: the conversation's memory note (always in the prompt).
   * Every socket gets `memory_updated`. Screened first (screenFrame): S4 is
   * refused with `message_refused` (MEMORY_REFUSED_TEXT), the note unchanged.
   */
  async setMemory(frame: Extract<ClientFrame, { type: "set_memory" }>): Promise<ServerFrame> {
    const { memory, clientId } = frame;
    const refused = await this.screenFrame(frame, "memory", null, MEMORY_REFUSED_TEXT, clientId);
    if (refused) return refused;
    this.store.setMemory(memory);
    const answer: ServerFrame = { type: "memory_updated", memory, ...(clientId ? { clientId } : {}) };
    this.sockets.broadcast(answer);
    return answer;
  }

  /**
   * `set_summary`: the owner's text for the running summary (it covers the
   * same messages), or "" to reset it (store.replaceSummary). Every socket
   * gets `summary_updated`. Screened first, like the memory note
   * (screenFrame): S4 is refused with `message_refused`
   * (SUMMARY_REFUSED_TEXT), the summary unchanged.
   */
  async setSummary(frame: Extract<ClientFrame, { type: "set_summary" }>): Promise<ServerFrame> {
    const { summary, clientId } = frame;
    const refused = await this.screenFrame(frame, "summary", null, SUMMARY_REFUSED_TEXT, clientId);
    if (refused) return refused;
    this.store.replaceSummary(summary);
    const answer: ServerFrame = { type: "summary_updated", summary, ...(clientId ? { clientId } : {}) };
    this.sockets.broadcast(answer);
    return answer;
  }

  /**
   * `set_author_note`: the conversation's author's note (AuthorNote), in the
   * prompt from the next reply on. Every socket gets `author_note_updated`.
   * Screened like the memory note (S4: `message_refused`, unchanged).
   */
  async setAuthorNote(frame: Extract<ClientFrame, { type: "set_author_note" }>): Promise<ServerFrame> {
    const { text, depth, interval, clientId } = frame;
    const refused = await this.screenFrame(frame, "memory", null, AUTHOR_NOTE_REFUSED_TEXT, clientId);
    if (refused) return refused;
    this.store.setAuthorNote({ text, depth, interval });
    const answer: ServerFrame = { type: "author_note_updated", authorNote: this.store.authorNote(), ...(clientId ? { clientId } : {}) };
    this.sockets.broadcast(answer);
    return answer;
  }

  /**
   * `hide_message`: "hide from context" on or off. The message stays (the
   * client shows it dimmed) and no prompt reads it while hidden. Every
   * socket gets `message_updated`.
   */
  async hideMessage(frame: Extract<ClientFrame, { type: "hide_message" }>, viewer: string): Promise<ServerFrame> {
    const { messageId, hidden, clientId } = frame;
    const row = this.findMessage(messageId, clientId);
    if (!isRow(row)) return row;
    const updated = this.store.setHidden(row.id, hidden);
    if (!updated) return refusal("message_not_found", "That message is not in this conversation.", clientId);
    return this.broadcastUpdated(updated, clientId, viewer);
  }

  /**
   * `continue`: the character goes on with its last reply, streamed into the
   * same message (ReplyRounds.start). Rate limited like a regenerate
   * (REPLY_RATE_LIMITER). Its receipt is kept when the reply ends.
   */
  async continueReply(state: SocketState, clientId: string | undefined): Promise<ServerFrame | null> {
    const last = this.store.lastVisible();
    if (!last || last.role !== "character") {
      return refusal("nothing_to_continue", "Only a reply of the character can be continued, and only the latest one.", clientId);
    }
    return this.replies.admit(state, "reply", () => this.replies.start(null, { row: last, clientId: clientId ?? null, requestedBy: state.userId }), clientId);
  }

  /**
   * `swipe`: makes version `index` (0-based, written order) of the last
   * reply its content, the one the next prompt reads; the others stay its
   * alternatives in written order, and it keeps its id and rating. Stored,
   * then D1's preview follows (one write), then every socket gets
   * `message_updated`. Refusals are error frames to the sender; nothing changes.
   */
  async swipe(ws: WebSocket, viewer: string, messageId: string, index: number): Promise<void> {
    const refuse = (code: ChatErrorCode, message: string) => send(ws, { type: "error", code, message });
    if (this.replies.busy) {
      refuse("busy", "Please wait for the reply to finish before choosing another version.");
      return;
    }
    const row = this.store.visibleRow(messageId);
    if (!row) {
      refuse("message_not_found", "That message is not in this conversation.");
      return;
    }
    const last = this.store.lastVisible();
    if (row.role !== "character" || last?.id !== row.id) {
      refuse("not_last_reply", "Only the latest reply can be switched to another version.");
      return;
    }
    const fields = versionFields(row);
    const { versions, current } = replyVersions(fields);
    const chosen = chooseVersion(fields, index);
    if (!chosen) {
      refuse(
        "no_such_version",
        versions.length === 1 ? "This reply has only one version." : `This reply has ${versions.length} versions; there is no version ${index + 1}.`,
      );
      return;
    }
    if (index === current) {
      send(ws, { type: "message_updated", messageId, message: this.store.toWire(row, null, viewer) });
      return;
    }
    const updated = this.store.edits.setVersion(messageId, chosen);
    // The last message changed: D1's preview follows, like after a reply (nothing is counted).
    this.d1.notePreview(updated);
    await this.d1.writeCounters();
    if (this.store.deleted) return;
    this.broadcastUpdated(updated, undefined, viewer);
  }

  /**
   * Person `raterId`'s thumb on a character reply: 1, -1, or 0 to take it
   * back (the caller checked they are the owner or a member). Thumbs are per
   * person (DESIGN.md "Shared rooms"): each person has one per reply, and
   * changing it moves the character's counts by that person's change
   * (`addReplyRating`). Only the rater's sockets get `message_rated` (its
   * `rating` is "my rating" for every socket that reads it). Throws when D1
   * cannot be updated (the thumb is then unchanged).
   */
  async rateMessage(
    raterId: string,
    messageId: string,
    value: 1 | -1 | 0,
  ): Promise<{ ok: true; rating: 1 | -1 | null } | { ok: false; reason: "not_found" | "not_a_reply" }> {
    if (this.store.deleted || !this.store.room) return { ok: false, reason: "not_found" };
    const row = this.store.visibleRow(messageId);
    if (!row) return { ok: false, reason: "not_found" };
    if (row.role !== "character") return { ok: false, reason: "not_a_reply" };
    const previous = this.store.people.ratingOf(messageId, raterId);
    const before = previous ?? 0;
    const after = value === 0 ? null : value;
    if (before === value) return { ok: true, rating: after };
    this.store.people.setRating(messageId, raterId, after);
    const up = (value === 1 ? 1 : 0) - (before === 1 ? 1 : 0);
    const down = (value === -1 ? 1 : 0) - (before === -1 ? 1 : 0);
    try {
      await this.d1.addRating(row.character_id ?? this.store.room.character_id, { up, down });
    } catch (error) {
      this.store.people.setRating(messageId, raterId, previous);
      throw error;
    }
    this.sockets.sendToUser(raterId, { type: "message_rated", messageId, rating: after });
    return { ok: true, rating: after };
  }

  /**
   * "Branch from here": the visible messages up to and including
   * `messageId`, oldest first, the memory note, the pictures among them and
   * the lorebook timers as they were there, for a new conversation
   * to start with (ratings stay behind). Null when the room is not the
   * owner's or has no such message; "busy" while a reply is being written
   * (the branch would copy half a reply).
   */
  branchSource(userId: string, messageId: string): { messages: SeedMessage[]; memory: string; pictures: SeedPicture[]; lorebookState: TimedState | null } | "busy" | null {
    if (!this.owns(userId)) return null;
    if (this.replies.active) return "busy";
    const rows = this.store.rowsThrough(messageId);
    if (!rows) return null;
    // The pictures shown before the branch point go with it, each after the message it followed.
    const last = rows.at(-1)!.seq;
    const pictures = this.store.images
      .all()
      .filter((picture) => picture.after_seq < last)
      .map((picture): SeedPicture => ({
        afterIndex: rows.findLastIndex((row) => row.seq <= picture.after_seq),
        sourceKey: picture.object_key,
        prompt: picture.prompt,
        contentType: picture.content_type,
        width: picture.width,
        height: picture.height,
        authorId: picture.author_id,
        authorName: picture.author_name,
        characterId: picture.character_id,
        createdAt: picture.created_at,
      }));
    // The lorebook timers as they were there (lore.ts stateThrough): a sticky entry still holds in the branch.
    return { messages: rows.map((row) => seedOf(row)), memory: this.store.room!.memory, pictures, lorebookState: this.store.lore.stateThrough(rows) };
  }
}
