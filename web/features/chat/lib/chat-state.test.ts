import { describe, expect, it } from "vitest";
import { type ChatMessage } from "../../../../schema/chat.ts";
import { replyVersions, type ServerFrame } from "../../../../schema/chat-frames.ts";
import {
  type ChatAction,
  type ChatState,
  chatFooterText,
  canSteer,
  chatReducer,
  continuableReplyId,
  conversationMessageCount,
  initialChatState,
  isBusy,
  isRateable,
  isSteerPending,
  messagesAfter,
  regeneratableReplyId,
  type SteeringFrame,
  showTypingIndicator,
  swipeableReplyId,
  TYPING_SHOWN_MS,
  typingNames,
  typingText,
  unansweredSteering,
  unsentMessages,
  visibleMessages,
} from "./chat-state.ts";
import { versionTokens } from "./reply-usage.ts";

const CONVERSATION = "c0ffee00-0000-4000-8000-000000000001";

function wire(id: string, content: string, isUser: boolean, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    conversationId: CONVERSATION,
    content,
    isUser,
    createdAt: "2026-01-01T00:00:00.000Z",
    clientId: null,
    rating: null,
    alternatives: [],
    ...extra,
  };
}

const greeting = wire("g", "*waves* Welcome, traveller.", false);

const run = (actions: ChatAction[], state: ChatState = initialChatState) => actions.reduce(chatReducer, state);
const frame = (f: ServerFrame): ChatAction => ({ type: "frame", frame: f });
const send = (clientId: string, content: string): ChatAction => ({ type: "send", clientId, content, createdAt: "2026-01-01T00:01:00.000Z" });
const sync = (messages: ChatMessage[]): ChatAction => frame({ type: "history_sync", conversationId: CONVERSATION, messages, chatModel: "offline" });
const saved = (clientId: string, id: string, content: string): ChatAction =>
  frame({ type: "message_saved", clientId, messageId: id, message: wire(id, content, true, { clientId }) });
const started = (id: string, replaces: string | null = null): ChatAction => frame({ type: "reply_started", messageId: id, replaces });
const delta = (id: string, text: string): ChatAction => frame({ type: "character_response_delta", messageId: id, delta: text });
const response = (id: string, content: string, extra: Partial<ChatMessage> = {}, stopped = false): ChatAction =>
  frame({
    type: "character_response",
    content,
    timestamp: "2026-01-01T00:02:00.000Z",
    messageId: id,
    message: wire(id, content, false, extra),
    stopped,
  });

const contents = (state: ChatState) => state.messages.map((m) => `${m.isUser ? "U" : "C"}:${m.content}:${m.status}`);

describe("sending", () => {
  it("appends the message at once, pending, and waits", () => {
    const state = run([sync([greeting]), send("k1", "Hello")]);
    expect(contents(state)).toEqual(["C:*waves* Welcome, traveller.:saved", "U:Hello:pending"]);
    expect(state.messages[1]!.id).toBe("local:k1");
    expect(state.waiting).toBe(true);
    expect(showTypingIndicator(state)).toBe(true);
    expect(isBusy(state)).toBe(true);
  });

  it("message_saved swaps the pending bubble for the stored message, in place", () => {
    const state = run([sync([greeting]), send("k1", "Hello"), saved("k1", "u1", "Hello")]);
    expect(state.messages.map((m) => [m.id, m.status])).toEqual([
      ["g", "saved"],
      ["u1", "saved"],
    ]);
    expect(state.waiting).toBe(true);
  });

  it("a message saved by another tab is appended once", () => {
    const state = run([sync([greeting]), saved("other-tab", "u9", "From the other tab"), saved("other-tab", "u9", "From the other tab")]);
    expect(contents(state)).toEqual(["C:*waves* Welcome, traveller.:saved", "U:From the other tab:saved"]);
  });
});

describe("a reply", () => {
  const base = [sync([greeting]), send("k1", "Hello"), saved("k1", "u1", "Hello")];

  it("shows the typing indicator until text arrives, then grows with each delta", () => {
    let state = run([...base, started("r1")]);
    expect(showTypingIndicator(state)).toBe(true);
    expect(visibleMessages(state).map((m) => m.id)).toEqual(["g", "u1"]);
    state = run([delta("r1", "*smiles* "), delta("r1", "Hi")], state);
    expect(showTypingIndicator(state)).toBe(false);
    expect(state.messages.at(-1)).toMatchObject({ id: "r1", content: "*smiles* Hi", status: "streaming" });
    expect(state.streamingId).toBe("r1");
    expect(isBusy(state)).toBe(true);
  });

  it("deltas without reply_started still make a reply", () => {
    const state = run([...base, delta("r1", "Hi"), delta("r1", " there")]);
    expect(state.messages.at(-1)).toMatchObject({ id: "r1", content: "Hi there", status: "streaming" });
  });

  it("the final character_response replaces the streamed text and ends the waiting", () => {
    const state = run([...base, started("r1"), delta("r1", "Hi th"), response("r1", "Hi there, friend.")]);
    expect(contents(state)).toEqual(["C:*waves* Welcome, traveller.:saved", "U:Hello:saved", "C:Hi there, friend.:saved"]);
    expect(state.waiting).toBe(false);
    expect(state.streamingId).toBeNull();
    expect(isBusy(state)).toBe(false);
    expect(conversationMessageCount(state)).toBe(3);
  });

  it("a spec-only server (no reply_started, no deltas) still ends the waiting on character_response", () => {
    const state = run([...base, response("r1", "Hi.")]);
    expect(contents(state).at(-1)).toBe("C:Hi.:saved");
    expect(state.waiting).toBe(false);
  });

  it("remembers a reply cut short by stop", () => {
    const state = run([...base, started("r1"), delta("r1", "Hi"), response("r1", "Hi", {}, true)]);
    expect(state.messages.at(-1)).toMatchObject({ content: "Hi", stopped: true, status: "saved" });
  });
});

