/**
 * The room's memory (DESIGN.md "Memory", docs/decisions/0031): every stored
 * message's vector beside it in the room's SQLite (`message_vectors`,
 * migrations.ts version 8), recall before a reply, what each reply version
 * recalled, and the prompt records the inspector reads.
 *
 * - Embedding: a message's text is embedded once it is stored, off the reply's path
 *   (`embedPending`, from `ctx.waitUntil` after a reply, after an edit and
 *   when the room wakes), newest first, at most EMBED_LIMIT per run: a chat
 *   from before this change is embedded in bounded batches over its next
 *   wakes. An edited text loses its vector (a trigger, migrations.ts) and is
 *   embedded again on the next run. Vectors of another embedder (its `id`)
 *   are not compared and are embedded again.
 * - Kept in memory: the vectors are read whole once per wake and then
 *   brought up to date from `memory_changes` (rows written by triggers on
 *   delete, edit, hide, show, replace, complete): a recall reads SQLite
 *   only for what changed and for the texts of the few it recalls.
 * - Storage: the unit vector quantised to int8 (each value × 127 / the
 *   largest magnitude) and the norm of the int8 values, so a cosine is one
 *   pass over bytes: 512 bytes a message for the offline embedder (1,024
 *   for bge-m3).
 * - Recall: the query is the newest turn and the speaker's name (what was
 *   said to or about the speaker ranks higher); candidates are the messages of this room
 *   (a branch is its own room: it recalls only its own history) that are
 *   complete (not a reply being written, not a replaced version; a reply's
 *   other swipes are not messages), not hidden, older than the oldest
 *   message the prompt sends, and — in a group — newer than the speaker's
 *   joining (`cast_members.joined_seq`). Deleted and rewound-away messages
 *   are gone from the table. Ranked by cosine; those at least
 *   RECALL_MIN_SIMILARITY, best first, at most RECALL_COUNT, while their
 *   lines fit the recall budget; sent oldest first.
 * - Pinned memories (D1, worker/lib/memories.ts): kept here for
 *   PINNED_TTL_MS between prompts, forgotten when the Worker changes them.
 * - Prompt records: one per reply version (`message_id`, `version`), the
 *   newest PROMPT_RECORDS_KEPT kept.
 *
 * Nothing here throws for an embedder's failure: a failed run is logged and
 * the messages wait for the next one; a failed query embedding recalls
 * nothing.
 */
import { type Embedder, normalised } from "../../ai/embeddings/embedder.ts";
import type { PromptLorebookEntry, PromptRecord } from "../../schema/chat.ts";
import { replyVersions } from "../../schema/chat-frames.ts";
import { type RecalledLine, recalledLineTokens } from "../prompt.ts";
import { versionFields } from "./message-rows.ts";
import type { MessageRow, VectorRow } from "./migrations.ts";
import { StoragePart } from "./storage-part.ts";

/** How much the speaker's name weighs in the recall's query beside the newest turn (1: as much). */
export const QUERY_NAME_WEIGHT = 0.25;
/** Recalled memories at most in one prompt. */
export const RECALL_COUNT = 4;
/** Most tokens recalled memories take in a prompt (and at most a fifth of the budget, prompt.ts). */
export const RECALL_MAX_TOKENS = 600;
/** A message less similar than this (cosine) to the query is never recalled: better nothing than noise. */
export const RECALL_MIN_SIMILARITY = 0.12;
/** Messages embedded at most in one run of `embedPending` (a wake of an old chat embeds this many). */
export const EMBED_LIMIT = 512;
/** Prompt records kept: the newest reply versions'. */
export const PROMPT_RECORDS_KEPT = 200;

/** A unit vector as stored: int8 values and their norm. */
export function quantise(vector: Float32Array): { bytes: Int8Array; norm: number } {
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  const bytes = new Int8Array(vector.length);
  if (largest === 0) return { bytes, norm: 0 };
  const scale = 127 / largest;
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const q = Math.round(vector[i]! * scale);
    bytes[i] = q;
    sum += q * q;
  }
  return { bytes, norm: Math.sqrt(sum) };
}

/** The name a message is embedded and recalled under: its author's, or its speaker's. */
type NameOf = (row: Pick<MessageRow, "role" | "author_name" | "character_id">) => string | undefined;

/** A recallable message's vector as memory keeps it: complete, with its place and whether it is hidden. */
interface IndexedVector {
  seq: number;
  hidden: boolean;
  bytes: Int8Array;
  norm: number;
}

