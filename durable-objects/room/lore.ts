/**
 * The room's lorebooks (DESIGN.md turn 4 "Lorebooks"): which books apply to
 * a reply, what fired, and the timers kept between replies.
 *
 * - Books: the chat's (its owner attached them; every speaker), then the
 *   speaker's own (its card's `character_book`) and those its creator
 *   attached, then each other member's the same way (a group's members'
 *   books apply to the shared history), read from D1 at every reply (one
 *   query), each book once.
 * - Activation: schema/lorebook/activation.ts on the history (newest first,
 *   with names), seeded by the id of the message the reply answers and the
 *   speaker's id (every version of a reply answers the same message, so a
 *   regenerate rolls probabilities and groups as the first version did).
 * - Timers (sticky, cooldown) and first matches: the room's `lorebook_state`
 *   row (room/migrations.ts version 11), counted in messages of the chat; the
 *   engine undoes what began at or after the current length (regenerate,
 *   rewind), as SillyTavern does. The same state is kept per reply
 *   (`lorebook_states`, version 14) so that "Branch from here" starts the
 *   branch with the timers as they were at its branch point (SillyTavern
 *   keeps them in the chat's metadata, which a branch copies).
 */
import { type ActivationResult, activate, type Lorebook, type LorebookSettings, type TimedState } from "../../schema/lorebook/activation.ts";
import { contentOfCharacterBook, engineBook, type LorebookEntry } from "../../schema/lorebook/book.ts";
import { replaceMacros } from "../../schema/macros.ts";
import { estimateTokens, type HistoryMessage, scannedMessages } from "../prompt.ts";
import { StoragePart } from "./storage-part.ts";

/** One book as the room reads it from D1. */
interface BookRow {
  id: string;
  name: string;
  /** ms since the epoch: the book's version (worker/lib/lorebooks.ts sets it on every write). */
  updatedAt: number;
  settings: string;
  entries: string;
  /** 0 the chat's, 1 the speaker's, 2 another member's. */
  rank: number;
  /** The character whose own (card) book this is; null for a standalone book. */
  ownOf: number | null;
}

/** A member of the reply's cast: its id and its card's `character_book` as the room read it. */
export interface LoreMember {
  characterId: number;
  characterBook: Record<string, unknown> | null | undefined;
}

/**
 * The books of a reply by `speaker` in conversation `conversationId` with
 * the other members `others`, in the engine's priority order (the chat's,
 * the speaker's, the others'), each once. A member whose card has a
 * `character_book` but no own lorebook row (a character stored before
 * lorebooks were their own, or seeded straight into D1) has its card's book
 * read as it is, under the id `character:<id>`. Throws what D1 throws.
 */
export async function readReplyLorebooks(db: D1Database, conversationId: string, speaker: LoreMember, others: readonly LoreMember[]): Promise<Lorebook[]> {
  const members = [speaker, ...others.filter((member) => member.characterId !== speaker.characterId)];
  const { results } = await db
    .prepare(
      `SELECT l.id, l.name, l.updated_at AS updatedAt, l.settings, l.entries, src.rank, l.character_id AS ownOf FROM (
         SELECT lorebook_id AS id, 0 AS rank, position AS pos FROM conversation_lorebooks WHERE conversation_id = ?1
         UNION ALL
         SELECT id, CASE WHEN character_id = ?2 THEN 1 ELSE 2 END, -1 FROM lorebooks
           WHERE character_id IN (SELECT value FROM json_each(?3))
         UNION ALL
         SELECT lorebook_id, CASE WHEN character_id = ?2 THEN 1 ELSE 2 END, position FROM character_lorebooks
           WHERE character_id IN (SELECT value FROM json_each(?3))
       ) src JOIN lorebooks l ON l.id = src.id
       ORDER BY src.rank, src.pos`,
    )
    .bind(conversationId, speaker.characterId, JSON.stringify(members.map((member) => member.characterId)))
    .all<BookRow>();
  const withOwn = new Set(results.flatMap((row) => (row.ownOf !== null ? [row.ownOf] : [])));
  const fallback = (member: LoreMember): { book: Lorebook; rank: number }[] =>
    member.characterBook && !withOwn.has(member.characterId)
      ? [{ book: engineBook({ id: `character:${member.characterId}`, ...contentOfCharacterBook(member.characterBook) }), rank: member === speaker ? 1 : 2 }]
      : [];
  const read: { book: Lorebook; rank: number }[] = [];
  for (const row of results) {
    const book = keptBook(row);
    if (book) read.push({ book, rank: row.rank });
  }
  // Stable: a fallback goes before the standalone books of its own rank, as an own book does.
  const ordered = [...members.flatMap(fallback), ...read].sort((a, b) => a.rank - b.rank);
  const seen = new Set<string>();
  return ordered.flatMap(({ book }) => {
    if (seen.has(book.id)) return [];
    seen.add(book.id);
    return [book];
  });
}