describe("errors", () => {
  const base = [sync([greeting]), send("k1", "Hello"), saved("k1", "u1", "Hello"), started("r1"), delta("r1", "Hi")];

  it("a failed reply stops the waiting, drops its partial text and keeps the person's message", () => {
    const state = run([
      ...base,
      frame({ type: "error", code: "model_failed", message: "Echo couldn't reply just now. Please try again.", messageId: "r1" }),
    ]);
    expect(contents(state)).toEqual(["C:*waves* Welcome, traveller.:saved", "U:Hello:saved"]);
    expect(isBusy(state)).toBe(false);
    expect(state.error).toEqual({ message: "Echo couldn't reply just now. Please try again.", code: "model_failed", retryable: true });
    expect(chatReducer(state, { type: "dismissError" }).error).toBeNull();
  });

  it("a refused message is marked failed, keeps its text and can be retried with the same clientId", () => {
    let state = run([
      sync([greeting]),
      send("k1", "Hello"),
      frame({ type: "error", code: "busy", message: "Please wait for the reply before sending another message.", clientId: "k1" }),
    ]);
    expect(contents(state).at(-1)).toBe("U:Hello:failed");
    expect(state.waiting).toBe(false);
    expect(state.error?.retryable).toBe(false);
    expect(conversationMessageCount(state)).toBe(1);
    state = chatReducer(state, { type: "retry", clientId: "k1" });
    expect(contents(state).at(-1)).toBe("U:Hello:pending");
    expect(state.waiting).toBe(true);
    expect(unsentMessages(state).map((m) => m.clientId)).toEqual(["k1"]);
  });

  it("an error naming nothing answers whatever was pending", () => {
    const state = run([sync([greeting]), send("k1", "Hello"), frame({ type: "error", code: "invalid_frame", message: "Invalid message" })]);
    expect(contents(state).at(-1)).toBe("U:Hello:failed");
    expect(state.waiting).toBe(false);
  });

  it("an error about something else does not end a reply still being written", () => {
    const state = run([...base, frame({ type: "error", code: "busy", message: "Please wait." })]);
    expect(state.waiting).toBe(false);
    expect(state.streamingId).toBe("r1");
    expect(isBusy(state)).toBe(true);
  });
});

