/**
 * Who replies next in a group chat: the reply orders of schema/chat.ts
 * REPLY_ORDERS, as DESIGN.md "Group chats" states them. The algorithm is
 * SillyTavern's (public/scripts/group-chats.js `activateNaturalOrder`,
 * `activateListOrder`, `activatePooledOrder`; its "manual" strategy), which
 * group-chat users know:
 *
 * - `natural`: members named in the person's message reply first, in the
 *   order they are named (a name matches on any of its words, whole words,
 *   any case); then every member, shuffled, whose talkativeness roll
 *   succeeds (`talkativeness >= random()`); if nobody was picked, one at
 *   random from those with a talkativeness above 0 (else from all). The last
 *   character to speak is not rolled or picked again unless it is the only
 *   one who can speak; naming it still brings it in (the person asked).
 * - `list`: every member in member order.
 * - `pooled`: one member at random among those who did not speak in the
 *   round after the person's previous message (SillyTavern's "has not spoken
 *   since the last user message", read back from before the message being
 *   answered, so a round of one always moves on); when all of them did, any
 *   member but the last speaker.
 * - `manual`: nobody; members speak when asked (`generate`).
 *
 * Only members that may speak are considered: unmuted, and still able to
 * (not deactivated or removed; the caller filters). Muted members reply only
 * when asked. Pure: the random source is passed in, so tests can seed it.
 */
import type { ReplyOrder } from "../../schema/chat.ts";

/** A member that may be chosen: its id, its name (for mentions) and its talkativeness (0–1). */
export interface Speaker {
  characterId: number;
  name: string;
  talkativeness: number;
}

/** What the order reads of the conversation. */
export interface ReplyContext {
  /** The person's message being answered ("" for none). */
  message: string;
  /** The character that spoke last before it, if any. */
  lastSpeakerId: number | null;
  /** The characters that replied between the person's previous message and this one (pooled). */
  spokeLastRound: ReadonlySet<number>;
}

/** The words of a text, lower case (letters and digits; SillyTavern's `extractAllWords`). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Fisher–Yates shuffle of a copy with `random` (0 ≤ r < 1). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const pickOne = <T>(items: readonly T[], random: () => number): T | undefined => items[Math.floor(random() * items.length)];

/**
 * The members that reply to `context.message`, in the order they speak,
 * each at most once. `speakers` are the members that may speak, in member
 * order; `random` returns numbers in [0, 1).
 */
export function chooseSpeakers(order: ReplyOrder, speakers: readonly Speaker[], context: ReplyContext, random: () => number): number[] {
  if (speakers.length === 0 || order === "manual") return [];
  if (order === "list") return speakers.map((s) => s.characterId);
  const alone = speakers.length === 1;
  const banned = alone ? null : context.lastSpeakerId;
  if (order === "pooled") {
    const fresh = speakers.filter((s) => !context.spokeLastRound.has(s.characterId));
    const pool = fresh.length > 0 ? fresh : speakers.filter((s) => s.characterId !== banned);
    const chosen = pickOne(pool.length > 0 ? pool : speakers, random);
    return chosen ? [chosen.characterId] : [];
  }
  // natural
  const chosen: number[] = [];
  const add = (id: number) => {
    if (!chosen.includes(id)) chosen.push(id);
  };
  for (const word of wordsOf(context.message)) {
    const named = speakers.find((s) => wordsOf(s.name).includes(word));
    if (named) add(named.characterId);
  }
  const rollable = speakers.filter((s) => s.characterId !== banned);
  for (const speaker of shuffled(rollable, random)) {
    if (speaker.talkativeness > 0 && speaker.talkativeness >= random()) add(speaker.characterId);
  }
  if (chosen.length === 0) {
    const chatty = rollable.filter((s) => s.talkativeness > 0);
    const fallback = pickOne(chatty.length > 0 ? chatty : rollable.length > 0 ? rollable : speakers, random);
    if (fallback) add(fallback.characterId);
  }
  return chosen;
}