/** A message a recall found, with its similarity to the query. */
export interface RecallHit extends RecalledLine {
  seq: number;
  score: number;
}

/** Pinned memories are read from D1 again after this long, ms: a `character` memory pinned in another chat reaches this one within it. */
export const PINNED_TTL_MS = 60_000;

export class RoomMemory extends StoragePart {
  /** The chat's embedder now (the person's connection may name one: room/model-choice.ts). */
  private readonly chooseEmbedder: () => Embedder | Promise<Embedder>;
  /** The id of the embedder last chosen: recall reads the vectors it made (the query vector is its too). */
  private currentEmbedder = "";
  private running: Promise<number> | null = null;
  private pins: { value: Promise<string[]>; at: number } | null = null;
  /**
   * The vectors of this embedder by message id, read once per wake and kept
   * in step with every write of `embedRun`: recall reads only ids and
   * `seq`s from SQLite (a vector deleted by a trigger is no candidate).
   */
  private vectors: { embedder: string; byId: Map<string, IndexedVector>; seen: number } | null = null;

  constructor(storage: DurableObjectStorage, embedder: () => Embedder | Promise<Embedder>) {
    super(storage);
    this.chooseEmbedder = embedder;
  }

  /** The chat's embedder now, remembered for `recall` and `embeddedCount`. */
  private async embedder(): Promise<Embedder> {
    const embedder = await this.chooseEmbedder();
    this.currentEmbedder = embedder.id;
    return embedder;
  }

  /**
   * Embeds the complete messages that have no vector of this embedder yet,
   * newest first, at most `limit`, in the embedder's batches. One run at a
   * time (a second call joins the first). Resolves to how many were
   * embedded; never rejects (a failure is logged, the rest wait).
   */
  embedPending(limit = EMBED_LIMIT): Promise<number> {
    if (this.running) return this.running;
    const run = this.embedRun(limit)
      .catch((error) => {
        console.warn("embedding failed", String(error));
        return 0;
      })
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run;
  }

  /** Resolves when the embedding run under way (if any) is over: a recall then sees what it embedded. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async embedRun(limit: number): Promise<number> {
    const embedder = await this.embedder();
    const pending = this.sql<Pick<MessageRow, "id" | "content" | "seq" | "hidden">>(
      `SELECT m.id, m.content, m.seq, m.hidden FROM messages m
       WHERE m.status = 'complete' AND NOT EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_id = m.id AND v.embedder = ?)
       ORDER BY m.seq DESC LIMIT ?`,
      embedder.id,
      limit,
    );
    let done = 0;
    for (let at = 0; at < pending.length; at += embedder.maxBatch) {
      const batch = pending.slice(at, at + embedder.maxBatch);
      const vectors = await embedder.embed(batch.map((row) => row.content));
      const cache = this.vectors?.embedder === embedder.id ? this.vectors.byId : null;
      this.storage.transactionSync(() => {
        batch.forEach((row, i) => {
          const { bytes, norm } = quantise(vectors[i]!);
          // Only while the text is still the one embedded (an edit meanwhile waits for the next run).
          const written = this.sql<{ message_id: string }>(
            `INSERT INTO message_vectors (message_id, embedder, vector, norm)
             SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM messages WHERE id = ? AND content = ? AND status = 'complete')
             ON CONFLICT (message_id) DO UPDATE SET embedder = excluded.embedder, vector = excluded.vector, norm = excluded.norm
             RETURNING message_id`,
            row.id,
            embedder.id,
            bytes,
            norm,
            row.id,
            row.content,
          );
          if (written.length > 0) cache?.set(row.id, { seq: row.seq, hidden: row.hidden === 1, bytes, norm });
        });
      });
      done += batch.length;
    }
    // The changes the kept vectors have seen are no longer needed (a wake reads the vectors whole).
    if (this.vectors) this.sql("DELETE FROM memory_changes WHERE id <= ?", this.vectors.seen);
    return done;
  }

  /**
   * The query vector of the newest turn `text` and, weighing
   * QUERY_NAME_WEIGHT of it, the speaker's `name` (a name that is in many
   * messages would otherwise outweigh a short question); null when the
   * embedder fails (nothing is recalled).
   */
  async queryVector(text: string, name = ""): Promise<Float32Array | null> {
    try {
      const [turn, named] = await (await this.embedder()).embed(name ? [text, name] : [text]);
      if (!turn) return null;
      if (named) for (let i = 0; i < turn.length; i++) turn[i] = turn[i]! + QUERY_NAME_WEIGHT * named[i]!;
      return normalised(turn);
    } catch (error) {
      console.warn("embedding the query failed", String(error));
      return null;
    }
  }

