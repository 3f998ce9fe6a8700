/**
 * A conversation's cast as the chat page shows it (DESIGN.md "Group chats"):
 * who spoke each reply, the names of the whole cast in a sentence, and what
 * each reply order means to a person.
 */
import type { CharacterAsset } from "../../../../schema/api.ts";
import type { CastMember, ConversationCharacter, ReplyOrder } from "../../../../schema/chat.ts";

/** Shown for the speaker of a reply whose character left the cast before this page knew its name. */
export const FORMER_MEMBER_NAME = "Former member";

/** What a bubble needs of a character that spoke. */
export type KnownCharacter = Pick<ConversationCharacter, "id" | "name" | "avatarUrl">;

/** A reply's speaker as a bubble shows it: a member, one that left, or (unknown) "Former member". */
export interface Speaker {
  /** The character's id; null when not known. */
  id: number | null;
  name: string;
  avatarUrl: string | null;
  /** Still in the cast. */
  member: boolean;
  /** Its expression pictures (`emotion` assets); empty for one without any, or not in the cast. */
  expressions: CharacterAsset[];
}

/**
 * Who spoke a reply: the member with `characterId`; else a character the
 * page saw in the cast earlier (`known`, by id: removed since); else
 * "Former member". A reply without a speaker (stored before casts existed)
 * is the first member's (`fallback`, the conversation's character).
 */
export function speakerOf(
  characterId: number | undefined,
  cast: readonly CastMember[],
  known: ReadonlyMap<number, KnownCharacter>,
  fallback: ConversationCharacter,
): Speaker {
  const id = characterId ?? fallback.id;
  const member = cast.find((m) => m.id === id);
  if (member) {
    const expressions = (member.assets ?? []).filter((asset) => asset.type === "emotion");
    return { id, name: member.name, avatarUrl: member.avatarUrl, member: true, expressions };
  }
  const seen = known.get(id) ?? (id === fallback.id ? fallback : undefined);
  if (seen) return { id, name: seen.name, avatarUrl: seen.avatarUrl, member: false, expressions: [] };
  return { id, name: FORMER_MEMBER_NAME, avatarUrl: null, member: false, expressions: [] };
}

/** Names in a sentence: "Ana", "Ana and Bo", "Ana, Bo and Cy" (the form of `castTitle`). */
export function castNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Speakers of `messages` (their `characterId`s) neither in `cast` nor in `known`, each once, in order of first reply. */
export function unknownSpeakers(
  messages: readonly { characterId?: number }[],
  cast: readonly { id: number }[],
  known: ReadonlyMap<number, unknown>,
): number[] {
  const inCast = new Set(cast.map((m) => m.id));
  const ids = new Set<number>();
  for (const { characterId } of messages) {
    if (characterId !== undefined && !inCast.has(characterId) && !known.has(characterId)) ids.add(characterId);
  }
  return [...ids];
}

/** The cast of a conversation, with the first member alone when the answer predates casts. */
export function castOf(conversation: { character: ConversationCharacter; characters?: CastMember[] }): CastMember[] {
  const cast = conversation.characters;
  if (cast && cast.length > 0) return cast;
  return [{ ...conversation.character, muted: false, talkativeness: 0.5, assets: [] }];
}

/** Each reply order (REPLY_ORDERS) as the cast panel offers it: a label and a one-line explanation. */
export const REPLY_ORDER_CHOICES: readonly { value: ReplyOrder; label: string; hint: string }[] = [
  { value: "natural", label: "Natural", hint: "Whoever you name answers first, then others by their talkativeness." },
  { value: "list", label: "List", hint: "Every unmuted member answers, in the order of the cast." },
  { value: "pooled", label: "Pooled", hint: "One member answers: someone who has not spoken since your last message." },
  { value: "manual", label: "Manual", hint: "Nobody answers until you let someone speak." },
];

/** Talkativeness (0–1) as a person reads it: "50%". */
export function talkativenessText(value: number): string {
  return `${Math.round(value * 100)}%`;
}
