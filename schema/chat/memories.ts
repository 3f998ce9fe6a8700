/**
 * Pinned memories (DESIGN.md "Memory"): their limits, scopes, shape and
 * input schemas (schema/chat.ts re-exports them).
 */
import { z } from "zod";

/** Longest pinned memory, characters. */
export const MAX_PINNED_MEMORY_LENGTH = 1000;
/** Most pinned memories one chat holds (its own and its characters' of this person). */
export const MAX_PINNED_MEMORIES = 50;
export const MEMORY_SCOPES = ["chat", "character"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** A pinned memory as `GET /api/conversations/{id}/memories` lists it. */
export interface PinnedMemory {
  id: string;
  text: string;
  /** `chat`: this conversation; `character`: this person with `characterId`, in every chat of theirs with it. */
  scope: MemoryScope;
  /** The message it was pinned from, or null. */
  messageId: string | null;
  characterId: number;
  /** ISO 8601. */
  createdAt: string;
}

const memoryText = z
  .string({ error: "text must be text" })
  .trim()
  .min(1, "A memory needs some text")
  .max(MAX_PINNED_MEMORY_LENGTH, `A memory can be at most ${MAX_PINNED_MEMORY_LENGTH.toLocaleString("en-US")} characters`);

/** `POST /api/conversations/{id}/memories`: pin a message (its text by default) or write one; `text` or `messageId` is required. */
export const memoryInputSchema = z
  .object({
    text: memoryText.optional(),
    messageId: z.string({ error: "messageId must be text" }).min(1, "messageId must not be empty").max(100, "No such message").optional(),
    scope: z.enum(MEMORY_SCOPES, { error: 'scope must be "chat" or "character"' }).default("chat"),
  })
  .refine((input) => input.text !== undefined || input.messageId !== undefined, { error: "Give the memory's text or the message to pin", path: ["text"] });
export type MemoryInput = z.output<typeof memoryInputSchema>;

/** `PATCH /api/conversations/{id}/memories/{memoryId}`. */
export const memoryPatchSchema = z.object({ text: memoryText });