describe("history_sync", () => {
  it("replaces the local list with the server's", () => {
    const state = run([sync([greeting]), sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello!", false)])]);
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1", "r1"]);
    expect(state.chatModel).toBe("offline");
    expect(state.waiting).toBe(false);
  });

  it("merges by clientId: a stored message is not doubled, an unstored one stays pending at the end", () => {
    const state = run([
      sync([greeting]),
      send("k1", "First"),
      // Reconnect: the server stored k1 (under its own id) before the socket dropped.
      sync([greeting, wire("u1", "First", true, { clientId: "k1" }), wire("r1", "Answer", false)]),
    ]);
    expect(state.messages.map((m) => [m.id, m.status])).toEqual([
      ["g", "saved"],
      ["u1", "saved"],
      ["r1", "saved"],
    ]);
    expect(state.waiting).toBe(false);

    const lost = run([sync([greeting]), send("k2", "Second"), sync([greeting])]);
    expect(lost.messages.map((m) => [m.id, m.status])).toEqual([
      ["g", "saved"],
      ["local:k2", "pending"],
    ]);
    expect(lost.waiting).toBe(true);
    expect(unsentMessages(lost).map((m) => m.content)).toEqual(["Second"]);
  });

  it("picks up a reply still being written and keeps growing it with deltas", () => {
    const state = run([
      sync([greeting]),
      sync([greeting, wire("u1", "Hi", true), wire("r1", "Hel", false, { status: "streaming" })]),
      delta("r1", "lo"),
    ]);
    expect(state.streamingId).toBe("r1");
    expect(state.waiting).toBe(true);
    expect(state.messages.at(-1)).toMatchObject({ id: "r1", content: "Hello", status: "streaming" });
  });

  it("a reply finished while disconnected arrives complete, with no waiting left", () => {
    const state = run([
      sync([greeting]),
      send("k1", "Hi"),
      saved("k1", "u1", "Hi"),
      started("r1"),
      delta("r1", "Hel"),
      sync([greeting, wire("u1", "Hi", true, { clientId: "k1" }), wire("r1", "Hello there.", false)]),
    ]);
    expect(contents(state)).toEqual(["C:*waves* Welcome, traveller.:saved", "U:Hi:saved", "C:Hello there.:saved"]);
    expect(isBusy(state)).toBe(false);
  });

  it("the HTTP list fills the page until the socket syncs, and never overrides it", () => {
    const loaded = chatReducer(initialChatState, { type: "loaded", messages: [greeting] });
    expect(loaded.messages.map((m) => m.id)).toEqual(["g"]);
    const synced = run([sync([greeting, wire("u1", "Hi", true)]), { type: "loaded", messages: [greeting] }]);
    expect(synced.messages.map((m) => m.id)).toEqual(["g", "u1"]);
  });
});

describe("regenerate, swipes and ratings", () => {
  const answered = [sync([greeting, wire("u1", "Hi", true), wire("r1", "First answer", false)])];

  it("regenerate waits, then the new reply takes the old one's place with it as an alternative", () => {
    let state = run(answered);
    expect(regeneratableReplyId(state)).toBe("r1");
    state = run([{ type: "regenerate" }, started("r2", "r1")], state);
    expect(regeneratableReplyId(state)).toBeNull();
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1", "r2"]);
    expect(state.messages[2]).toMatchObject({ content: "", alternatives: ["First answer"], status: "streaming" });
    state = run([delta("r2", "Second"), response("r2", "Second answer", { alternatives: ["First answer"] })], state);
    expect(state.messages[2]).toMatchObject({ content: "Second answer", alternatives: ["First answer"], status: "saved" });
  });

  it("a reply's tokens come with it, each version's too, and follow a swipe shown at once", () => {
    const u1 = { promptTokens: 120, completionTokens: 9 };
    const u2 = { promptTokens: 130, completionTokens: 12 };
    let state = run([...answered, { type: "regenerate" }, started("r2", "r1")]);
    state = run([response("r2", "Second answer", { alternatives: ["First answer"], usage: u2, versionUsage: [u1, u2] })], state);
    expect(state.messages[2]).toMatchObject({ usage: u2, versionUsage: [u1, u2] });
    state = chatReducer(state, { type: "swipe", messageId: "r2", index: 0 });
    expect(versionTokens(state.messages[2]!, replyVersions(state.messages[2]!).current)).toEqual(u1);
  });

  it("the greeting alone cannot be regenerated or rated", () => {
    const state = run([sync([greeting])]);
    expect(regeneratableReplyId(state)).toBeNull();
    expect(isRateable(state, state.messages[0]!)).toBe(false);
  });

  it("ratings change at once and follow message_rated", () => {
    let state = run(answered);
    expect(isRateable(state, state.messages[2]!)).toBe(true);
    expect(isRateable(state, state.messages[1]!)).toBe(false);
    state = chatReducer(state, { type: "rate", messageId: "r1", rating: 1 });
    expect(state.messages[2]!.rating).toBe(1);
    state = run([frame({ type: "message_rated", messageId: "r1", rating: -1 })], state);
    expect(state.messages[2]!.rating).toBe(-1);
  });
});

describe("swiping the last reply", () => {
  // A reply regenerated twice: versions A, B, C in the order written, C shown.
  const reply = wire("r3", "C", false, { alternatives: ["A", "B"], rating: 1 });
  const conversation = [sync([greeting, wire("u1", "Hi", true), reply])];
  const swipe = (index: number): ChatAction => ({ type: "swipe", messageId: "r3", index });
  const updated = (content: string, alternatives: string[], swipeIndex?: number): ChatAction =>
    frame({
      type: "message_updated",
      messageId: "r3",
      message: wire("r3", content, false, { alternatives, rating: 1, ...(swipeIndex === undefined ? {} : { swipeIndex }) }),
    });
  const shown = (state: ChatState) => {
    const item = state.messages.find((m) => m.id === "r3")!;
    return { content: item.content, alternatives: item.alternatives, swipeIndex: item.swipeIndex };
  };

  it("is offered on the last stored reply with more than one version, never while busy or under a later message", () => {
    expect(swipeableReplyId(run(conversation))).toBe("r3");
    expect(swipeableReplyId(run([sync([greeting])]))).toBeNull();
    expect(swipeableReplyId(run([sync([greeting, wire("u1", "Hi", true), wire("r1", "Only one", false)])]))).toBeNull();
    expect(swipeableReplyId(run([send("k2", "And then?")], run(conversation)))).toBeNull();
    expect(swipeableReplyId(run([{ type: "regenerate" }], run(conversation)))).toBeNull();
  });

  it("shows the chosen version at once, keeps the versions in written order, and message_updated confirms it", () => {
    let state = run([...conversation, swipe(0)]);
    expect(shown(state)).toEqual({ content: "A", alternatives: ["B", "C"], swipeIndex: 0 });
    expect(state.messages[2]!.rating).toBe(1);
    state = run([updated("A", ["B", "C"], 0)], state);
    expect(shown(state)).toEqual({ content: "A", alternatives: ["B", "C"], swipeIndex: 0 });
    expect(state.swiping).toBeNull();
    // Back to the newest: no swipeIndex.
    state = run([swipe(2)], state);
    expect(shown(state)).toEqual({ content: "C", alternatives: ["A", "B"], swipeIndex: undefined });
  });

  it("two quick swipes: the first answer does not pull the reply back, the last one settles it", () => {
    let state = run([...conversation, swipe(1), swipe(0)]);
    expect(shown(state).content).toBe("A");
    state = run([updated("B", ["A", "C"], 1)], state);
    expect(shown(state).content).toBe("A");
    state = run([updated("A", ["B", "C"], 0)], state);
    expect(shown(state)).toEqual({ content: "A", alternatives: ["B", "C"], swipeIndex: 0 });
    expect(state.swiping).toBeNull();
  });

  it("a refused swipe puts back what the server last said and tells why, leaving everything else alone", () => {
    let state = run([...conversation, swipe(1), swipe(0), updated("B", ["A", "C"], 1)]);
    state = run(
      [frame({ type: "error", code: "busy", message: "Please wait for the reply to finish before choosing another version." })],
      state,
    );
    expect(shown(state)).toEqual({ content: "B", alternatives: ["A", "C"], swipeIndex: 1 });
    expect(state.error).toEqual({ code: "busy", message: "Please wait for the reply to finish before choosing another version.", retryable: false });
    expect(state.swiping).toBeNull();
    expect(isBusy(state)).toBe(false);
    expect(swipeableReplyId(state)).toBe("r3");
  });

  it("a swipe from another tab replaces the reply in place; a swipe of an unknown version changes nothing", () => {
    let state = run([...conversation, updated("B", ["A", "C"], 1)]);
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1", "r3"]);
    expect(shown(state)).toEqual({ content: "B", alternatives: ["A", "C"], swipeIndex: 1 });
    expect(run([swipe(3)], state)).toBe(state);
  });

  it("regenerate after a swipe: the new reply keeps every version in written order", () => {
    const state = run([...conversation, swipe(0), updated("A", ["B", "C"], 0), { type: "regenerate" }, started("r4", "r3")]);
    expect(state.messages[2]).toMatchObject({ id: "r4", alternatives: ["A", "B", "C"], status: "streaming" });
    expect(state.messages[2]!.swipeIndex).toBeUndefined();
  });
});

const steer = (f: SteeringFrame): ChatAction => ({ type: "steer", frame: f, at: "2026-01-01T00:05:00.000Z" });
const edit = (clientId: string, messageId: string, content: string) => steer({ type: "edit_message", clientId, messageId, content });
const editAnswered = (messageId: string, content: string, isUser: boolean, clientId?: string): ChatAction =>
  frame({
    type: "message_updated",
    messageId,
    message: wire(messageId, content, isUser, { editedAt: "2026-01-01T00:05:01.000Z" }),
    ...(clientId ? { clientId } : {}),
  });
const deleted = (messageIds: string[], clientId?: string): ChatAction =>
  frame({ type: "messages_deleted", messageIds, ...(clientId ? { clientId } : {}) });

describe("editing a message", () => {
  const conversation = [sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello there.", false, { rating: 1 })])];

  it("shows the edit at once, marked edited, and message_updated with its clientId confirms it", () => {
    let state = run([...conversation, edit("e1", "r1", "Hello there, friend.")]);
    expect(state.messages[2]).toMatchObject({ content: "Hello there, friend.", editedAt: "2026-01-01T00:05:00.000Z", rating: 1, status: "saved" });
    expect(isSteerPending(state, "e1")).toBe(true);
    state = run([editAnswered("r1", "Hello there, friend.", false, "e1")], state);
    expect(state.messages[2]).toMatchObject({ content: "Hello there, friend.", editedAt: "2026-01-01T00:05:01.000Z" });
    expect(state.steering).toEqual([]);
    expect(isBusy(state)).toBe(false);
  });

  it("a refused edit puts the text back and says why, without failing anything else or waiting", () => {
    let state = run([...conversation, send("k1", "Still sending"), edit("e1", "u1", "Hi again")]);
    expect(state.messages[1]!.content).toBe("Hi again");
    state = run([frame({ type: "error", code: "message_not_found", message: "That message is not in this conversation.", clientId: "e1" })], state);
    expect(state.messages[1]).toMatchObject({ content: "Hi", status: "saved" });
    expect(state.messages[1]!.editedAt).toBeUndefined();
    expect(contents(state).at(-1)).toBe("U:Still sending:pending");
    expect(state.waiting).toBe(true);
    expect(state.error).toEqual({ code: "message_not_found", message: "That message is not in this conversation.", retryable: false });
    expect(state.steering).toEqual([]);
  });

  it("two quick edits: the first answer does not pull the text back, a refusal of the second shows the first", () => {
    let state = run([...conversation, edit("e1", "u1", "Hi once"), edit("e2", "u1", "Hi twice")]);
    state = run([editAnswered("u1", "Hi once", true, "e1")], state);
    expect(state.messages[1]!.content).toBe("Hi twice");
    state = run([frame({ type: "error", code: "busy", message: "Please wait for the reply to finish first.", clientId: "e2" })], state);
    expect(state.messages[1]!.content).toBe("Hi once");
    expect(state.steering).toEqual([]);
  });

  it("an edit from another tab replaces the message in place", () => {
    const state = run([...conversation, editAnswered("u1", "Hi from the other tab", true)]);
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1", "r1"]);
    expect(state.messages[1]).toMatchObject({ content: "Hi from the other tab", editedAt: "2026-01-01T00:05:01.000Z" });
  });

  it("an edit not answered before a reconnect stays shown and is sent again; one caught by a reply being written is dropped", () => {
    let state = run([...conversation, edit("e1", "r1", "Edited"), sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello there.", false)])]);
    expect(state.messages[2]!.content).toBe("Edited");
    expect(unansweredSteering(state)).toEqual([{ type: "edit_message", clientId: "e1", messageId: "r1", content: "Edited" }]);
    state = run([frame({ type: "error", code: "busy", message: "Please wait.", clientId: "e1" })], state);
    expect(state.messages[2]!.content).toBe("Hello there.");

    const caught = run([
      ...conversation,
      edit("e2", "u1", "Edited"),
      sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello there.", false), wire("u2", "More", true), wire("r2", "Wri", false, { status: "streaming" })]),
    ]);
    expect(caught.messages[1]!.content).toBe("Hi");
    expect(caught.steering).toEqual([]);
    expect(unansweredSteering(caught)).toEqual([]);
  });
});

describe("deleting and rewinding", () => {
  const conversation = [
    sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello.", false), wire("u2", "Go on", true), wire("r2", "Onwards.", false)]),
  ];

  it("counts the messages a rewind takes with it", () => {
    const state = run(conversation);
    expect(messagesAfter(state, "u1")).toBe(3);
    expect(messagesAfter(state, "r2")).toBe(0);
    expect(messagesAfter(state, "nope")).toBe(0);
  });

  it("removes nothing until messages_deleted, then exactly the messages it names", () => {
    let state = run([...conversation, steer({ type: "rewind", clientId: "d1", messageId: "r1" })]);
    expect(state.messages).toHaveLength(5);
    expect(isSteerPending(state, "d1")).toBe(true);
    expect(isBusy(state)).toBe(false);
    state = run([deleted(["r1", "u2", "r2"], "d1")], state);
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1"]);
    expect(state.steering).toEqual([]);
    expect(conversationMessageCount(state)).toBe(2);
    expect(continuableReplyId(state)).toBeNull();
  });

  it("a refused delete leaves the list and any reply being written alone", () => {
    const state = run([
      ...conversation,
      steer({ type: "delete_message", clientId: "d1", messageId: "u1" }),
      send("k1", "Next"),
      saved("k1", "u3", "Next"),
      started("r3"),
      frame({ type: "error", code: "busy", message: "Please wait for the reply to finish first.", clientId: "d1" }),
    ]);
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1", "r1", "u2", "r2", "u3", "r3"]);
    expect(state.waiting).toBe(true);
    expect(state.streamingId).toBe("r3");
    expect(state.error?.message).toBe("Please wait for the reply to finish first.");
  });

  it("a delete from another tab drops the message, and an edit of it waiting for its answer", () => {
    const state = run([...conversation, edit("e1", "u2", "Go on, please"), deleted(["u2"])]);
    expect(state.messages.map((m) => m.id)).toEqual(["g", "u1", "r1", "r2"]);
    expect(state.steering).toEqual([]);
  });
});

describe("continuing the last reply", () => {
  const conversation = [sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello.", false, { rating: 1 })])];
  const continuing = [...conversation, steer({ type: "continue", clientId: "c1" }), frame({ type: "reply_started", messageId: "r1", replaces: null, continues: true })];

  it("is offered on the last stored reply (the greeting too), never after the person's message or while busy", () => {
    expect(continuableReplyId(run(conversation))).toBe("r1");
    expect(continuableReplyId(run([sync([greeting])]))).toBe("g");
    expect(continuableReplyId(run([sync([greeting, wire("u1", "Hi", true)])]))).toBeNull();
    expect(continuableReplyId(run([send("k1", "More")], run(conversation)))).toBeNull();
    expect(canSteer(run(conversation))).toBe(true);
    expect(canSteer(initialChatState)).toBe(false);
  });

  it("keeps the reply's text, marks it streaming and lets the deltas extend it", () => {
    let state = run([...conversation, steer({ type: "continue", clientId: "c1" })]);
    expect(state.waiting).toBe(true);
    state = run([frame({ type: "reply_started", messageId: "r1", replaces: null, continues: true })], state);
    expect(state.messages[2]).toMatchObject({ id: "r1", content: "Hello.", status: "streaming" });
    expect(visibleMessages(state).map((m) => m.id)).toEqual(["g", "u1", "r1"]);
    state = run([delta("r1", " *bows*")], state);
    expect(state.messages).toHaveLength(3);
    expect(state.messages[2]).toMatchObject({ id: "r1", content: "Hello. *bows*", status: "streaming", rating: 1 });
    expect(state.streamingId).toBe("r1");
    expect(showTypingIndicator(state)).toBe(false);
    expect(canSteer(state)).toBe(false);
    state = run([response("r1", "Hello. *bows* Welcome.", { rating: 1 })], state);
    expect(state.messages[2]).toMatchObject({ content: "Hello. *bows* Welcome.", status: "saved" });
    expect(isBusy(state)).toBe(false);
    expect(state.steering).toEqual([]);
  });

  it("a failed continue puts the text back and ends the waiting, without failing the person's pending message", () => {
    let state = run([...continuing, delta("r1", " And")]);
    // A pending message of the person (sent before the continue was answered) must not be marked failed by it.
    state = { ...state, messages: [...state.messages.slice(0, 2), { ...state.messages[1]!, id: "local:k9", clientId: "k9", status: "pending" }, state.messages[2]!] };
    state = run(
      [
        frame({ type: "message_updated", messageId: "r1", message: wire("r1", "Hello.", false, { rating: 1 }) }),
        frame({ type: "error", code: "model_failed", message: "Echo couldn't reply just now. Please try again.", clientId: "c1" }),
      ],
      state,
    );
    expect(state.messages.find((m) => m.id === "r1")).toMatchObject({ content: "Hello.", status: "saved" });
    expect(state.messages.find((m) => m.id === "local:k9")!.status).toBe("pending");
    expect(state.streamingId).toBeNull();
    expect(state.waiting).toBe(false);
    expect(state.error).toEqual({ code: "model_failed", message: "Echo couldn't reply just now. Please try again.", retryable: false });
    expect(state.steering).toEqual([]);
  });

  it("another tab's failed continue also ends the reply here, and is not offered as a regenerate", () => {
    const state = run([
      ...conversation,
      frame({ type: "reply_started", messageId: "r1", replaces: null, continues: true }),
      delta("r1", " And"),
      frame({ type: "message_updated", messageId: "r1", message: wire("r1", "Hello.", false) }),
      frame({ type: "error", code: "model_failed", message: "Echo couldn't reply just now. Please try again.", clientId: "other-tab" }),
    ]);
    expect(state.messages.map((m) => [m.id, m.content, m.status])).toEqual([
      ["g", "*waves* Welcome, traveller.", "saved"],
      ["u1", "Hi", "saved"],
      ["r1", "Hello.", "saved"],
    ]);
    expect(isBusy(state)).toBe(false);
    expect(state.error?.retryable).toBe(false);
  });

  it("a continue refused before it started only ends its own waiting", () => {
    const state = run([
      ...conversation,
      steer({ type: "continue", clientId: "c1" }),
      frame({ type: "error", code: "nothing_to_continue", message: "Only a reply of the character can be continued.", clientId: "c1" }),
    ]);
    expect(isBusy(state)).toBe(false);
    expect(state.messages[2]).toMatchObject({ content: "Hello.", status: "saved" });
  });

  it("a continue not answered before a reconnect is sent again, unless its reply is being written", () => {
    const lost = run([...conversation, steer({ type: "continue", clientId: "c1" }), ...conversation]);
    expect(lost.waiting).toBe(true);
    expect(unansweredSteering(lost)).toEqual([{ type: "continue", clientId: "c1" }]);
    const running = run([...conversation, steer({ type: "continue", clientId: "c1" }), sync([greeting, wire("u1", "Hi", true), wire("r1", "Hello. And", false, { status: "streaming" })])]);
    expect(unansweredSteering(running)).toEqual([]);
    expect(running.streamingId).toBe("r1");
    expect(run([response("r1", "Hello. And more.")], running).steering).toEqual([]);
  });
});

describe("memory", () => {
  it("comes with history_sync and follows memory_updated; ours is pending until its answer", () => {
    let state = run([frame({ type: "history_sync", conversationId: CONVERSATION, messages: [greeting], chatModel: "offline", memory: "Likes tea." })]);
    expect(state.memory).toBe("Likes tea.");
    state = run([steer({ type: "set_memory", clientId: "m1", memory: "Likes coffee." })], state);
    expect(state.memory).toBe("Likes tea.");
    expect(isSteerPending(state, "m1")).toBe(true);
    state = run([frame({ type: "memory_updated", memory: "Likes coffee.", clientId: "m1" })], state);
    expect(state.memory).toBe("Likes coffee.");
    expect(isSteerPending(state, "m1")).toBe(false);
    state = run([frame({ type: "memory_updated", memory: "" })], state);
    expect(state.memory).toBe("");
  });
});

describe("group chats", () => {
  const ANA = 1;
  const BO = 2;
  const started = (id: string, characterId: number, replaces: string | null = null): ChatAction =>
    frame({ type: "reply_started", messageId: id, replaces, characterId });
  const opening = [sync([greeting, wire("u1", "Hi, both of you", true, { authorName: "Mira" })])];

  it("each reply carries its speaker from reply_started on, and keeps it once stored", () => {
    let state = run([...opening, started("r1", ANA)]);
    expect(state.messages.at(-1)).toMatchObject({ id: "r1", characterId: ANA, status: "streaming" });
    state = run([delta("r1", "Hello"), response("r1", "Hello.", { characterId: ANA }), started("r2", BO), delta("r2", "Hey")], state);
    expect(state.messages.slice(2).map((m) => [m.id, m.characterId, m.content])).toEqual([
      ["r1", ANA, "Hello."],
      ["r2", BO, "Hey"],
    ]);
    expect(state.messages[1]).toMatchObject({ isUser: true, authorName: "Mira" });
  });

  it("a round of several replies keeps the page busy while each one streams and ends with the last", () => {
    let state = run([...opening, send("c2", "And now?"), saved("c2", "u2", "And now?"), started("r1", ANA)]);
    expect(isBusy(state)).toBe(true);
    state = run([response("r1", "Me first.", { characterId: ANA }), started("r2", BO)], state);
    expect(isBusy(state)).toBe(true);
    expect(state.streamingId).toBe("r2");
    state = run([response("r2", "Then me.", { characterId: BO })], state);
    expect(isBusy(state)).toBe(false);
  });

  it("regenerate keeps the speaker of the reply it replaces, even when the frame does not name one", () => {
    const base = run([...opening, started("r1", BO), response("r1", "First try.", { characterId: BO })]);
    const state = run([{ type: "regenerate" }, started("r2", BO, "r1")], base);
    expect(state.messages.at(-1)).toMatchObject({ id: "r2", characterId: BO, alternatives: ["First try."] });
    const unnamed = run([{ type: "regenerate" }, frame({ type: "reply_started", messageId: "r2", replaces: "r1" })], base);
    expect(unnamed.messages.at(-1)).toMatchObject({ id: "r2", characterId: BO });
  });

  it("generate awaits a reply like regenerate; a refusal (not_a_member) ends the waiting and says why", () => {
    const base = run(opening);
    let state = run([{ type: "generate", characterId: BO }], base);
    expect(isBusy(state)).toBe(true);
    state = run([frame({ type: "error", code: "not_a_member", message: "That character is not in this chat." })], state);
    expect(isBusy(state)).toBe(false);
    expect(state.error).toMatchObject({ code: "not_a_member", retryable: false });
    expect(state.messages.map((m) => m.status)).toEqual(["saved", "saved"]);
  });

  it("a message nobody answers on their own (manual order, everyone muted) does not keep the page busy", () => {
    let state = run([...opening, { type: "send", clientId: "c2", content: "Hm.", createdAt: "2026-01-01T00:01:00.000Z", awaitReply: false }]);
    expect(isBusy(state)).toBe(false);
    expect(state.messages.at(-1)).toMatchObject({ status: "pending", content: "Hm." });
    state = run([saved("c2", "u2", "Hm.")], state);
    expect(isBusy(state)).toBe(false);
    expect(state.messages.at(-1)).toMatchObject({ id: "u2", status: "saved" });
  });

  it("hide from context waits for message_updated naming it, then shows the message hidden; unhide brings it back", () => {
    let state = run([...opening, steer({ type: "hide_message", messageId: "u1", hidden: true, clientId: "h1" })]);
    expect(isSteerPending(state, "h1")).toBe(true);
    expect(state.messages[1]!.hidden).toBeUndefined();
    state = run([frame({ type: "message_updated", messageId: "u1", message: wire("u1", "Hi, both of you", true, { hidden: true }), clientId: "h1" })], state);
    expect(isSteerPending(state, "h1")).toBe(false);
    expect(state.messages[1]!.hidden).toBe(true);
    state = run([frame({ type: "message_updated", messageId: "u1", message: wire("u1", "Hi, both of you", true) })], state);
    expect(state.messages[1]!.hidden).toBeUndefined();
  });

  it("a refused hide leaves the message as it was and says why", () => {
    const state = run([
      ...opening,
      steer({ type: "hide_message", messageId: "u1", hidden: true, clientId: "h1" }),
      frame({ type: "error", code: "busy", message: "Wait for the reply to finish.", clientId: "h1" }),
    ]);
    expect(state.messages[1]!.hidden).toBeUndefined();
    expect(state.error?.message).toBe("Wait for the reply to finish.");
    expect(state.steering).toEqual([]);
  });

  it("the author's note comes with history_sync and follows author_note_updated; ours is pending until its answer", () => {
    expect(initialChatState.authorNote).toEqual({ text: "", depth: 4, interval: 1 });
    let state = run([
      frame({
        type: "history_sync",
        conversationId: CONVERSATION,
        messages: [greeting],
        chatModel: "offline",
        authorNote: { text: "Keep it short.", depth: 2, interval: 3 },
      }),
    ]);
    expect(state.authorNote).toEqual({ text: "Keep it short.", depth: 2, interval: 3 });
    state = run([steer({ type: "set_author_note", text: "Rain falls.", depth: 0, interval: 1, clientId: "a1" })], state);
    expect(isSteerPending(state, "a1")).toBe(true);
    expect(state.authorNote.text).toBe("Keep it short.");
    state = run([frame({ type: "author_note_updated", authorNote: { text: "Rain falls.", depth: 0, interval: 1 }, clientId: "a1" })], state);
    expect(state.authorNote).toEqual({ text: "Rain falls.", depth: 0, interval: 1 });
    expect(isSteerPending(state, "a1")).toBe(false);
  });

  it("every member's greeting opens the chat: none of them is rateable, the replies after the person's message are", () => {
    const state = run([
      sync([greeting, wire("g2", "*nods*", false, { characterId: BO }), wire("u1", "Hi", true), wire("r1", "Hello.", false, { characterId: BO })]),
    ]);
    expect(state.messages.map((m) => isRateable(state, m))).toEqual([false, false, false, true]);
  });

  it("cast_updated leaves the messages alone", () => {
    const base = run(opening);
    expect(run([frame({ type: "cast_updated", characters: [{ id: ANA, name: "Ana", muted: true, talkativeness: 0.5 }], replyOrder: "list" })], base)).toEqual(base);
  });
});

describe("shared rooms: presence and typing", () => {
  const ANA = "user-ana";
  const BO = "user-bo";
  const presence = (...people: [string, string][]): ChatAction =>
    frame({ type: "presence", people: people.map(([userId, name]) => ({ userId, name, typing: false })) });
  const typing = (userId: string, name: string, at: number): ChatAction => ({ type: "frame", frame: { type: "typing", userId, name }, at });

  it("keeps who is here from the last presence frame, in order", () => {
    const state = run([presence([ANA, "Ana"], [BO, "Bo"]), presence([BO, "Bo"])]);
    expect(state.people).toEqual([{ userId: BO, name: "Bo" }]);
  });

  it("shows a typing person until five seconds pass without another typing frame", () => {
    const state = run([presence([ANA, "Ana"], [BO, "Bo"]), typing(ANA, "Ana", 1_000)]);
    expect(typingNames(state, 1_000)).toEqual(["Ana"]);
    expect(typingNames(state, 1_000 + TYPING_SHOWN_MS - 1)).toEqual(["Ana"]);
    expect(typingNames(state, 1_000 + TYPING_SHOWN_MS)).toEqual([]);
    // A new frame starts the five seconds again.
    const again = run([typing(ANA, "Ana", 4_000)], state);
    expect(typingNames(again, 1_000 + TYPING_SHOWN_MS)).toEqual(["Ana"]);
    expect(again.typing).toHaveLength(1);
  });

  it("stops showing a person typing once their message arrives or they leave", () => {
    const base = run([presence([ANA, "Ana"], [BO, "Bo"]), typing(ANA, "Ana", 1_000), typing(BO, "Bo", 1_000)]);
    expect(typingNames(base, 1_000)).toEqual(["Ana", "Bo"]);
    const afterMessage = run(
      [frame({ type: "message_saved", clientId: "x", messageId: "m1", message: wire("m1", "Hi", true, { authorId: ANA, authorName: "Ana" }) })],
      base,
    );
    expect(typingNames(afterMessage, 1_000)).toEqual(["Bo"]);
    expect(afterMessage.messages.at(-1)?.authorName).toBe("Ana");
    expect(typingNames(run([presence([ANA, "Ana"])], base), 1_000)).toEqual(["Ana"]);
  });

  it("says who is typing in a sentence", () => {
    expect(typingText([])).toBe("");
    expect(typingText(["Ana"])).toBe("Ana is typing…");
    expect(typingText(["Ana", "Bo"])).toBe("Ana and Bo are typing…");
    expect(typingText(["Ana", "Bo", "Cy"])).toBe("Several people are typing…");
  });
});

describe("running summary", () => {
  it("comes with history_sync and follows summary_updated; ours is pending until its answer, a reset empties it", () => {
    let state = run([frame({ type: "history_sync", conversationId: CONVERSATION, messages: [greeting], chatModel: "offline", summary: "They met." })]);
    expect(state.summary).toBe("They met.");
    state = run([steer({ type: "set_summary", clientId: "s1", summary: "They met at the docks." })], state);
    expect(state.summary).toBe("They met.");
    expect(isSteerPending(state, "s1")).toBe(true);
    state = run([frame({ type: "summary_updated", summary: "They met at the docks.", clientId: "s1" })], state);
    expect(state.summary).toBe("They met at the docks.");
    expect(isSteerPending(state, "s1")).toBe(false);
    state = run([frame({ type: "summary_updated", summary: "" })], state);
    expect(state.summary).toBe("");
  });
});

describe("chatFooterText", () => {
  it("is SPEC.md §2's line with the count", () => {
    expect(chatFooterText(3)).toBe("All stories and characters are fictional • 3 messages in this conversation");
    expect(chatFooterText(0)).toBe("All stories and characters are fictional • 0 messages in this conversation");
    expect(chatFooterText(1)).toBe("All stories and characters are fictional • 1 messages in this conversation");
  });
});

describe("pictures (DESIGN.md \"Pictures\")", () => {
  const picture = wire("p1", "", false, { kind: "image", imageUrl: "/objects/pictures/c/p1", prompt: "A night sea", width: 768, height: 768, authorId: "u1" });

  it("a placeholder from image_started, replaced by the picture on image_ready", () => {
    let state = run([sync([greeting]), send("m1", "Hello"), frame({ type: "image_started", requestId: "r1", userId: "u1", startedAt: "2026-01-01T00:03:00.000Z", prompt: "A night sea" })]);
    expect(state.imagining).toEqual([{ requestId: "r1", userId: "u1", startedAt: "2026-01-01T00:03:00.000Z", prompt: "A night sea" }]);
    state = run([frame({ type: "image_ready", requestId: "r1", message: picture })], state);
    expect(state.imagining).toEqual([]);
    expect(state.messages.at(-1)).toMatchObject({ id: "p1", kind: "image", imageUrl: "/objects/pictures/c/p1", prompt: "A night sea", width: 768 });
    // The person's message is untouched.
    expect(state.messages.find((m) => m.clientId === "m1")?.status).toBe("pending");
  });

  it("image_stopped drops the placeholder; an error naming the request fails nothing else", () => {
    let state = run([sync([greeting]), send("m1", "Hello"), frame({ type: "image_started", requestId: "r2", userId: "u1", startedAt: "2026-01-01T00:03:00.000Z" })]);
    state = run([frame({ type: "image_stopped", requestId: "r2", reason: "failed" }), frame({ type: "error", code: "image_failed", message: "The picture could not be made. Please try again.", requestId: "r2" })], state);
    expect(state.imagining).toEqual([]);
    expect(state.error).toEqual({ code: "image_failed", message: "The picture could not be made. Please try again.", retryable: false });
    expect(state.messages.find((m) => m.clientId === "m1")?.status).toBe("pending");
    expect(state.waiting).toBe(true);
  });

  it("history_sync keeps the pictures the server has and clears placeholders", () => {
    let state = run([frame({ type: "image_started", requestId: "r3", userId: "u1", startedAt: "2026-01-01T00:03:00.000Z" })]);
    state = run([sync([greeting, picture])], state);
    expect(state.imagining).toEqual([]);
    expect(state.messages.map((m) => m.kind ?? "text")).toEqual(["text", "image"]);
  });
});
