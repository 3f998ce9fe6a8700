/**
 * Where a conversation's replies read aloud are kept in R2 (DESIGN.md
 * "Voices"; docs/decisions/0022-voices.md), and forgetting them.
 *
 * Layout: `speech/{conversationId}/{messageId}/{hash}` in the AVATARS
 * bucket (`/objects/*` serves avatar keys only), `hash` being the SHA-256
 * of provider, model, voice and spoken words (worker/lib/speech.ts
 * `speechKey`, also the answer's ETag). The message's own prefix is what
 * lets the room delete the audio of a message whose words changed or went:
 * an edit, a deletion or rewind, screening's retraction or replacement, an
 * operator's removal — and the whole conversation's when it is deleted.
 * Imported by the room and by the Worker's speech route, so both agree on
 * the keys.
 */

/** The R2 key of the audio `hash` of message `messageId` of `conversationId`. */
export function speechObjectKey(conversationId: string, messageId: string, hash: string): string {
  return `${speechPrefix(conversationId)}${messageId}/${hash}`;
}

/** The prefix of every audio of `conversationId`. */
export function speechPrefix(conversationId: string): string {
  return `speech/${conversationId.toLowerCase()}/`;
}

/** R2 deletes at most this many keys a call. */
const DELETE_BATCH = 1000;

/**
 * Deletes the stored audio of `messageIds` of `conversationId` (every
 * message's when `messageIds` is omitted: the conversation was deleted).
 * One listing of the conversation's prefix, whatever the number of ids (a
 * rewind removes many messages at once). Returns how many objects went.
 *
 * @throws what R2 throws (the room logs it; the audio is unreachable anyway,
 *   its key naming words no message shows any more).
 */
export async function forgetSpeech(bucket: R2Bucket, conversationId: string, messageIds?: readonly string[]): Promise<number> {
  if (messageIds && messageIds.length === 0) return 0;
  const prefix = speechPrefix(conversationId);
  const wanted = messageIds ? new Set(messageIds) : null;
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const object of page.objects) {
      const messageId = object.key.slice(prefix.length).split("/")[0]!;
      if (!wanted || wanted.has(messageId)) keys.push(object.key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  for (let at = 0; at < keys.length; at += DELETE_BATCH) await bucket.delete(keys.slice(at, at + DELETE_BATCH));
  return keys.length;
}

/**
 * `forgetSpeech` after the room's current event (`ctx.waitUntil`), for a
 * room that exists (`conversationId` null: nothing to forget). A failure is
 * logged: the audio is unreachable anyway, its key naming words no message
 * shows.
 */
export function forgetSpeechLater(ctx: DurableObjectState, bucket: R2Bucket, conversationId: string | null | undefined, messageIds?: readonly string[]): void {
  if (!conversationId) return;
  ctx.waitUntil(forgetSpeech(bucket, conversationId, messageIds).catch((error: unknown) => console.error("forgetting speech failed", String(error))));
}
