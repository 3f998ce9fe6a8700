/**
 * Plain business constants shared by the web app and the Worker (SPEC.md §9),
 * kept free of zod so the web entry bundle can import them at no cost.
 */

/** Character page size and the Load More step. */
export const CATALOG_PAGE_SIZE = 20;
/** Deepest offset a list may ask for; beyond it, filters and search reach further. */
export const CATALOG_MAX_OFFSET = 10_000;
/** Most tags a list filter or a character may carry. */
export const MAX_TAGS = 10;
/**
 * Most tags a person may hide (their hidden tags, sent as `excludeTags` with
 * every list request; 50 tag names of at most 24 characters keep the URL
 * well under 2 KB).
 */
export const MAX_HIDDEN_TAGS = 50;

/** Longest bio on a person's page, characters (issue 26 "Profiles"). */
export const MAX_BIO_LENGTH = 500;
/** How selected tags combine in a list filter: every one of them, or at least one. */
export const TAG_MODES = ["all", "any"] as const;
export type TagMode = (typeof TAG_MODES)[number];
/** Longest search text accepted, in characters. */
export const MAX_SEARCH_LENGTH = 200;
/** Longest comment or reply, in characters. */
export const MAX_COMMENT_LENGTH = 5000;
/** Largest avatar or card upload, in bytes (10 MB). */
export const MAX_UPLOAD_BYTES = 10_485_760;
/** Longest persona name, in characters: it replaces `{{user}}` in chats. */
export const MAX_PERSONA_NAME_LENGTH = 50;
/** Longest persona description, in characters (it enters every prompt of the chats it is used in). */
export const MAX_PERSONA_DESCRIPTION_LENGTH = 2000;
/** Most personas one person may keep. */
export const MAX_PERSONAS = 20;
/** Longest report details, in characters. */
export const MAX_REPORT_DETAILS_LENGTH = 1000;

/**
 * Why something is reported, in the order the Report dialog lists them, with
 * the label people read. `minors` is the zero-tolerance case of the legal pages.
 */
export const REPORT_REASONS = [
  { value: "minors", label: "Sexual content involving minors" },
  { value: "illegal", label: "Non-consensual or illegal content" },
  { value: "hate", label: "Hate or harassment" },
  { value: "spam", label: "Spam or scam" },
  { value: "impersonation", label: "Impersonation or stolen content" },
  { value: "other", label: "Other" },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]["value"];
export type ReportTargetType = "character" | "comment" | "message" | "share";
/** What a report can point at in the operator's queue: a person's report's target, or a refused write whose writer asked for a review (a `moderation_log` id). */
export type ReportQueueTarget = ReportTargetType | "refusal";
