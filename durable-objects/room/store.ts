/**
 * The room's store: every statement the ConversationRoom runs on its own
 * SQLite (`ctx.storage.sql`), and its `room` row kept in memory
 * (`RoomStore`), with parts of its own: the cast (`store.cast`, cast.ts),
 * the people and their thumbs (`store.people`, people.ts), what is kept
 * between frames, the members' cards and steering answers (`store.kept`,
 * kept.ts), what steering and screening change in a stored message
 * (`store.edits`, message-edits.ts) and a reply's row while it is written
 * (`store.replyRows`, reply-rows.ts); a new room's first rows are seed.ts. No other module of the room writes SQL for
 * its storage; the tables, row shapes and migrations are migrations.ts,
 * what a message row means beyond its columns (seed, versions, tokens)
 * message-rows.ts.
 *
 * Times are ms since the epoch. Statements throw what SQLite throws (a
 * violated constraint); none is expected in use.
 */
import { RoomLore } from "./lore.ts";
import { type PictureCopy, RoomSeed } from "./seed.ts";
import { StoragePart } from "./storage-part.ts";
import { type AuthorNote, type ChatMessage, type ReplyOrder } from "../../schema/chat.ts";
import { replyVersions, type ServerFrame } from "../../schema/chat-frames.ts";
import type { RoomCastMember, RoomFacts } from "../room-protocol.ts";
import { versionFields, versionUsage } from "./message-rows.ts";
import { RoomCast } from "./cast.ts";
import { RoomKept } from "./kept.ts";
import { recalledOf, RoomMemory } from "./memory.ts";
import type { Embedder } from "../../ai/embeddings/embedder.ts";
import { OfflineEmbedder } from "../../ai/embeddings/offline.ts";
import { MessageEdits } from "./message-edits.ts";
import { ReplyRows } from "./reply-rows.ts";
import { type MessageRow, migrateRoomStorage, type RoomRow } from "./migrations.ts";
import { RoomPeople } from "./people.ts";
import { imageObjectKeys, ImageRows, withPictures } from "./image-rows.ts";
import { type ConversationSearchMatch, searchSnippet } from "../../schema/chat-search.ts";

export type { CastRow, MessageRow, PersonRow, RoomRow } from "./migrations.ts";
export type { ChosenVersion } from "./message-edits.ts";

/** The text of a reply being written that sockets have been sent, to show in its row instead of what is saved. */
export interface StreamingText {
  id: string;
  sent: string;
}

/**
 * Every statement the room runs on its own SQLite, and the `room` row kept
 * in memory (`room`, null before `initialize` and after a wipe).
 */
export class RoomStore extends StoragePart {
  /** The conversation's facts; null before `initialize` and after the conversation was deleted. */
  room: RoomRow | null = null;
  /** The conversation was deleted (`wipe`): the object answers nothing any more. */
  deleted = false;
  /** The cast in member order, kept in memory (cast.ts; replaced by `setCast`). */
  readonly cast: RoomCast;
  /** The room's people and their thumbs (people.ts). */
  readonly people: RoomPeople;
  /** Members' cards and steering frames' answers, kept between frames (kept.ts). */
  readonly kept: RoomKept;
  /** What steering and screening change in a stored message (message-edits.ts). */
  readonly edits: MessageEdits;
  /** A reply's row while it is written: begun, drafted, completed, dropped (reply-rows.ts). */
  readonly replyRows: ReplyRows;
  /**
   * Told the ids of messages whose words changed or went (an edit, a
   * deletion, screening, an operator's removal): the room deletes their
   * audio read aloud (speech-audio.ts). Nothing by default.
   */
  onWordsChanged: (messageIds: string[]) => void = () => {};
  /**
   * Told the R2 keys of pictures that went with a rewind (images.ts): the
   * room deletes their objects. Nothing by default.
   */
  onPicturesGone: (objectKeys: string[]) => void = () => {};
  /** Vectors, recall and prompt records (memory.ts). */
  readonly memory: RoomMemory;
  /** Pictures imagined in the chat (image-rows.ts). */
  readonly images: ImageRows;
  /** Lorebook timers (lore.ts). */
  readonly lore: RoomLore;

