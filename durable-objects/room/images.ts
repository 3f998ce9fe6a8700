/**
 * Pictures imagined in the chat (DESIGN.md "Pictures"): the `imagine` and
 * `cancel_image` frames, deleting a picture, and forgetting them all when
 * the chat goes.
 *
 * `imagine`, for any member:
 * 1. The person's allowance (image-quota.ts, D1): refused → a
 *    `rate_limited` error frame with `retryAfterMs`; nothing else happens.
 * 2. A prompt the person wrote is screened like every text they send
 *    (RoomScreening.screen, with the conversation): refused → an
 *    `image_refused` error frame; nothing is made or stored, the attempt is
 *    logged for moderation.
 * 3. `image_started` to every socket (a placeholder with its start time).
 * 4. Without a prompt, the chat model writes one from the recent turns and
 *    the speaker's appearance (`writeScenePrompt`; the offline model, which
 *    reads no instructions, is answered by `scenePrompt` itself); it is
 *    screened too.
 * 5. The generator paints it: the room owner's model connection when it
 *    names an `imageModel` (their endpoint, the address rules of chat, the
 *    key never in an error), else the site's (`IMAGE_PROVIDER`).
 * 6. The picture goes to R2 (`pictures/{conversationId}/{id}`, served by
 *    the Worker like avatars), its row to `images`, and every socket gets
 *    `image_ready` with it as a message of `kind: "image"`.
 * A failure, a refusal by the engine or a `cancel_image` ends it with
 * `image_stopped` to every socket (and an error frame to the sender for a
 * failure): no placeholder stays behind, nothing is stored, and the place
 * in the allowance is given back.
 *
 * `imagine` with `imageId` draws that picture's prompt again (it is not
 * screened twice) and keeps the new picture as its newest version, shown
 * (image-rows.ts); a `swipe` naming a picture shows another version.
 *
 * Pictures are kept out of `messages`, so no prompt, summary or recall
 * reads them (image-rows.ts). Deleting one (`delete_message` with its id:
 * its asker or the owner), rewinding past it, or deleting the chat deletes
 * its R2 object; so does an operator upholding a report on it
 * (`removeByOperator`).
 */
import type { ChatModel, PromptMessage } from "../../ai/chat-model.ts";
import { personImageGenerator } from "../../ai/images/generators.ts";
import { DEFAULT_IMAGE_SIDE, IMAGE_SIDE, ImageError, type ImageGenerator } from "../../ai/images/image-generator.ts";
import { decryptApiKey, isDevelopment } from "../../ai/model-keys.ts";
import { isChildSafetyViolation, type ModerationVerdict } from "../../ai/moderation/moderator.ts";
import { MAX_IMAGINE_PROMPT_LENGTH } from "../../schema/chat.ts";
import type { ServerFrame } from "../../schema/chat-frames.ts";
import { logScreening, type D1Sync, type ReplyCharacter } from "./d1-sync.ts";
import { releaseImage, reserveImage, type ImageReservation } from "./image-quota.ts";
import type { ImageRow } from "./migrations.ts";
import { imageObjectKeys, imageVersions } from "./image-rows.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import type { RoomScreening } from "./screening.ts";
import type { RoomSeams } from "./seams.ts";
import { send, type RoomSockets, type SocketState } from "./sockets.ts";
import type { RoomStore } from "./store.ts";

/** The R2 prefix of a conversation's pictures. */
export const picturesPrefix = (conversationId: string) => `pictures/${conversationId}/`;

/** Turns of the chat a written prompt reads, the newest. */
const SCENE_TURNS = 4;
/** Longest written prompt asked of the chat model, tokens. */
const SCENE_PROMPT_TOKENS = 160;

/** What a prompt is written from: the speaker and the recent turns, oldest first. */
export interface SceneInputs {
  speaker: Pick<ReplyCharacter, "name" | "description" | "appearance" | "scenario">;
  turns: { name: string; text: string }[];
}