  /**
   * This embedder's vectors of complete messages by id (see `vectors`):
   * read whole once per wake, then brought up to date from
   * `memory_changes` (usually a row or two: the last reply completed).
   */
  private vectorIndex(embedder: string): Map<string, IndexedVector> {
    const read = (where: string, ...bindings: unknown[]) =>
      this.sql<Pick<VectorRow, "message_id" | "vector" | "norm"> & { seq: number; hidden: 0 | 1 }>(
        `SELECT v.message_id, v.vector, v.norm, m.seq, m.hidden FROM message_vectors v JOIN messages m ON m.id = v.message_id
         WHERE v.embedder = ? AND m.status = 'complete' AND ${where}`,
        embedder,
        ...bindings,
      );
    const entry = (row: ReturnType<typeof read>[number]): IndexedVector => ({ seq: row.seq, hidden: row.hidden === 1, bytes: new Int8Array(row.vector), norm: row.norm });
    const changes = this.sql<{ id: number; message_id: string }>("SELECT id, message_id FROM memory_changes WHERE id > ? ORDER BY id", this.vectors?.seen ?? 0);
    if (this.vectors?.embedder !== embedder) {
      const byId = new Map<string, IndexedVector>();
      for (const row of read("1")) byId.set(row.message_id, entry(row));
      this.vectors = { embedder, byId, seen: changes.at(-1)?.id ?? this.vectors?.seen ?? 0 };
      return byId;
    }
    if (changes.length > 0) {
      const ids = [...new Set(changes.map((change) => change.message_id))];
      const byId = this.vectors.byId;
      for (const id of ids) byId.delete(id);
      for (const row of read("m.id IN (SELECT value FROM json_each(?))", JSON.stringify(ids))) byId.set(row.message_id, entry(row));
      this.vectors.seen = changes.at(-1)!.id;
    }
    return this.vectors.byId;
  }

  /**
   * The messages most like `query` from before `beforeSeq` and after
   * `afterSeq` (exclusive), best first: complete, not hidden, with a vector
   * of this embedder, cosine at least RECALL_MIN_SIMILARITY, at most
   * RECALL_COUNT whose lines fit `budgetTokens`. See the module comment.
   */
  recall(query: Float32Array, window: { beforeSeq: number; afterSeq: number }, budgetTokens: number, nameOf: NameOf): RecallHit[] {
    const index = this.vectorIndex(this.currentEmbedder);
    // A sparse query (the offline embedder's) is scored over its non-zero dimensions only.
    const dims: number[] = [];
    query.forEach((value, i) => value !== 0 && dims.push(i));
    const sparse = dims.length < query.length / 4;
    // The best few only (a line too long for the budget leaves room for the next): no sort of every candidate.
    const keep = RECALL_COUNT * 4;
    const scored: { id: string; seq: number; score: number }[] = [];
    let floor = RECALL_MIN_SIMILARITY;
    const idx = Int32Array.from(dims);
    const weights = Float32Array.from(dims, (i) => query[i]!);
    for (const [id, stored] of index) {
      if (stored.hidden || stored.seq >= window.beforeSeq || stored.seq <= window.afterSeq || stored.norm === 0 || stored.bytes.length !== query.length) continue;
      const bytes = stored.bytes;
      let dot = 0;
      if (sparse) for (let k = 0; k < idx.length; k++) dot += weights[k]! * bytes[idx[k]!]!;
      else for (let i = 0; i < bytes.length; i++) dot += query[i]! * bytes[i]!;
      const score = dot / stored.norm;
      if (score < floor) continue;
      scored.push({ id, seq: stored.seq, score });
      if (scored.length > keep * 2) {
        scored.sort((a, b) => b.score - a.score || b.seq - a.seq);
        scored.length = keep;
        floor = scored.at(-1)!.score;
      }
    }
    scored.sort((a, b) => b.score - a.score || b.seq - a.seq);
    const hits: RecallHit[] = [];
    let left = budgetTokens;
    for (const candidate of scored) {
      if (hits.length >= RECALL_COUNT) break;
      const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ?", candidate.id)[0];
      if (!row) continue;
      const name = nameOf(row);
      const hit: RecallHit = { id: row.id, content: row.content, ...(name ? { name } : {}), seq: row.seq, score: candidate.score };
      const cost = recalledLineTokens(hit);
      if (cost > left) continue;
      left -= cost;
      hits.push(hit);
    }
    return hits;
  }

