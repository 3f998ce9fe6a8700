/**
 * `GET /api/conversations/{id}/messages/{messageId}/speech` (DESIGN.md
 * "Voices"): a character's reply read aloud, as shown (the chosen swipe,
 * macros replaced; markdown and `*actions*` as ai/speech/spoken-text.ts
 * decides), in its speaker's voice.
 *
 * 401 for visitors; 404 for anyone outside the conversation and unknown
 * ids; 400 for a person's own message or a reply with nothing to read. The
 * answer carries an `ETag` (the cache key of worker/lib/speech.ts) and
 * `Cache-Control: private, no-cache`: a browser asks again each time and
 * gets 304 while the words and voice are the same. Made audio is counted
 * against SPEECH_RATE_LIMITER (audio from the cache is not).
 */
import { Hono } from "hono";
import { chatModelName } from "../../ai/chat-models.ts";
import { spokenText } from "../../ai/speech/spoken-text.ts";
import { SpeechError } from "../../ai/speech/speech.ts";
import { replaceMacros } from "../../schema/macros.ts";
import type { AppEnv } from "../env.ts";
import { conversationRoom, findOwnConversation, findOwnConversationPersona, roomPerson } from "../lib/conversations.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { cachedSpeech, makeSpeech, speechKey } from "../lib/speech.ts";
import { voiceOrDefault } from "../lib/voices.ts";
import { countAgainstLimit } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

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
  const conversation = await findOwnConversation(c.env.DB, c.req.param("id"), user.id, chatModelName(c.env));
  if (!conversation) throw notFound("Conversation not found");
  const messageId = c.req.param("messageId");
  if (messageId.length > 100) throw notFound("Message not found");
  const message: RoomMessage | null = await conversationRoom(c.env, conversation.id).readMessage(user.id, messageId);
  if (!message) throw notFound("Message not found");
  if (message.isUser) {
    throw new ApiError("validation_failed", "Only the character's replies are read aloud", {
      issues: [{ path: "messageId", message: "Only the character's replies are read aloud" }],
    });
  }
  // The speaker: the message's own character where the room records it (group chats), else the conversation's.
  const speakerId = message.characterId ?? conversation.characterId;
  const [speaker, persona] = await Promise.all([
    c.env.DB.prepare("SELECT name, voice FROM characters WHERE id = ?").bind(speakerId).first<{ name: string; voice: string | null }>(),
    findOwnConversationPersona(c.env.DB, conversation.id, user.id),
  ]);
  const characterName = speaker?.name ?? conversation.character.name;
  const userName = roomPerson(user, persona?.persona ?? null).userName;
  const text = spokenText(replaceMacros(message.content, characterName, userName));
  if (text === "") {
    throw new ApiError("validation_failed", "This reply has no words to read aloud", {
      issues: [{ path: "messageId", message: "This reply has no words to read aloud" }],
    });
  }
  const voice = voiceOrDefault(c.env, speaker?.voice ?? null);
  const key = await speechKey(c.env, voice.id, text);
  const etag = `"${key}"`;
  const headers = { ETag: etag, "Cache-Control": "private, no-cache", Vary: "Cookie" };
  if (matches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);

  let audio = await cachedSpeech(c.env.AVATARS, key);
  if (!audio) {
    await countAgainstLimit(c.env, "SPEECH_RATE_LIMITER", user.id);
    try {
      audio = await makeSpeech(c.env, key, voice.id, text, c.req.raw.signal);
    } catch (error) {
      if (!(error instanceof SpeechError)) throw error;
      console.error("speech failed", error.message);
      throw new ApiError("unavailable", "This reply cannot be read aloud right now. Please try again.");
    }
  }
  return c.body(audio.body, 200, { ...headers, "Content-Type": audio.contentType, "Content-Length": String(audio.size) });
});