  /** `embedder`: the room's (EMBEDDING_PROVIDER); tests of the store alone get the offline one. */
  constructor(storage: DurableObjectStorage, embedder: () => Embedder | Promise<Embedder> = () => new OfflineEmbedder()) {
    super(storage);
    this.memory = new RoomMemory(storage, embedder);
    this.lore = new RoomLore(storage);
    this.cast = new RoomCast(storage);
    this.people = new RoomPeople(storage);
    this.kept = new RoomKept(storage);
    this.edits = new MessageEdits(storage, (messageIds) => this.onWordsChanged(messageIds));
    this.images = new ImageRows(storage);
    this.replyRows = new ReplyRows(storage, this.memory);
  }

  /** Migrates (migrateRoomStorage) and reads the `room` row. Call inside `blockConcurrencyWhile`. */
  open(): void {
    migrateRoomStorage(this.storage);
    this.room = this.sql<RoomRow>("SELECT * FROM room WHERE id = 1")[0] ?? null;
    this.cast.read();
  }

  /**
   * The room's facts and its first messages, in one transaction (RoomSeed,
   * seed.ts). Returns a branch's pictures' objects to copy, which
   * RoomImages.copyIn does.
   */
  create(facts: RoomFacts): PictureCopy[] {
    const copies = new RoomSeed(this.storage, this.cast, this.lore, this.images).write(facts);
    this.room = this.sql<RoomRow>("SELECT * FROM room WHERE id = 1")[0] ?? null;
    this.cast.read();
    return copies;
  }

  // --- messages waiting for a round (rounds.ts) ---------------------------

  /** Every message stored so far has been taken up by a reply round (one is starting now, or none is due). */
  markAllAnswered(): void {
    const through = this.sql<{ seq: number | null }>("SELECT max(seq) AS seq FROM messages")[0]?.seq ?? 0;
    if (through <= this.room!.answered_through) return;
    this.sql("UPDATE room SET answered_through = ? WHERE id = 1", through);
    this.room!.answered_through = through;
  }

  /** The newest message of a person that no reply round has taken up yet (stored while one ran), if any. */
  latestUnanswered(): MessageRow | null {
    return (
      this.sql<MessageRow>(
        "SELECT * FROM messages WHERE status = 'complete' AND role = 'user' AND seq > ? ORDER BY seq DESC LIMIT 1",
        this.room!.answered_through,
      )[0] ?? null
    );
  }

  /** The newest visible message of a person, if any (the message a reply answers). */
  lastUserMessage(): MessageRow | null {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND role = 'user' ORDER BY seq DESC LIMIT 1")[0] ?? null;
  }

  // --- the cast ------------------------------------------------------------

  /** The cast and reply order as the Worker now says (a member added, removed, muted …); the first member becomes the room's character. */
  setCast(members: RoomCastMember[], replyOrder: ReplyOrder): void {
    if (members.length === 0) return;
    this.storage.transactionSync(() => {
      this.cast.write(members);
      this.sql("UPDATE room SET reply_order = ?, character_id = ? WHERE id = 1", replyOrder, members[0]!.characterId);
    });
    this.room!.reply_order = replyOrder;
    this.room!.character_id = members[0]!.characterId;
    this.cast.read();
  }

  /** The author's note (schema/chat.ts AuthorNote). */
  authorNote(): AuthorNote {
    const room = this.room!;
    return { text: room.author_note, depth: room.author_note_depth, interval: room.author_note_interval };
  }

  setAuthorNote(note: AuthorNote): void {
    this.sql("UPDATE room SET author_note = ?, author_note_depth = ?, author_note_interval = ? WHERE id = 1", note.text, note.depth, note.interval);
    Object.assign(this.room!, { author_note: note.text, author_note_depth: note.depth, author_note_interval: note.interval });
  }