/** A text's first sentence (or its first 300 characters), without roleplay asterisks. */
function firstSentence(text: string, max = 300): string {
  const plain = text.replace(/[*_~`]/g, "").replace(/\s+/g, " ").trim();
  const end = plain.search(/[.!?](\s|$)/);
  return (end === -1 ? plain : plain.slice(0, end + 1)).slice(0, max).trim();
}

/**
 * A picture's prompt from the scene alone, without a model (the offline
 * chat model, and a written prompt that failed): the speaker and how they
 * look (the card's "Appearance for pictures", else its description's first
 * sentence), then what the last turns say is happening.
 */
export function scenePrompt({ speaker, turns }: SceneInputs): string {
  const looks = speaker.appearance?.trim() || firstSentence(speaker.description ?? "");
  const happening = turns
    .slice(-2)
    .map((turn) => firstSentence(turn.text, 240))
    .filter(Boolean)
    .join(" ");
  const setting = happening || firstSentence(speaker.scenario ?? "", 240);
  return [`${speaker.name}${looks ? `, ${looks.replace(/\.$/, "")}` : ""}.`, setting].filter(Boolean).join(" ").slice(0, MAX_IMAGINE_PROMPT_LENGTH);
}

/** The chat model's instructions for writing a picture's prompt (a hosted model reads them; the offline one does not). */
export function scenePromptMessages({ speaker, turns }: SceneInputs): PromptMessage[] {
  const looks = speaker.appearance?.trim() || speaker.description?.trim() || "";
  return [
    {
      role: "system",
      content:
        "You write prompts for an image generator. Describe the scene of this roleplay at this very moment as one picture, in one paragraph under 80 words: " +
        "who is in it and how they look, where they are, what they are doing, the light and the mood. Plain description only: no dialogue, no story, no names of real people.",
    },
    {
      role: "user",
      content: `${speaker.name}: ${looks}\n\nThe last turns:\n${turns.map((turn) => `${turn.name}: ${turn.text}`).join("\n")}\n\nThe picture's prompt:`,
    },
  ];
}

/** A picture being made. */
interface Pending {
  userId: string;
  controller: AbortController;
  cancelled: boolean;
}

/** The words a person reads when a picture could not be made. */
function failureText(error: unknown): string {
  if (error instanceof ImageError && error.refused) return "The image model refused to draw this. Try describing it another way.";
  if (error instanceof Error && error.name === "EndpointRefused") return `${error.message} — change it in Settings → Models.`;
  return "The picture could not be made. Please try again.";
}