/** Books read lately, by id, with the version they were read at (the engine compiles a book object once: schema/lorebook/entries.ts). */
const keptBooks = new Map<string, { row: BookRow; book: Lorebook }>();
/** Books kept at most (an isolate holds many rooms; a book of 1,000 entries is ~1 MB compiled). */
const KEPT_BOOKS = 64;

/**
 * Row `row` as the engine's book: the same object as last time while its
 * `updated_at` and text are the same (two writes may share a millisecond),
 * so its keys are compiled once per version; null
 * for a row that is not JSON (D1 rows are written whole by
 * worker/lib/lorebooks.ts, so it has no entries to give).
 */
function keptBook(row: BookRow): Lorebook | null {
  const kept = keptBooks.get(row.id);
  if (kept && kept.row.updatedAt === row.updatedAt && kept.row.name === row.name && kept.row.settings === row.settings && kept.row.entries === row.entries) return kept.book;
  let book: Lorebook;
  try {
    book = { id: row.id, name: row.name, settings: JSON.parse(row.settings) as LorebookSettings, entries: JSON.parse(row.entries) as LorebookEntry[] };
  } catch {
    return null;
  }
  keptBooks.delete(row.id);
  if (keptBooks.size >= KEPT_BOOKS) keptBooks.delete(keptBooks.keys().next().value!);
  keptBooks.set(row.id, { row: { ...row, rank: 0, ownOf: null }, book });
  return book;
}

/** What one reply's activation needs besides the books. */
export interface LoreRequest {
  history: readonly HistoryMessage[];
  characterName: string;
  userName: string;
  /** The answered message's id and the speaker's (every version of a reply has the same). */
  seed: string;
  /** Messages of the chat before this reply (timers count them). */
  chatLength: number;
  /** Tokens the entries may take in all (a share of the prompt's budget). */
  tokenBudget: number;
}

export class RoomLore extends StoragePart {
  /** The timers and first matches after the last reply; null before any. */
  state(): TimedState | null {
    const row = this.sql<{ state: string }>("SELECT state FROM lorebook_state WHERE id = 1")[0];
    if (!row) return null;
    try {
      return JSON.parse(row.state) as TimedState;
    } catch {
      return null;
    }
  }

  /** A branch starts with `state` (its source's at the branch point) for its first reply. */
  keepCurrent(state: TimedState): void {
    this.sql("INSERT INTO lorebook_state (id, state) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state", JSON.stringify(state));
  }

  /** Keeps `state` for the next reply, and as the state after reply `replyId` (for a branch from there). */
  keep(state: TimedState, replyId: string): void {
    this.keepCurrent(state);
    this.sql("INSERT INTO lorebook_states (message_id, state) VALUES (?, ?) ON CONFLICT (message_id) DO UPDATE SET state = excluded.state", replyId, JSON.stringify(state));
  }

  /**
   * The timers a branch of `rows` (the messages it copies, oldest first)
   * starts with: the state kept after the newest of them that has one. A
   * room written before states were kept per reply has none: then the
   * current state, as SillyTavern copies it (the engine undoes what began
   * after the branch point). Null when no reply among `rows` kept a state.
   */
  stateThrough(rows: readonly { id: string }[]): TimedState | null {
    const kept = this.sql<{ message_id: string; state: string }>(
      "SELECT message_id, state FROM lorebook_states WHERE message_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(rows.map((row) => row.id)),
    );
    if (kept.length === 0) return this.sql<{ n: number }>("SELECT count(*) AS n FROM lorebook_states")[0]!.n === 0 ? this.state() : null;
    const at = new Map(rows.map((row, index) => [row.id, index]));
    const newest = kept.reduce((best, row) => (at.get(row.message_id)! > at.get(best.message_id)! ? row : best));
    try {
      return JSON.parse(newest.state) as TimedState;
    } catch {
      return null;
    }
  }

  /** The entries of `books` that fire for the reply, and the timers to keep once it is stored. */
  activate(books: readonly Lorebook[], request: LoreRequest): ActivationResult {
    return activate(books, {
      messages: scannedMessages(request.history, request.characterName, request.userName),
      countTokens: estimateTokens,
      tokenBudget: request.tokenBudget,
      seed: request.seed,
      timedState: this.state(),
      chatLength: request.chatLength,
      substitute: (text) => replaceMacros(text, request.characterName, request.userName),
    });
  }
}
