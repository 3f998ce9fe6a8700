/**
 * `GET /api/conversations/{id}/messages/{messageId}/speech` (DESIGN.md
 * "Voices"): a character's reply read aloud, as the listener sees it now
 * (the chosen swipe, an edit, an operator's removal — the room is told the
 * removals first, moderatedRoom — macros replaced with the listener's
 * names; markdown and `*actions*` as ai/speech/spoken-text.ts decides), in
 * its speaker's voice.
 *
 * Who: the owner and every member of a shared room (DESIGN.md "Shared
 * rooms": every member reads the history, so hears it too); 401 for
 * visitors; 404 for anyone else and unknown ids; 400 for a person's own
 * message or a reply with nothing to read.
 *
 * How much: at most SPEECH_CAPS — the spoken words, after macros, cut at a
 * sentence to 4,000 characters (the answer then carries a `Fabled-Notice`
 * header saying so, URI-encoded), the audio to 5 minutes and 16 MB. New
 * audio is streamed as it is made (worker/lib/speech.ts) and counted in
 * audio seconds against the person's budget (worker/lib/speech-budget.ts);
 * audio from the cache is streamed from R2 and costs nothing.
 *
 * The answer carries an `ETag` (the cache key of worker/lib/speech.ts) and
 * `Cache-Control: private, no-cache`: a browser asks again each time and
 * gets 304 while the words and voice are the same.
 */
import { Hono } from "hono";
import { chatModelName } from "../../ai/chat-models.ts";
import { cutAtSentence, spokenText } from "../../ai/speech/spoken-text.ts";
import { SPEECH_CAPS, SpeechError } from "../../ai/speech/speech.ts";
import { speechObjectKey } from "../../durable-objects/room/speech-audio.ts";
import { replaceMacros } from "../../schema/macros.ts";
import type { AppEnv } from "../env.ts";
import { findConversationFor, findOwnConversationPersona, moderatedRoom, roomPerson } from "../lib/conversations.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { cachedSpeech, type ReplyAudio, speechKey, streamSpeech } from "../lib/speech.ts";
import { estimatedSpeechMs, reserveSpeech, settleSpeech } from "../lib/speech-budget.ts";
import { voiceOrDefault } from "../lib/voices.ts";
import { requireUser } from "../middleware/session.ts";

/** The `Fabled-Notice` of a reply cut to SPEECH_CAPS (URI-encoded in the header, like a card import's notice). */
export const SPEECH_CUT_NOTICE = "This reply is too long to read aloud in full, so only its first five minutes or so are read.";

/** How a room answers for one message; `characterId` where the room records who spoke (group chats). */
type RoomMessage = { isUser: boolean; content: string; characterId?: number | null };

/** `If-None-Match` names `etag` (a list, weak or strong, or `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === "*" || value === etag;
  });
}

export const speechRoutes: Hono<AppEnv> = new Hono<AppEnv>().get("/:id/messages/:messageId/speech", requireUser, async (c) => {
  const user = c.get("user")!;
  const id = c.req.param("id");
  const messageId = c.req.param("messageId");
  // The owner or a member: who they are here, and the messages an operator removed, with the conversation's cast.
  const [reader, conversation] = await Promise.all([
    findOwnConversationPersona(c.env.DB, id, user.id),
    findConversationFor(c.env.DB, id, user.id, chatModelName(c.env)),
  ]);
  if (!reader || !conversation) throw notFound("Conversation not found");
  if (messageId.length > 100) throw notFound("Message not found");
  const room = await moderatedRoom(c.env, conversation.id, reader);
  const message: RoomMessage | null = await room.readMessage(user.id, messageId, reader.role === "member");
  if (!message) throw notFound("Message not found");
  if (message.isUser) {
    throw new ApiError("validation_failed", "Only the character's replies are read aloud", {
      issues: [{ path: "messageId", message: "Only the character's replies are read aloud" }],
    });
  }
  // The speaker: the message's own character where the room records it (group chats), else the conversation's.
  const speakerId = message.characterId ?? conversation.characterId;
  const speaker = await c.env.DB.prepare("SELECT name, voice FROM characters WHERE id = ?").bind(speakerId).first<{ name: string; voice: string | null }>();
  const characterName = speaker?.name ?? conversation.character.name;
  const userName = roomPerson(user, reader.persona).userName;
  const { text, cut } = cutAtSentence(spokenText(replaceMacros(message.content, characterName, userName)), SPEECH_CAPS.maxChars);
  if (text === "") {
    throw new ApiError("validation_failed", "This reply has no words to read aloud", {
      issues: [{ path: "messageId", message: "This reply has no words to read aloud" }],
    });
  }
  const voice = voiceOrDefault(c.env, speaker?.voice ?? null);
  const key = await speechKey(c.env, voice.id, text);
  const etag = `"${key}"`;
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": "private, no-cache", Vary: "Cookie" };
  if (cut) headers["Fabled-Notice"] = encodeURIComponent(SPEECH_CUT_NOTICE);
  if (matches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);

  const objectKey = speechObjectKey(conversation.id, messageId, key);
  let audio: ReplyAudio | null = await cachedSpeech(c.env.AVATARS, objectKey);
  if (!audio) {
    const reservation = await reserveSpeech(c.env.DB, user.id, estimatedSpeechMs(text));
    const settle = (madeMs: number) =>
      c.executionCtx.waitUntil(settleSpeech(c.env.DB, reservation, madeMs).catch((error: unknown) => console.error("speech budget", String(error))));
    try {
      audio = await streamSpeech(c.env, objectKey, voice.id, text, { signal: c.req.raw.signal, onEnd: (made) => settle(made.durationMs) });
    } catch (error) {
      settle(0);
      if (!(error instanceof SpeechError)) throw error;
      console.error("speech failed", error.message);
      throw new ApiError("unavailable", "This reply cannot be read aloud right now. Please try again.");
    }
  }
  if (audio.size !== null) headers["Content-Length"] = String(audio.size);
  return c.body(audio.body, 200, { ...headers, "Content-Type": audio.contentType });
});