export class RoomImages {
  private readonly pending = new Map<string, Pending>();
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly screening: RoomScreening;
  private readonly inputs: PromptInputs;
  private readonly d1: D1Sync;
  private readonly seams: RoomSeams;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    parts: { store: RoomStore; sockets: RoomSockets; screening: RoomScreening; inputs: PromptInputs; d1: D1Sync; seams: RoomSeams },
  ) {
    this.ctx = ctx;
    this.env = env;
    this.store = parts.store;
    this.sockets = parts.sockets;
    this.screening = parts.screening;
    this.inputs = parts.inputs;
    this.d1 = parts.d1;
    this.seams = parts.seams;
  }

  /**
   * The `imagine` frame of `state`'s person (see the module comment). Resolves
   * once the picture is under way (or refused); the picture itself is made
   * off the socket's event, kept alive by `waitUntil`.
   */
  async imagine(ws: WebSocket, state: SocketState, prompt: string | undefined, clientId: string | undefined, imageId?: string): Promise<void> {
    const requestId = clientId ?? crypto.randomUUID();
    // A resend of a request still being made changes nothing.
    if (this.pending.has(requestId)) return;
    // A regenerate draws the picture's shown prompt again (screened when it was first drawn).
    const again = imageId === undefined ? null : this.store.images.get(imageId);
    if (imageId !== undefined && !again) {
      send(ws, { type: "error", code: "message_not_found", message: "That picture is not in the chat any more.", requestId });
      return;
    }
    if (again) prompt = again.prompt;
    const admission = await reserveImage(this.env.DB, this.env, state.userId, this.seams.now());
    if (!admission.ok) {
      send(ws, { type: "error", code: "rate_limited", message: admission.message, retryAfterMs: admission.retryAfterMs, requestId });
      return;
    }
    const written = prompt?.trim() || undefined;
    if (written && !again && (await this.refused(written, state.userId, ws, requestId))) {
      await releaseImage(this.env.DB, admission.reservation);
      return;
    }
    const pending: Pending = { userId: state.userId, controller: new AbortController(), cancelled: false };
    this.pending.set(requestId, pending);
    this.sockets.broadcast({
      type: "image_started",
      requestId,
      userId: state.userId,
      startedAt: new Date(this.seams.now()).toISOString(),
      ...(written ? { prompt: written } : {}),
      ...(again ? { imageId: again.id } : {}),
    });
    this.ctx.waitUntil(this.make(ws, state, requestId, written, pending, admission.reservation, again?.id));
  }

  /** `cancel_image`: its asker or the owner stops picture `requestId`; anyone else, or an unknown id, gets an error frame. */
  cancel(ws: WebSocket, state: SocketState, requestId: string): void {
    const pending = this.pending.get(requestId);
    if (!pending) {
      send(ws, { type: "error", code: "message_not_found", message: "That picture is not being made any more.", requestId });
      return;
    }
    if (pending.userId !== state.userId && state.role === "member") {
      send(ws, { type: "error", code: "forbidden", message: "You can only cancel your own pictures.", requestId });
      return;
    }
    pending.cancelled = true;
    pending.controller.abort();
    this.pending.delete(requestId);
    this.sockets.broadcast({ type: "image_stopped", requestId, reason: "cancelled" });
  }

  /**
   * `swipe` naming a picture: any member shows version `index` (written
   * order) of it; every socket gets `message_updated`. An index it does not
   * have is refused with `no_such_version`.
   */
  chooseVersion(ws: WebSocket, id: string, index: number): void {
    const before = this.store.images.get(id);
    const count = before ? imageVersions(before).length : 0;
    const row = this.store.images.chooseVersion(id, index);
    if (!row) {
      send(ws, { type: "error", code: "no_such_version", message: count <= 1 ? "This picture has only one version." : `This picture has ${count} versions; there is no version ${index + 1}.` });
      return;
    }
    this.sockets.broadcast({ type: "message_updated", messageId: id, message: this.store.images.toWire(row, this.store.room!.conversation_id) });
  }

  /** The picture `id`, if the chat has one (a `delete_message` may name it). */
  get(id: string): ImageRow | null {
    return this.store.images.get(id);
  }

  /**
   * `delete_message` of a picture: its asker or the owner deletes it (and
   * its R2 object); every socket gets `messages_deleted`. Anyone else gets
   * `forbidden`.
   */
  async delete(ws: WebSocket, state: SocketState, id: string, clientId: string | undefined): Promise<void> {
    const row = this.store.images.get(id);
    if (!row) return;
    if (row.author_id !== state.userId && state.role === "member") {
      send(ws, { type: "error", code: "forbidden", message: "You can only delete your own pictures.", ...(clientId ? { clientId } : {}) });
      return;
    }
    this.store.images.delete(id);
    await this.forgetObjects(imageObjectKeys(row));
    this.sockets.broadcast({ type: "messages_deleted", messageIds: [id], ...(clientId ? { clientId } : {}) });
  }

  /**
   * An operator removed these messages (`hidden_messages` in D1, handed over
   * by the Worker each time it opens the room): the pictures among them are
   * deleted, row and R2 object, and every socket gets `messages_deleted`.
   * Idempotent (a picture gone is not found again). Returns the ids deleted.
   */
  async removeByOperator(messageIds: readonly string[]): Promise<string[]> {
    if (this.store.deleted || !this.store.room) return [];
    const rows = this.store.images.deleteMany(messageIds);
    if (rows.length === 0) return [];
    await this.forgetObjects(rows.flatMap(imageObjectKeys));
    const ids = rows.map((row) => row.id);
    this.sockets.broadcast({ type: "messages_deleted", messageIds: ids });
    return ids;
  }

  /**
   * A branch's pictures (RoomStore.create): each object is copied from the
   * chat it was branched from to this chat's own key, so deleting either
   * chat leaves the other's whole. A picture whose source is gone loses its
   * row too.
   */
  async copyIn(copies: readonly { id: string; from: string; to: string }[]): Promise<void> {
    const bucket = this.env.AVATARS;
    for (const copy of copies) {
      const source = await bucket.get(copy.from);
      if (!source) {
        this.store.images.delete(copy.id);
        continue;
      }
      await bucket.put(copy.to, await source.arrayBuffer(), { httpMetadata: source.httpMetadata, customMetadata: source.customMetadata });
    }
  }

  /** Deletes, after this event, the R2 objects of pictures that went with a rewind (store.onPicturesGone). */
  forgetLater(objectKeys: string[]): void {
    this.ctx.waitUntil(this.forgetObjects(objectKeys));
  }

  /** The chat is being deleted: pictures being made stop, and every stored one's object is deleted (by prefix, so none is missed). */
  async forgetAll(conversationId: string): Promise<void> {
    for (const pending of this.pending.values()) pending.controller.abort();
    this.pending.clear();
    const bucket = this.env.AVATARS;
    let cursor: string | undefined;
    do {
      const listed = await bucket.list({ prefix: picturesPrefix(conversationId), cursor });
      if (listed.objects.length > 0) await bucket.delete(listed.objects.map((object) => object.key));
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
  }

  private async forgetObjects(keys: string[]): Promise<void> {
    try {
      await this.env.AVATARS.delete(keys);
    } catch (error) {
      console.error("forgetting pictures failed", String(error));
    }
  }

  /**
   * Screens a picture's prompt as a person's text; true — after logging it
   * and telling the asker (`image_refused`) — when it may not be drawn: S4,
   * S3 (sex-related crimes), or sexual content (S12) in a chat whose cast is
   * not NSFW (the verdict leaves S12 out when it is). Other categories are
   * logged as flagged and drawn. A provider failure lets it through, as
   * for messages.
   */
  private async refused(prompt: string, userId: string, ws: WebSocket, requestId: string): Promise<boolean> {
    const verdict = await this.screening.screen({ text: prompt, role: "user" });
    if (!verdict || verdict.safe) return false;
    const refuse = isChildSafetyViolation(verdict) || verdict.categories.includes("S3") || verdict.categories.includes("S12");
    this.log(userId, prompt, verdict, refuse ? "refused" : "flagged");
    if (!refuse) return false;
    send(ws, { type: "error", code: "image_refused", message: "This picture can't be made: its description breaks the content rules.", requestId });
    return true;
  }

  private log(userId: string, prompt: string, verdict: { categories: readonly string[]; provider: ModerationVerdict["provider"] | string }, outcome: "refused" | "flagged"): void {
    const room = this.store.room;
    if (!room) return;
    this.ctx.waitUntil(
      logScreening(this.env.DB, {
        subjectType: "image",
        subjectId: null,
        userId,
        characterId: room.character_id,
        conversationId: room.conversation_id,
        outcome,
        categories: verdict.categories,
        provider: verdict.provider,
        content: prompt,
      }).catch((error: unknown) => console.error("moderation log failed", String(error))),
    );
  }

  /** The character whose scene it is: the last reply's speaker, else the first member. */
  private speakerId(): number {
    const room = this.store.room!;
    const last = this.store.recentBefore(Number.MAX_SAFE_INTEGER, 20).find((row) => row.role === "character" && !row.hidden);
    return last?.character_id ?? room.character_id;
  }

  /** The prompt written from the scene (see the module comment), never empty. */
  private async writeScenePrompt(speakerId: number, signal: AbortSignal): Promise<string> {
    const card = (await this.inputs.loadCharacter(speakerId).catch(() => null)) ?? { name: this.store.cast.member(speakerId)?.name || "The character", description: "", scenario: "" };
    const rows = this.store
      .recentBefore(Number.MAX_SAFE_INTEGER, SCENE_TURNS * 2)
      .filter((row) => !row.hidden)
      .slice(0, SCENE_TURNS)
      .reverse();
    const turns = rows.map((row) => ({ name: this.store.nameOf(row) ?? (row.role === "user" ? "User" : card.name), text: row.content }));
    const inputs: SceneInputs = { speaker: card, turns };
    const fallback = scenePrompt(inputs);
    let model: ChatModel;
    try {
      model = this.seams.modelFactory(card as ReplyCharacter, this.store.room!.user_name);
    } catch {
      return fallback;
    }
    if (model.name === "offline") return fallback;
    try {
      let text = "";
      for await (const piece of model.stream(scenePromptMessages(inputs), { maxTokens: SCENE_PROMPT_TOKENS, signal })) {
        text += piece;
        if (text.length >= MAX_IMAGINE_PROMPT_LENGTH) break;
      }
      return text.trim().slice(0, MAX_IMAGINE_PROMPT_LENGTH) || fallback;
    } catch (error) {
      if (signal.aborted) throw error;
      console.warn("writing a picture's prompt failed", String(error));
      return fallback;
    }
  }

  /** The generator for this chat: the owner's connection's `imageModel`, else the site's (`seams.imageGeneratorFactory`). */
  private async generator(): Promise<ImageGenerator> {
    const row = await this.d1.readConnection().catch(() => null);
    if (!row || row.kind !== "openai" || !row.imageModel || !row.baseUrl) return this.seams.imageGeneratorFactory();
    const room = this.store.room!;
    const apiKey = row.sealed ? await decryptApiKey(this.env, { connectionId: row.id, userId: room.user_id }, row.sealed) : undefined;
    return personImageGenerator({ baseUrl: row.baseUrl, apiKey, model: row.imageModel, policy: { development: isDevelopment(this.env), siteHost: null } });
  }

  /** Steps 4–6 of the module comment, for request `requestId`. Never throws. */
  private async make(
    ws: WebSocket,
    state: SocketState,
    requestId: string,
    written: string | undefined,
    pending: Pending,
    reservation: ImageReservation,
    againId?: string,
  ): Promise<void> {
    const signal = pending.controller.signal;
    const stop = async (reason: "refused" | "failed", error?: ServerFrame) => {
      await releaseImage(this.env.DB, reservation);
      if (pending.cancelled || this.store.deleted) return;
      this.sockets.broadcast({ type: "image_stopped", requestId, reason });
      if (error) send(ws, error);
    };
    let prompt = written;
    try {
      const speakerId = this.speakerId();
      if (!prompt) {
        prompt = await this.writeScenePrompt(speakerId, signal);
        if (await this.refused(prompt, state.userId, ws, requestId)) return await stop("refused");
      }
      const generator = await this.generator();
      // A regenerate asks for the next drawing of the prompt (the offline painter's are otherwise the same).
      const before = againId === undefined ? null : this.store.images.get(againId);
      const variation = before ? imageVersions(before).length : 0;
      const picture = await generator.generate(prompt, { size: DEFAULT_IMAGE_SIDE, signal, variation });
      if (picture.width < IMAGE_SIDE.min / 2 || picture.height < IMAGE_SIDE.min / 2 || picture.width > 4096 || picture.height > 4096) {
        throw new ImageError(`${generator.id} answered a picture of ${picture.width} × ${picture.height}`);
      }
      if (pending.cancelled || this.store.deleted || !this.store.room) return await stop("failed");
      const room = this.store.room;
      const id = crypto.randomUUID();
      const objectKey = `${picturesPrefix(room.conversation_id)}${id}`;
      await this.env.AVATARS.put(objectKey, picture.bytes, {
        httpMetadata: { contentType: picture.contentType },
        customMetadata: { contentType: picture.contentType, uploaderId: state.userId, prompt: prompt.slice(0, 500) },
      });
      // Cancelled or deleted while the object was written: it goes again.
      if (pending.cancelled || this.store.deleted || !this.store.room) {
        await this.forgetObjects([objectKey]);
        return await stop("failed");
      }
      if (againId !== undefined) {
        const now = this.seams.now();
        const updated = this.store.images.addVersion(againId, {
          object_key: objectKey,
          content_type: picture.contentType,
          width: picture.width,
          height: picture.height,
          prompt,
          created_at: now,
        });
        // Deleted while the new version was drawn: its file goes too.
        if (!updated) {
          await this.forgetObjects([objectKey]);
          return await stop("failed");
        }
        this.sockets.broadcast({ type: "image_ready", requestId, message: this.store.images.toWire(updated, room.conversation_id) });
        return;
      }
      const row: ImageRow = {
        id,
        after_seq: this.store.images.lastSeq(),
        created_at: this.seams.now(),
        author_id: state.userId,
        author_name: state.name ?? "",
        character_id: speakerId,
        prompt,
        object_key: objectKey,
        content_type: picture.contentType,
        width: picture.width,
        height: picture.height,
      };
      this.store.images.insert(row);
      this.sockets.broadcast({ type: "image_ready", requestId, message: this.store.images.toWire(row, room.conversation_id) });
    } catch (error) {
      if (pending.cancelled || signal.aborted) return await stop("failed");
      console.warn("imagining failed", this.store.room?.conversation_id, String(error));
      if (error instanceof ImageError && error.refused) this.log(state.userId, prompt ?? "", { categories: [], provider: `image engine (${error.message.slice(0, 80)})` }, "refused");
      await stop("failed", { type: "error", code: "image_failed", message: failureText(error), requestId });
    } finally {
      if (this.pending.get(requestId) === pending) this.pending.delete(requestId);
    }
  }
}