  /** "Hide from context" on (or off) for a visible message; null when there is no such message. */
  setHidden(messageId: string, hidden: boolean): MessageRow | null {
    return (
      this.sql<MessageRow>("UPDATE messages SET hidden = ? WHERE id = ? AND status = 'complete' RETURNING *", hidden ? 1 : 0, messageId)[0] ?? null
    );
  }

  /** Forgets everything: the conversation was deleted. */
  async wipe(): Promise<void> {
    this.deleted = true;
    this.people.forget();
    this.room = null;
    await this.storage.deleteAlarm();
    await this.storage.deleteAll();
  }

  // --- the room row ------------------------------------------------------

  /** Keeps who the person is in this conversation (name for `{{user}}`, persona description; null: unchanged), as the Worker last said. */
  notePerson(userName: string, personaDescription: string | null): void {
    const room = this.room!;
    if (userName && userName !== room.user_name) {
      this.sql("UPDATE room SET user_name = ? WHERE id = 1", userName);
      room.user_name = userName;
    }
    if (personaDescription !== null && personaDescription !== room.persona_description) {
      this.sql("UPDATE room SET persona_description = ? WHERE id = 1", personaDescription);
      room.persona_description = personaDescription;
    }
    this.people.note(room.user_id, { name: room.user_name, personaDescription: room.persona_description, role: "owner" });
  }

  setMemory(memory: string): void {
    this.sql("UPDATE room SET memory = ? WHERE id = 1", memory);
    this.room!.memory = memory;
  }

  /**
   * The owner's own text for the running summary (`set_summary`): it covers
   * the same messages as before; "" resets it (it covers none, and the
   * whole history is the prompt's again until the next summary).
   */
  replaceSummary(summary: string): void {
    if (summary === "") this.setSummary("", 0);
    else this.setSummary(summary, this.room!.summary_through);
  }

  /** The running summary now covers the messages up to `through` (a `seq`). */
  setSummary(summary: string, through: number): void {
    this.sql("UPDATE room SET summary = ?, summary_through = ? WHERE id = 1", summary, through);
    this.room!.summary = summary;
    this.room!.summary_through = through;
  }

  // --- reading messages --------------------------------------------------

  /**
   * The author of messages `userId` wrote is forgotten (they deleted their
   * account): the messages stay, under `authorId` and `authorName`
   * (DELETED_ACCOUNT_ID, "a deleted account"). Returns how many.
   */
  relabelAuthor(userId: string, author: { id: string; name: string }): number {
    return this.sql<{ id: string }>(
      "UPDATE messages SET author_id = ?, author_name = ? WHERE role = 'user' AND author_id = ? RETURNING id",
      author.id,
      author.name,
      userId,
    ).length;
  }

  /**
   * A row as the wire has it for `viewer` (a user id): a reply's `rating` is
   * that person's own thumb (null without a viewer); a streaming row shows
   * what its sockets were sent (`streaming`), when that is its text.
   */
  toWire(row: MessageRow, streaming: StreamingText | null = null, viewer: string | null = null): ChatMessage {
    const message: ChatMessage = {
      id: row.id,
      conversationId: this.room!.conversation_id,
      content: row.content,
      isUser: row.role === "user",
      createdAt: new Date(row.created_at).toISOString(),
      clientId: row.client_id,
      rating: row.role === "character" && viewer !== null ? this.people.ratingOf(row.id, viewer) : null,
      alternatives: JSON.parse(row.alternatives) as string[],
    };
    if (row.swipe_index !== null) message.swipeIndex = row.swipe_index;
    if (row.edited_at !== null) message.editedAt = new Date(row.edited_at).toISOString();
    if (row.role === "character") message.characterId = row.character_id ?? this.room!.character_id;
    else {
      message.authorId = row.author_id ?? this.room!.user_id;
      message.authorName = row.author_name ?? this.room!.user_name;
    }
    if (row.hidden) message.hidden = true;
    if (row.role === "character") {
      message.expression = row.expression ?? null;
      const usage = versionUsage(row);
      const shown = usage[replyVersions(versionFields(row)).current];
      if (shown) message.usage = shown;
      if (usage.length > 1 && usage.some(Boolean)) message.versionUsage = usage;
      message.recalled = recalledOf(row);
    }
    if (row.status === "streaming") {
      message.status = "streaming";
      // Exactly what this socket's later deltas continue from.
      if (streaming?.id === row.id) message.content = streaming.sent;
    }
    return message;
  }