  /**
   * The pinned memories' texts for a prompt: kept in memory for
   * PINNED_TTL_MS, else read (`read`, D1). The Worker forgets them
   * (`forgetPinned`) when this chat's pins change. A failed read rejects
   * and is not kept.
   */
  pinned(read: () => Promise<string[]>): Promise<string[]> {
    const now = Date.now();
    if (this.pins && now - this.pins.at < PINNED_TTL_MS) return this.pins.value;
    const value = read();
    const entry = { value, at: now };
    this.pins = entry;
    value.catch(() => {
      if (this.pins === entry) this.pins = null;
    });
    return value;
  }

  /** The pins changed (a route of the Worker): the next prompt reads them again. */
  forgetPinned(): void {
    this.pins = null;
  }

  /** `seq` of a stored message, or null. */
  seqOf(messageId: string): number | null {
    return this.sql<{ seq: number }>("SELECT seq FROM messages WHERE id = ?", messageId)[0]?.seq ?? null;
  }

  /**
   * Keeps what version `version` of reply `messageId` recalled and was sent
   * (its prompt record), dropping the oldest records beyond PROMPT_RECORDS_KEPT.
   */
  noteReply(messageId: string, version: number, record: PromptRecord, at: number): void {
    this.storage.transactionSync(() => {
      const row = this.sql<Pick<MessageRow, "recalled">>("SELECT recalled FROM messages WHERE id = ?", messageId)[0];
      if (!row) return;
      const lists = readRecalled(row.recalled);
      while (lists.length < version) lists.push([]);
      lists[version] = record.recalled;
      this.sql("UPDATE messages SET recalled = ? WHERE id = ?", JSON.stringify(lists), messageId);
      this.sql(
        "INSERT INTO prompt_records (message_id, version, record, written_at) VALUES (?, ?, ?, ?) ON CONFLICT (message_id, version) DO UPDATE SET record = excluded.record, written_at = excluded.written_at",
        messageId,
        version,
        JSON.stringify(record),
        at,
      );
      this.sql(
        "DELETE FROM prompt_records WHERE rowid IN (SELECT rowid FROM prompt_records ORDER BY written_at DESC, rowid DESC LIMIT -1 OFFSET ?)",
        PROMPT_RECORDS_KEPT,
      );
    });
  }

  /** A regenerated reply (`to`) keeps the prompt records of the versions it carries over from `from`. */
  carryRecords(from: string, to: string): void {
    this.sql("INSERT OR IGNORE INTO prompt_records (message_id, version, record, written_at) SELECT ?, version, record, written_at FROM prompt_records WHERE message_id = ?", to, from);
  }

  /** The prompt record of the version shown of reply `row`; null when none is kept. */
  record(row: MessageRow): PromptRecord | null {
    const version = replyVersions(versionFields(row)).current;
    const stored = this.sql<{ record: string }>("SELECT record FROM prompt_records WHERE message_id = ? AND version = ?", row.id, version)[0];
    if (!stored) return null;
    const record = JSON.parse(stored.record) as Omit<PromptRecord, "lorebook"> & { lorebook?: (Pick<PromptLorebookEntry, "lorebookId" | "entryId" | "reason"> & Partial<PromptLorebookEntry>)[] };
    // A record written before entries were named reads with empty names (the inspector shows ids).
    return { ...record, lorebook: (record.lorebook ?? []).map((entry) => ({ lorebookName: "", title: "", key: null, secondaryKey: null, decorator: null, ...entry })) };
  }

  /** How many messages have a vector of this embedder (tests, the bench). */
  embeddedCount(): number {
    return this.sql<{ n: number }>("SELECT count(*) AS n FROM message_vectors WHERE embedder = ?", this.currentEmbedder)[0]?.n ?? 0;
  }
}

/** The `recalled` column as lists of ids per version (anything else: none). */
export function readRecalled(column: string | null): string[][] {
  if (column === null) return [];
  try {
    const value: unknown = JSON.parse(column);
    return Array.isArray(value) ? value.map((list) => (Array.isArray(list) ? list.filter((id): id is string => typeof id === "string") : [])) : [];
  } catch {
    return [];
  }
}

/** What the version shown of reply `row` recalled ([] when unknown). */
export function recalledOf(row: MessageRow): string[] {
  return readRecalled(row.recalled)[replyVersions(versionFields(row)).current] ?? [];
}
