/**
 * Wire shapes of the HTTP API (SPEC.md §3 and §7), shared by the Worker and
 * the web client. Timestamps travel as ISO 8601 strings.
 */
import type { ReportQueueTarget, ReportReason, ReportTargetType } from "./constants.ts";

/** The JSON error body of every non-2xx `/api/*` answer (DESIGN.md "Errors"). */
export interface ApiErrorBody {
  error: string;
  code: ApiErrorCode;
  issues?: { path: string; message: string }[];
}

export type ApiErrorCode =
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "validation_failed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "content_refused"
  | "rate_limited"
  | "unavailable"
  | "internal";

/** The signed-in person as `GET /api/auth/user` and `PUT /api/profile` return them. */
export interface CurrentUser {
  id: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  /** With its leading "@", e.g. "@mira_42". */
  username: string;
  email: string | null;
  profileImageUrl: string | null;
  /** The short introduction on the person's page (≤ 500 characters); null when none. */
  bio: string | null;
}

/**
 * One signed-in device as `GET /api/profile/sessions` lists it (DESIGN.md
 * turn 4 "Your account, your data"): `id` is the session's public id (never
 * its cookie or the cookie's hash), times are ISO 8601, `lastSeenAt` to
 * within five minutes, `userAgent` as the browser sent it at sign-in (null
 * when it sent none), `current` on the session making the request.
 */
export interface AccountSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  current: boolean;
}

/**
 * `GET` and `PUT /api/profile/content`: whether the signed-in person browses
 * with NSFW content shown, and when they confirmed being 18 or older (ms
 * since the epoch; null: never), which turning NSFW on needs the first time.
 */
export interface ContentSettings {
  showNsfw: boolean;
  adultConfirmedAt: number | null;
}

/**
 * `GET` and `PUT /api/profile/hidden-tags`: the tags the signed-in person
 * hides from every list and search (lower case, sorted).
 */
export interface HiddenTags {
  tags: string[];
}

/** A report as `POST /api/reports` returns it (201 new, 200 the reporter's open one). */
export interface Report {
  id: number;
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  details: string | null;
  status: "open" | "upheld" | "dismissed";
  createdAt: string;
}

/**
 * A review a refused writer asked for, as `POST /api/reports/review` returns
 * it (201 new, 200 their open one): a report on their latest refused write
 * (`targetType: "refusal"`, `targetId` its moderation log id) that the
 * operator sees in `npm run moderation -- reports`.
 */
export interface ReviewRequest extends Omit<Report, "targetType"> {
  targetType: Extract<ReportQueueTarget, "refusal">;
}

/** A character as lists return it: the SPEC.md §3 fields. */
export interface CharacterSummary {
  id: number;
  name: string;
  description: string;
  longDescription: string | null;
  creator: string;
  creatorId: string | null;
  /**
   * The creator's account's username, canonical ("@name"): where "@creator"
   * links (`/u/{name}`). `creator` is the handle shown, which the card or its
   * owner may set; this is who owns the character. Null without an owner.
   */
  creatorUsername: string | null;
  avatarUrl: string | null;
  tags: string[];
  isNsfw: boolean;
  isActive: boolean;
  viewCount: number;
  /** 0–100 (DESIGN.md "Rating"). */
  rating: number;
  favoriteCount: number;
  messageCount: number;
  commentCount: number;
  personality: string;
  scenario: string | null;
  exampleConversation: string | null;
  greeting: string | null;
  createdAt: string;
  /** Whether others may fork it (the creator's choice, on by default; issue 40). */
  allowForks: boolean;
  /** What it was forked from; null when it is no fork (DESIGN.md turn 4 "Sharing and forks"). */
  forkedFrom: ForkedFrom | null;
  /** Forks of it still stored, private ones included (`GET /api/characters/{id}/forks` lists the public ones). */
  forkCount: number;
}

/**
 * The credit a fork carries: the original's id (kept when the original is
 * renamed or deleted), its current name and its creator's username
 * (canonical, "@name"). `name` and `creatorUsername` are null when the
 * original was deleted or removed by moderation: the credit then reads "a
 * deleted character" (docs/decisions/0035-forks.md).
 */
export interface ForkedFrom {
  id: number;
  name: string | null;
  creatorUsername: string | null;
}

/** A character as `GET /api/characters/:id` returns it: every card field. */
/**
 * One asset of a character (Character Card V3 `data.assets`, DESIGN.md
 * "Character assets"): `type` `icon` | `emotion` | `background` |
 * `user_icon` | `x_…` (kept as given), `name` (an emotion label such as
 * "joy", a background's name), `url` (`/objects/assets/<sha256>` when stored
 * here, else the outside URL the card named) and `ext` (file extension
 * without its dot: "png", "webp", "mp3").
 */
export interface CharacterAsset {
  type: string;
  name: string;
  url: string;
  ext: string;
}

export interface Character extends CharacterSummary {
  /** Its assets in the card's order; the avatar (icon "main") is `avatarUrl`, not repeated here. */
  assets: CharacterAsset[];
  alternateGreetings: string[];
  systemPrompt: string | null;
  postHistoryInstructions: string | null;
  creatorNotes: string | null;
  /** Voice id of GET /api/voices its replies are read in; null: the default (DESIGN.md "Voices"). */
  voice: string | null;
  /**
   * "Appearance for pictures": how it looks, for pictures of its chats and
   * its drawn avatar (DESIGN.md "Pictures"); null for none. Kept in
   * `extensions.fabled.appearance` (this is that value, for reading).
   */
  appearance: string | null;
  characterBook: Record<string, unknown> | null;
  extensions: Record<string, unknown>;
  ratingUp: number;
  ratingDown: number;
  updatedAt: string;
  moderationStatus: ModerationStatus;
}