  /** The name a message is embedded and recalled under: its author's, or its speaker's as the cast last said (memory.ts). */
  nameOf(row: Pick<MessageRow, "role" | "author_name" | "character_id">): string | undefined {
    if (row.role === "user") return row.author_name ?? this.room?.user_name ?? undefined;
    const id = row.character_id ?? this.room?.character_id;
    return (id !== undefined && this.cast.member(id)?.name) || undefined;
  }

  /**
   * The chat as a person reads it, oldest first: the visible messages (and,
   * `withStreaming`, a reply being written, as `toWire` shows it to
   * `viewer`) with the pictures in their places (image-rows.ts).
   */
  wireHistory(viewer: string | null, streaming: StreamingText | null, withStreaming: boolean): ChatMessage[] {
    const conversationId = this.room!.conversation_id;
    const rows = this.visibleRows().filter((row) => withStreaming || row.status !== "streaming");
    return withPictures(
      rows.map((row) => ({ seq: row.seq, wire: this.toWire(row, streaming, viewer) })),
      this.images.all().map((row) => ({ row, wire: this.images.toWire(row, conversationId) })),
    );
  }

  /** Visible messages (and a reply being written), oldest first. */
  visibleRows(): MessageRow[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status IN ('complete', 'streaming') ORDER BY seq");
  }

  /**
   * The ids of the messages of characters `characterIds` (complete or
   * superseded) whose text is not `hiddenText` yet, oldest first: what an
   * operator's removal of those characters hides (docs/decisions/0025).
   */
  messageIdsOfCharacters(characterIds: readonly number[], hiddenText: string): string[] {
    if (!this.room || characterIds.length === 0) return [];
    return this.sql<{ id: string }>(
      `SELECT id FROM messages WHERE role = 'character' AND coalesce(character_id, ?) IN (SELECT value FROM json_each(?))
         AND status IN ('complete', 'superseded') AND content != ? ORDER BY seq`,
      this.room.character_id,
      JSON.stringify(characterIds),
      hiddenText,
    ).map((row) => row.id);
  }

  /** A visible (complete) message by id. */
  visibleRow(messageId: string): MessageRow | null {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE id = ? AND status = 'complete'", messageId)[0] ?? null;
  }

  /** Any message by id (a swipe's row after its update). */
  row(messageId: string): MessageRow | null {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE id = ?", messageId)[0] ?? null;
  }

  /** The person's message stored with `clientId`, if any. */
  rowByClientId(clientId: string): MessageRow | null {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE client_id = ?", clientId)[0] ?? null;
  }

  /**
   * The newest visible message whose words contain `pattern` (My Chats
   * search, schema/chat-search.ts), with the excerpt around the match; null
   * when none does. Reads newest first and stops at the first match.
   */
  findText(pattern: RegExp): ConversationSearchMatch | null {
    for (const row of this.storage.sql.exec<{ id: string; content: string }>(
      "SELECT id, content FROM messages WHERE status = 'complete' ORDER BY seq DESC",
    )) {
      const snippet = searchSnippet(row.content, pattern);
      if (snippet !== null) return { messageId: row.id, snippet };
    }
    return null;
  }

