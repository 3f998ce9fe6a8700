/**
 * What memory and the lorebooks add to one reply's prompt (reply-writing.ts
 * builds the prompt with them, prompt.ts assembles it):
 * - `recallFor` (memory.ts, DESIGN.md "Memory"): the newest turn is embedded
 *   as the recall's query; the prompt recalls from before its history
 *   window, within RECALL_MAX_TOKENS.
 * - `loreFor` (lore.ts, DESIGN.md turn 4 "Lorebooks"): the entries of the
 *   chat's and the cast's books that fire for the reply, within a quarter of
 *   the prompt's budget.
 */
import type { ActivationResult } from "../../schema/lorebook/activation.ts";
import type { HistoryMessage, PromptOptions } from "../prompt.ts";
import type { ReplyCharacter } from "./d1-sync.ts";
import { readReplyLorebooks } from "./lore.ts";
import { RECALL_MAX_TOKENS } from "./memory.ts";
import type { RoomStore } from "./store.ts";

export class ReplyContext {
  private readonly env: Env;
  private readonly store: RoomStore;

  constructor(env: Env, store: RoomStore) {
    this.env = env;
    this.store = store;
  }

  /**
   * The lorebook entries that fire for `reply` (DESIGN.md turn 4
   * "Lorebooks", lore.ts): the chat's books and the cast's, seeded by the
   * id of the message it answers and the speaker, timers counted in the
   * chat's messages before it. Their budget is a quarter of the prompt's, capped further by each
   * book's `tokenBudget`. Throws what D1 throws.
   */
  async loreFor(reply: { id: string; characterId: number }, character: ReplyCharacter, history: HistoryMessage[], options: PromptOptions): Promise<ActivationResult> {
    const room = this.store.room!;
    const speaker = { characterId: reply.characterId, characterBook: character.characterBook };
    const others = (options.cast ?? []).flatMap((member) => (member.characterId !== undefined ? [{ characterId: member.characterId, characterBook: member.characterBook }] : []));
    const books = await readReplyLorebooks(this.env.DB, room.conversation_id, speaker, others);
    // Seeded by the message being answered (the newest complete one before the reply) and the speaker: every
    // version of the reply (regenerate, continue) rolls the same; completeReply forgets which version replaced which.
    const before = this.store.visibleRows().filter((row) => row.status === "complete" && row.id !== reply.id);
    const seed = `${before.at(-1)?.id ?? room.conversation_id}:${reply.characterId}`;
    const chatLength = before.length;
    return this.store.lore.activate(books, {
      history,
      characterName: character.name,
      userName: options.userName,
      seed,
      chatLength,
      tokenBudget: Math.max(1, Math.floor((options.contextTokens - options.maxTokens) / 4)),
    });
  }

  /**
   * The recall of a reply of `speakerId` (named `speakerName`) to `history`:
   * the query is the newest turn (the last message, with the person's
   * message it answers when a member spoke since) and the speaker's name; it reaches before
   * the oldest message the prompt sends and, for a member that joined the
   * cast later, not before it joined. Undefined when there is no turn or
   * the query could not be embedded (nothing is recalled).
   */
  async recallFor(history: HistoryMessage[], speakerId: number, speakerName: string): Promise<PromptOptions["recall"]> {
    const newest = history.at(-1);
    if (!newest) return undefined;
    const store = this.store;
    // The newest turn: the last message and, when another member spoke after it, the person's message being answered.
    const answered = store.lastUserMessage()?.content;
    const turn = answered !== undefined && answered !== newest.content ? `${answered}\n${newest.content}` : newest.content;
    // An edit or a new branch being embedded right now is waited for (the offline embedder: microseconds).
    await store.memory.settled();
    const query = await store.memory.queryVector(turn, speakerName);
    if (!query) return undefined;
    const joined = store.cast.member(speakerId)?.joined_seq ?? 0;
    return {
      maxTokens: RECALL_MAX_TOKENS,
      pick: (beforeId, budget) => {
        const beforeSeq = (beforeId !== null ? store.memory.seqOf(beforeId) : null) ?? Number.MAX_SAFE_INTEGER;
        return store.memory.recall(query, { beforeSeq, afterSeq: joined }, budget, (row) => store.nameOf(row)).sort((a, b) => a.seq - b.seq);
      },
    };
  }
}