/**
 * `ok`; `flagged`: screening found something for an operator to review (the
 * character stays listed); `removed`: an operator removed it — hidden from
 * everyone but its owner, who cannot reactivate it.
 */
export type ModerationStatus = "ok" | "flagged" | "removed";

/**
 * A character in `GET /api/my-characters`: the list fields (with `viewCount`
 * and `favoriteCount`), its moderation status, and `chatCount`.
 */
export interface OwnCharacter extends CharacterSummary {
  moderationStatus: ModerationStatus;
  /** Conversations started with it, by anyone (the creator's own included), still stored. */
  chatCount: number;
}

/** A character in a `GET /api/characters` page. */
export interface CatalogCharacter extends CharacterSummary {
  /**
   * Whether the signed-in caller favorited it, so a page of hearts needs no
   * `GET /api/characters/:id/favorite` each. Absent for visitors (never false:
   * a visitor has no favorites to report).
   */
  isFavorited?: boolean;
}

/** `GET /api/characters` */
export interface CharacterListResponse {
  characters: CatalogCharacter[];
  total: number;
}

/**
 * `GET /api/users/:username`: a creator's public page (issue 16). Counts are
 * over their active characters (NSFW ones included): `favoriteCount` is the
 * sum of their favorite counts, `chatCount` the conversations people started
 * with them; `followerCount` is exact (one `follows` row per follower).
 */
export interface CreatorProfile {
  id: string;
  /** Canonical, "@name". */
  username: string;
  /** The public display name; null when the person has none (show the username). */
  name: string | null;
  profileImageUrl: string | null;
  /** The creator's own few words about themselves; null when none. */
  bio: string | null;
  /** When the account was created (ISO 8601). */
  createdAt: string;
  characterCount: number;
  favoriteCount: number;
  chatCount: number;
  followerCount: number;
  /** Whether the signed-in caller follows them; absent for visitors and on one's own page. */
  isFollowing?: boolean;
  /**
   * Whether the signed-in caller blocked them (issue 35 "Blocking"); absent
   * for visitors and on one's own page. Never says whether they blocked the
   * caller: blocking is private.
   */
  isBlocked?: boolean;
}

/**
 * One person in `GET /api/blocks` (the caller's own list, newest block
 * first; docs/decisions/0030-blocking.md).
 */
export interface BlockedPerson {
  /** Canonical, "@name". */
  username: string;
  /** Their display name; null when they have none (show the username). */
  name: string | null;
  avatarUrl: string | null;
  /** When the caller blocked them (ISO 8601). */
  blockedAt: string;
}

/** `PUT` / `DELETE /api/users/:username/follow`. */
export interface FollowStatus {
  isFollowing: boolean;
  followerCount: number;
}

/** `GET /api/tags?popular=true` */
export interface Tag {
  id: number;
  name: string;
  count: number;
}

/** Home tabs, sent as `sort=` (DESIGN.md "Tabs"). */
export const CATALOG_SORTS = ["for-you", "trending", "new", "popular"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

/** `GET /api/characters/:id/favorite` */
export interface FavoriteStatus {
  isFavorited: boolean;
}

/**
 * A comment as `GET /api/characters/:id/comments` returns it: top-level
 * comments newest first, each with its replies (any depth) oldest first.
 */
export interface Comment {
  id: number;
  characterId: number;
  userId: string;
  content: string;
  parentId: number | null;
  /** Net sum of votes (+1 / −1). */
  votes: number;
  createdAt: string;
  username: string;
  profileImageUrl: string | null;
  replies: Comment[];
}

/** `GET /api/comments/:id/vote` */
export interface VoteStatus {
  vote: 1 | -1 | null;
}

/** `POST /api/objects/upload`: where to PUT the avatar file (SPEC.md §7). */
export interface UploadUrlResponse {
  uploadURL: string;
}

/** `PUT /api/character-avatars`: the registered avatar's path, which becomes `avatarUrl`. */
export interface AvatarRegistrationResponse {
  objectPath: string;
}

/** `POST /api/images/avatars` → 201: a drawn avatar, usable as `avatarUrl` (`objectPath`), and its absolute `url`. */
export interface DrawnAvatarResponse {
  objectPath: string;
  url: string;
  /** `offline` when the offline painter drew it (the UI says so). */
  provider: "workers-ai" | "openai" | "offline";
}

/** `GET /api/images/usage` → 200: the pictures the person made today (UTC) and the day's limit. */
export interface ImageUsageResponse {
  used: number;
  limit: number;
  perMinute: number;
  provider: "workers-ai" | "openai" | "offline";
}

/**
 * Who a person is in chats, as `/api/personas` returns it (SillyTavern's
 * personas): `name` replaces `{{user}}` and `description` enters the prompt
 * after the character's scenario (docs/decisions/0007-steering-a-chat.md,
 * "The prompt"). At most one of a person's personas `isDefault`; with none,
 * `{{user}}` is their first name. Only its owner ever sees it.
 */
export interface Persona {
  /** Random UUID. */
  id: string;
  /** Trimmed, 1–50 characters (MAX_PERSONA_NAME_LENGTH). */
  name: string;
  /** Trimmed, at most 2,000 characters (MAX_PERSONA_DESCRIPTION_LENGTH); may be "". */
  description: string;
  /** An `/objects/avatars/…` upload, an https URL, or null for the initial. */
  avatarUrl: string | null;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}
