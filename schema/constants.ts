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
