/**
 * The room's seams: what a test may replace on a ConversationRoom (through
 * `runInDurableObject`) and every module reads at the moment it needs it.
 * The class implements this interface and hands itself to its modules, so
 * a test that sets `room.modelFactory` changes the next reply.
 */
import type { ChatModel } from "../../ai/chat-model.ts";
import type { ImageGenerator } from "../../ai/images/image-generator.ts";
import type { Moderator } from "../../ai/moderation/moderator.ts";
import type { ReplyCharacter } from "./d1-sync.ts";

export interface RoomSeams {
  /** The model for a reply or a summary; by default the provider of `AI_PROVIDER`. */
  modelFactory: (character: ReplyCharacter, userName: string) => ChatModel;
  /** No token for this long fails a reply, ms. */
  tokenTimeoutMs: number;
  /** The screen for the person's messages and the replies; by default MODERATION_PROVIDER's. */
  moderatorFactory: () => Moderator;
  /** The prompt's budget in tokens; null: AI_CONTEXT_TOKENS and AI_MAX_TOKENS. */
  budget: { contextTokens: number; maxTokens: number } | null;
  /** The painter of pictures imagined in the chat; by default IMAGE_PROVIDER's (a person's own `imageModel` comes before it). */
  imageGeneratorFactory: () => ImageGenerator;
  /** The clock of the socket limits (opened, last seen, idle check), ms since the epoch. */
  now: () => number;
  /** The random source of the reply orders' rolls and picks, [0, 1); tests seed it (schema/seeded-random.ts mulberry32). */
  random: () => number;
}
