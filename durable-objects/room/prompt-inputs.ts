/**
 * What a prompt of the room is made of, apart from prompt assembly itself
 * (../prompt.ts): each member's card, the history after the summary, and
 * the settings (budget, persona, memory, summary, the cast, the author's
 * note).
 *
 * Each card is kept in memory and in the room's own storage (which outlives
 * hibernation) for CHARACTER_TTL_MS (ms), then re-read from D1: a room woken
 * from hibernation starts a reply without D1, and an edit of a character
 * reaches open chats within a minute.
 *
 * Who may speak (`canSpeak`): a member whose card still reads (not deleted,
 * not removed by moderation) and, in a group chat, is still active — a
 * deactivated member stays in the history but no longer speaks. A
 * one-to-one chat keeps its deactivated character (DESIGN.md "Inactive
 * characters": chats already open keep working).
 *
 * Who `{{user}}` is (DESIGN.md "Shared rooms"): the author of the message
 * being answered (the newest message of a person), with the persona name
 * and description they connected with (RoomStore.person; the owner's are
 * the room's). In a room of several people the others are the prompt's
 * `people`, and history lines are named as in a group chat.
 */
import type { CastEntry, HistoryMessage, PromptOptions } from "../prompt.ts";
import type { D1Sync, ReplyCharacter } from "./d1-sync.ts";
import type { RoomSeams } from "./seams.ts";
import type { MessageRow, PersonRow, RoomStore } from "./store.ts";

/** The character's card is re-read from D1 after this long, ms (edits reach open chats within it). */
const CHARACTER_TTL_MS = 60_000;

/** A stored message as the prompt's history has it; `names` gives a reply's speaker's name (group chats). */
export function historyOf(row: MessageRow, names?: ReadonlyMap<number, string>): HistoryMessage {
  const message: HistoryMessage = { role: row.role === "user" ? "user" : "assistant", content: row.content, id: row.id };
  if (names) {
    const name = row.role === "user" ? row.author_name : row.character_id !== null ? names.get(row.character_id) : undefined;
    if (name) message.name = name;
  }
  return message;
}

