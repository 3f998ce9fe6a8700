/**
 * Share links of chats (DESIGN.md "Sharing and forks"; docs/decisions/0036):
 * the wire shapes of `/api/conversations/{id}/shares` and `/api/shares/{token}`
 * and their inputs. Shared by the Worker (worker/routes/shares.ts) and the
 * web app (web/features/shares/).
 */
import { z } from "zod";

/** Most messages one share holds (the first ones up to the chosen message; a longer chat is shared up to a message). */
export const MAX_SHARE_MESSAGES = 5_000;
/**
 * Most pictures one share holds: each is copied to the share's own file when
 * it is made (two R2 calls a picture, within a Worker request's subrequest
 * allowance); a longer chat is shared up to an earlier message.
 */
export const MAX_SHARE_PICTURES = 200;
/** Most share links one chat keeps at once (revoke one to make another). */
export const MAX_SHARES_PER_CHAT = 50;

/** A share link's token as it appears in `/s/{token}`: 16 random bytes, base64url without padding. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A member of a shared chat's cast as it was when shared; the page links to `/character/{id}`. */
export interface SharedCharacter {
  id: number;
  name: string;
  avatarUrl: string | null;
}

/**
 * One message of a share: the version that was shown, under the name it was
 * written under. A picture imagined in the chat (DESIGN.md "Pictures") is a
 * message with `kind: "image"` and empty `content`, its version shown then,
 * served from the share's own copy (`imageUrl`, gone with the share); a
 * text message has none of the picture's fields.
 */
export interface SharedMessage {
  role: "user" | "character";
  /** A picture's is "". */
  content: string;
  /** A reply's speaker; null on a person's message. */
  characterId: number | null;
  /** The persona name a person wrote under, or the speaking character's name. */
  authorName: string;
  /** ISO 8601. */
  createdAt: string;
  /** Only on a picture. */
  kind?: "image";
  /** A picture's share-owned copy, "/objects/shares/{token}/{position}". */
  imageUrl?: string;
  /** The words the picture was drawn from (its alt text). */
  prompt?: string;
  /** A picture's size, px. */
  width?: number;
  height?: number;
}

/**
 * `GET /api/shares/{token}`. An NSFW share read without `showNsfw=true`
 * (a visitor or person who has not said they are 18 or older) is
 * `withheld`: no title, cast or messages, only that it is for adults.
 */
export interface SharedChat {
  title: string;
  characters: SharedCharacter[];
  messages: SharedMessage[];
  /** The sharer's persona name in that chat, never their username. */
  sharedBy: string;
  /** ISO 8601: when the snapshot was taken. */
  createdAt: string;
  isNsfw: boolean;
  /** How many messages the share holds (also when withheld). */
  messageCount: number;
  /** True when an NSFW share's content was left out (ask the 18+ question, then read with `showNsfw=true`). */
  withheld: boolean;
}

/** `POST /api/conversations/{id}/shares` → 201. */
export interface CreatedShare {
  token: string;
  /** Relative: "/s/{token}". */
  url: string;
}

/** A chat's share link as its owner lists it (`GET /api/conversations/{id}/shares`, newest first). */
export interface ShareLink extends CreatedShare {
  title: string;
  messageCount: number;
  /** ISO 8601. */
  createdAt: string;
}

/** `POST /api/shares/{token}/continue` → 201. */
export interface ContinuedShare {
  conversationId: string;
}

/** The path of share `token`'s reading page. */
export function shareUrl(token: string): string {
  return `/s/${token}`;
}

/**
 * Body of `POST /api/conversations/{id}/shares`: optionally the last
 * message to share (a room message id); without it, the whole visible chat.
 */
export const shareInputSchema = z
  .object(
    {
      upToMessageId: z
        .string({ error: "upToMessageId must be a message id" })
        .trim()
        .min(1, "upToMessageId must be a message id")
        .max(100, "upToMessageId must be a message id")
        .optional(),
    },
    { error: "Send the share as { upToMessageId? }" },
  )
  .strict();
export type ShareInput = z.infer<typeof shareInputSchema>;

/** Query of `GET /api/shares/{token}`: `showNsfw=true` once the reader said they are 18 or older (as the catalog's). */
export const shareQuerySchema = z.object({
  showNsfw: z.enum(["true", "false"], { error: 'showNsfw must be "true" or "false"' }).default("false"),
});
