/**
 * What a prompt of the room is made of, apart from prompt assembly itself
 * (../prompt.ts): the character's card, the history after the summary, and
 * the settings (budget, persona, memory, summary).
 *
 * The card is kept in memory and in the room's own storage (which outlives
 * hibernation) for CHARACTER_TTL_MS (ms), then re-read from D1: a room woken
 * from hibernation starts a reply without D1, and an edit of the character
 * reaches open chats within a minute.
 */
import type { HistoryMessage, PromptOptions } from "../prompt.ts";
import type { D1Sync, ReplyCharacter } from "./d1-sync.ts";
import type { RoomSeams } from "./seams.ts";
import type { MessageRow, RoomStore } from "./store.ts";

/** The character's card is re-read from D1 after this long, ms (edits reach open chats within it). */
const CHARACTER_TTL_MS = 60_000;

/** A stored message as the prompt's history has it. */
export function historyOf(row: MessageRow): HistoryMessage {
  return { role: row.role === "user" ? "user" : "assistant", content: row.content };
}

export class PromptInputs {
  private character: { value: Promise<ReplyCharacter | null>; at: number } | null = null;
  private readonly env: Env;
  private readonly store: RoomStore;
  private readonly d1: D1Sync;
  private readonly seams: RoomSeams;

  constructor(env: Env, store: RoomStore, d1: D1Sync, seams: RoomSeams) {
    this.env = env;
    this.store = store;
    this.d1 = d1;
    this.seams = seams;
  }

  /**
   * The character's card for prompts: kept in memory and in the room's own
   * storage (which outlives hibernation) for CHARACTER_TTL_MS, then re-read
   * from D1. Null when the character no longer exists; a failed read rejects
   * and is not kept.
   */
  loadCharacter(): Promise<ReplyCharacter | null> {
    const now = Date.now();
    if (!this.character) {
      const stored = this.store.readCard();
      if (stored) this.character = { value: Promise.resolve(JSON.parse(stored.card) as ReplyCharacter), at: stored.read_at };
    }
    const cached = this.character;
    if (cached && now - cached.at < CHARACTER_TTL_MS) return cached.value;
    const value = this.d1.readCharacter().then((character) => {
      if (character && !this.store.deleted && this.character?.value === value) this.store.writeCard(JSON.stringify(character), now);
      return character;
    });
    this.character = { value, at: now };
    // A failed read is not kept.
    value.catch(() => {
      if (this.character?.value === value) this.character = null;
    });
    return value;
  }

  /** The stored messages a prompt reads, oldest first: those after the summary. */
  history(): HistoryMessage[] {
    return this.store.rowsAfterSummary().map(historyOf);
  }

  /** The prompt's settings: budget (AI_CONTEXT_TOKENS, AI_MAX_TOKENS unless a test set `budget`), persona, memory and summary. */
  options(): PromptOptions {
    const room = this.store.room!;
    const budget = this.seams.budget;
    return {
      userName: room.user_name,
      contextTokens: budget?.contextTokens ?? positive(this.env.AI_CONTEXT_TOKENS, 8192),
      maxTokens: budget?.maxTokens ?? positive(this.env.AI_MAX_TOKENS, 512),
      personaDescription: room.persona_description,
      memory: room.memory,
      summary: room.summary,
    };
  }
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