export class PromptInputs {
  private readonly cards = new Map<number, { value: Promise<ReplyCharacter | null>; at: number }>();
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
   * Member `characterId`'s card for prompts (the first member's without an
   * id): kept in memory and in the room's own storage (which outlives
   * hibernation) for CHARACTER_TTL_MS, then re-read from D1. Null when the
   * character no longer exists; a failed read rejects and is not kept.
   */
  loadCharacter(characterId: number = this.store.room!.character_id): Promise<ReplyCharacter | null> {
    const now = Date.now();
    if (!this.cards.has(characterId)) {
      const stored = this.store.kept.readCard(characterId);
      if (stored) this.cards.set(characterId, { value: Promise.resolve(JSON.parse(stored.card) as ReplyCharacter), at: stored.read_at });
    }
    const cached = this.cards.get(characterId);
    if (cached && now - cached.at < CHARACTER_TTL_MS) return cached.value;
    const value = this.d1.readCharacter(characterId).then((character) => {
      if (character && !this.store.deleted && this.cards.get(characterId)?.value === value) {
        this.store.kept.writeCard(characterId, JSON.stringify(character), now);
      }
      return character;
    });
    this.cards.set(characterId, { value, at: now });
    // A failed read is not kept.
    value.catch(() => {
      if (this.cards.get(characterId)?.value === value) this.cards.delete(characterId);
    });
    return value;
  }

  /** Every member's card, in member order (null for one that no longer exists). Rejects when a read fails. */
  async loadCast(): Promise<{ characterId: number; card: ReplyCharacter | null }[]> {
    const cast = this.store.cast.list();
    const cards = await Promise.all(cast.map((member) => this.loadCharacter(member.character_id)));
    return cast.map((member, i) => ({ characterId: member.character_id, card: cards[i]! }));
  }

  /** Whether a member with this card may speak (see the module's note). */
  canSpeak(card: ReplyCharacter | null): card is ReplyCharacter {
    if (!card) return false;
    return this.isGroup() ? card.isActive !== false : true;
  }

  /** More than one character in the cast. */
  isGroup(): boolean {
    return this.store.cast.list().length > 1;
  }

  /** The names of the members, by id, as their cards say (else as the Worker said). */
  async names(): Promise<Map<number, string>> {
    const cast = await this.loadCast().catch(() => []);
    const names = new Map(this.store.cast.list().map((member) => [member.character_id, member.name]));
    for (const { characterId, card } of cast) if (card) names.set(characterId, card.name);
    return names;
  }

  /**
   * The stored messages a prompt reads, oldest first: those after the
   * summary, without the ones hidden from context. With `names` (a group
   * chat), each carries its speaker's or author's name.
   */
  history(names?: ReadonlyMap<number, string>): HistoryMessage[] {
    return this.store
      .rowsAfterSummary()
      .filter((row) => !row.hidden)
      .map((row) => historyOf(row, names));
  }

  /**
   * The prompt's settings: budget (AI_CONTEXT_TOKENS, AI_MAX_TOKENS unless a
   * test set `budget`), persona, memory and summary. `{{user}}` and the
   * persona are the owner's unless `author` (a user id; `authorName`, the
   * name the message was written under, when the room never saw them)
   * says whose message is answered.
   */
  options(author: string | null = null, authorName: string | null = null): PromptOptions {
    const room = this.store.room!;
    const budget = this.seams.budget;
    const person = this.personOf(author, authorName);
    return {
      userName: person.name,
      contextTokens: budget?.contextTokens ?? positive(this.env.AI_CONTEXT_TOKENS, 8192),
      maxTokens: budget?.maxTokens ?? positive(this.env.AI_MAX_TOKENS, 512),
      personaDescription: person.description,
      memory: room.memory,
      summary: room.summary,
    };
  }

  /**
   * The name and persona description of person `userId` for `{{user}}`: the
   * owner's are the room's (setPersona keeps them current); a member's as
   * they last connected; the owner's for null or someone never seen.
   */
  personOf(userId: string | null, fallbackName?: string | null): { name: string; description: string } {
    const room = this.store.room!;
    if (userId === null || userId === room.user_id) return { name: room.user_name, description: room.persona_description };
    const person = this.store.people.of(userId);
    return person ? this.promptedAs(person, fallbackName) : { name: fallbackName || room.user_name, description: "" };
  }

  /** `personOf` for a row already read: the owner's name and persona are the room's. */
  private promptedAs(person: PersonRow, fallbackName?: string | null): { name: string; description: string } {
    const room = this.store.room!;
    if (person.user_id === room.user_id) return { name: room.user_name, description: room.persona_description };
    return { name: person.name || fallbackName || room.user_name, description: person.persona_description };
  }

  /**
   * Everything a reply of `speakerId` reads: its card, the history (named in
   * a group chat or a room of several people), and the options: `{{user}}`
   * and the persona of the answered message's author, the other people (a
   * shared room), the cast (the other members that can speak or spoke) and
   * the author's note when it applies to this reply
   * (every `interval`-th message of the person; 0: never). Null when the
   * speaker's card no longer exists.
   */
  async forReply(speakerId: number): Promise<{ card: ReplyCharacter; history: HistoryMessage[]; options: PromptOptions } | null> {
    const group = this.isGroup();
    const shared = this.store.people.isShared();
    const cast = group ? await this.loadCast() : [{ characterId: speakerId, card: await this.loadCharacter(speakerId) }];
    const card = cast.find((member) => member.characterId === speakerId)?.card ?? (await this.loadCharacter(speakerId));
    if (!card) return null;
    // `{{user}}` is the author of the message being answered: the newest message of a person.
    const answered = this.store.lastUserMessage();
    const author = answered?.author_id ?? null;
    const options = this.options(author, answered?.author_name ?? null);
    let names: Map<number, string> | undefined;
    if (shared) {
      const others = this.store.people.list().filter((person) => person.user_id !== (author ?? this.store.room!.user_id));
      options.people = others.map((person) => this.promptedAs(person));
    }
    if (group || shared) {
      names = new Map(this.store.cast.list().map((member) => [member.character_id, member.name]));
      names.set(speakerId, card.name);
    }
    if (group && names) {
      const others: CastEntry[] = [];
      for (const member of cast) {
        if (member.card) names.set(member.characterId, member.card.name);
        if (member.characterId === speakerId || !this.canSpeak(member.card)) continue;
        others.push({ name: member.card.name, description: member.card.description, characterBook: member.card.characterBook, characterId: member.characterId });
      }
      options.cast = others;
    }
    const note = this.store.authorNote();
    if (note.text && note.interval > 0) {
      const userMessages = this.store.userMessageCount();
      if (userMessages % note.interval === 0) options.authorNote = { text: note.text, depth: note.depth };
    }
    return { card, history: this.history(names), options };
  }
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