  /** The last visible message, if any. */
  lastVisible(): MessageRow | null {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT 1")[0] ?? null;
  }

  /** The last two visible messages, newest first. */
  lastTwo(): MessageRow[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT 2");
  }

  /** The visible messages up to and including `messageId`, oldest first; null when it is not a visible message. */
  rowsThrough(messageId: string): MessageRow[] | null {
    const at = this.sql<{ seq: number }>("SELECT seq FROM messages WHERE id = ? AND status = 'complete'", messageId)[0];
    if (!at) return null;
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND seq <= ? ORDER BY seq", at.seq);
  }

  /** The visible messages after the summary, oldest first: what a prompt's history is made of. */
  rowsAfterSummary(): MessageRow[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND seq > ? ORDER BY seq", this.room!.summary_through);
  }

  /** The text of the person's last visible message before `seq` (what a reply answered). */
  userMessageBefore(seq: number): string | null {
    return (
      this.sql<{ content: string }>(
        "SELECT content FROM messages WHERE status = 'complete' AND role = 'user' AND seq < ? ORDER BY seq DESC LIMIT 1",
        seq,
      )[0]?.content ?? null
    );
  }

  /** The visible messages before `seq`, newest first, at most `limit` (who spoke last, who spoke last round). */
  recentBefore(seq: number, limit = 50): MessageRow[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND seq < ? ORDER BY seq DESC LIMIT ?", seq, limit);
  }

  /** How many messages of people the conversation holds (the author's note's interval counts them). */
  userMessageCount(): number {
    return this.sql<{ n: number }>("SELECT count(*) AS n FROM messages WHERE status = 'complete' AND role = 'user'")[0]?.n ?? 0;
  }

  /** Replies being written when the object last stopped. */
  streamingRows(): MessageRow[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'streaming'");
  }

  // --- writing messages --------------------------------------------------

  /**
   * Stores a message of the person `author` (their user id and the name they
   * write under). Null when a message with this `clientId` is already stored
   * (a resend that arrived while the first was being admitted): nothing is written.
   */
  insertUserMessage(content: string, clientId: string | null, author: { id: string; name: string }): MessageRow | null {
    return this.sql<MessageRow>(
      "INSERT INTO messages (id, role, content, created_at, client_id, author_id, author_name) VALUES (?, 'user', ?, ?, ?, ?, ?) ON CONFLICT (client_id) DO NOTHING RETURNING *",
      crypto.randomUUID(),
      content,
      Date.now(),
      clientId,
      author.id,
      author.name,
    )[0] ?? null;
  }

  /**
   * Deletes `row` (`one`) or it and every message after it (`from_here`),
   * and the summary when it covered `row`, in one transaction; a rewind
   * takes the pictures shown after `row` too (`onPicturesGone`). Returns
   * the ids of the deleted messages that were visible, and of those pictures.
   */
  deleteMessages(row: MessageRow, scope: "one" | "from_here"): string[] {
    const room = this.room!;
    const visible = this.storage.transactionSync(() => {
      const deleted =
        scope === "one"
          ? this.sql<{ id: string; status: string }>("DELETE FROM messages WHERE id = ? RETURNING id, status", row.id)
          : this.sql<{ id: string; status: string }>("DELETE FROM messages WHERE seq >= ? RETURNING id, status", row.seq);
      if (row.seq <= room.summary_through) {
        this.sql("UPDATE room SET summary = '', summary_through = 0 WHERE id = 1");
        room.summary = "";
        room.summary_through = 0;
      }
      this.onWordsChanged(deleted.map((d) => d.id));
      const pictures = scope === "from_here" ? this.images.deleteAfter(row.seq) : [];
      if (pictures.length > 0) this.onPicturesGone(pictures.flatMap(imageObjectKeys));
      return [...deleted.filter((d) => d.status === "complete").map((d) => d.id), ...pictures.map((picture) => picture.id)];
    });
    return visible;
  }
}
