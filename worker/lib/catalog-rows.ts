/**
 * The rows of character lists, independent of the database driver: the
 * columns a list or a page selects (SUMMARY_COLUMNS, DETAIL_COLUMNS, with the
 * creator's username), the mappers from a row to the wire shapes of
 * schema/api.ts, the statement types every catalog query is written in
 * (Statement, SqlBatch), and the `isFavorited` column of a signed-in
 * person's pages (withFavorites).
 */
import type { CatalogCharacter, Character, CharacterAsset, CharacterSummary, ModerationStatus } from "../../schema/api.ts";
import { hiddenCommentsSql } from "./block-sql.ts";
import { appearanceOf } from "./card-fields.ts";

export type Row = Record<string, unknown>;

/** Columns of a list row as [SQL column, wire name]. */
const SUMMARY_FIELDS: [string, string][] = [
  ["id", "id"], ["name", "name"], ["description", "description"],
  ["long_description", "longDescription"], ["creator", "creator"], ["creator_id", "creatorId"],
  ["avatar_url", "avatarUrl"], ["tags", "tags"], ["is_nsfw", "isNsfw"], ["is_active", "isActive"],
  ["view_count", "viewCount"], ["rating", "rating"], ["favorite_count", "favoriteCount"],
  ["message_count", "messageCount"], ["comment_count", "commentCount"], ["personality", "personality"],
  ["scenario", "scenario"], ["example_conversation", "exampleConversation"], ["greeting", "greeting"],
  ["created_at", "createdAt"], ["allow_forks", "allowForks"], ["fork_count", "forkCount"],
  ["forked_from_id", "forkedFromId"],
];
export const DETAIL_FIELDS: [string, string][] = [
  ...SUMMARY_FIELDS,
  ["alternate_greetings", "alternateGreetings"], ["system_prompt", "systemPrompt"],
  ["post_history_instructions", "postHistoryInstructions"], ["creator_notes", "creatorNotes"], ["voice", "voice"],
  ["character_book", "characterBook"], ["extensions", "extensions"], ["rating_up", "ratingUp"],
  ["rating_down", "ratingDown"], ["updated_at", "updatedAt"], ["moderation_status", "moderationStatus"],
];
/**
 * SQL scalar subquery: the username (canonical, with its "@") of the person
 * whose id is the SQL expression `creatorId` (e.g. "c.creator_id"); NULL for
 * a character without an account behind it. One primary-key probe of `users`.
 */
export const creatorUsernameSql = (creatorId: string) => `(SELECT u.username FROM users u WHERE u.id = ${creatorId})`;

/**
 * The select list of `fields` (`prefix` qualifies the columns, e.g. "c.").
 * Lists that carry `creator_id` also carry `creatorUsername`: the owner's
 * username, one primary-key probe of `users` per returned row.
 */
export const selectList = (fields: [string, string][], prefix: string) =>
  [
    ...fields.map(([column, alias]) => `${prefix}${column} AS ${alias}`),
    ...(fields.some(([column]) => column === "creator_id") ? [`${creatorUsernameSql(`${prefix}creator_id`)} AS creatorUsername`] : []),
    ...(fields.some(([column]) => column === "forked_from_id") ? forkedFromColumns(`${prefix}forked_from_id`) : []),
  ].join(", ");

/**
 * The credit columns of a fork whose original's id is the SQL expression
 * `forkedFromId`: the original's current name and its creator's username,
 * NULL when it is no fork, or its original was deleted or removed by
 * moderation (a removed character is named nowhere). One primary-key probe
 * of `characters` (and one of `users`) per fork; none for other rows.
 */
const forkedFromColumns = (forkedFromId: string) => {
  const original = `FROM characters o WHERE o.id = ${forkedFromId} AND o.moderation_status != 'removed'`;
  return [
    `(SELECT o.name ${original}) AS forkedFromName`,
    `(SELECT ${creatorUsernameSql("o.creator_id")} ${original}) AS forkedFromCreatorUsername`,
  ];
};

export const SUMMARY_COLUMNS = selectList(SUMMARY_FIELDS, "c.");
/**
 * SQL scalar subquery: the assets of the character whose id is the SQL
 * expression `characterId`, as a JSON array of `{type, name, url, ext}` in
 * the card's order (character_assets_order_idx).
 */
export const assetsSql = (characterId: string) =>
  `(SELECT json_group_array(json_object('type', a.type, 'name', a.name, 'url', a.url, 'ext', a.ext) ORDER BY a.position, a.type, a.name)
    FROM character_assets a WHERE a.character_id = ${characterId})`;
/** A character page's columns: DETAIL_FIELDS, the creator's username and `assets`. */
export const DETAIL_COLUMNS = `${selectList(DETAIL_FIELDS, "c.")}, ${assetsSql("c.id")} AS assets`;

export function toSummary(row: Row): CharacterSummary {
  return {
    id: Number(row.id),
    name: String(row.name),
    description: String(row.description),
    longDescription: (row.longDescription as string | null) ?? null,
    creator: String(row.creator),
    creatorId: (row.creatorId as string | null) ?? null,
    creatorUsername: (row.creatorUsername as string | null) ?? null,
    avatarUrl: (row.avatarUrl as string | null) ?? null,
    tags: parseJson<string[]>(row.tags, []),
    isNsfw: Boolean(row.isNsfw),
    isActive: Boolean(row.isActive),
    viewCount: Number(row.viewCount),
    rating: Number(row.rating),
    favoriteCount: Number(row.favoriteCount),
    messageCount: Number(row.messageCount),
    commentCount: Number(row.commentCount),
    personality: String(row.personality),
    scenario: (row.scenario as string | null) ?? null,
    exampleConversation: (row.exampleConversation as string | null) ?? null,
    greeting: (row.greeting as string | null) ?? null,
    createdAt: new Date(Number(row.createdAt)).toISOString(),
    allowForks: row.allowForks === undefined ? true : Boolean(row.allowForks),
    forkedFrom:
      row.forkedFromId === null || row.forkedFromId === undefined
        ? null
        : {
            id: Number(row.forkedFromId),
            name: (row.forkedFromName as string | null) ?? null,
            creatorUsername: row.forkedFromName == null ? null : ((row.forkedFromCreatorUsername as string | null) ?? null),
          },
    forkCount: Number(row.forkCount ?? 0),
  };
}

/**
 * A list row as the catalog returns it: the summary, plus `isFavorited` when
 * the statement computed it (withFavorites, signed-in callers only).
 */
export function toCatalogCharacter(row: Row): CatalogCharacter {
  // A signed-in viewer's count leaves out the comments hidden from them (withFavorites).
  if (row.hiddenComments) row.commentCount = Math.max(0, Number(row.commentCount) - Number(row.hiddenComments));
  const summary: CatalogCharacter = toSummary(row);
  if (row.isFavorited !== undefined) summary.isFavorited = Boolean(row.isFavorited);
  return summary;
}

export function toCharacter(row: Row): Character {
  const extensions = parseJson<Record<string, unknown>>(row.extensions, {});
  return {
    ...toSummary(row),
    assets: parseJson<CharacterAsset[]>(row.assets, []),
    alternateGreetings: parseJson<string[]>(row.alternateGreetings, []),
    systemPrompt: (row.systemPrompt as string | null) ?? null,
    postHistoryInstructions: (row.postHistoryInstructions as string | null) ?? null,
    creatorNotes: (row.creatorNotes as string | null) ?? null,
    voice: (row.voice as string | null) ?? null,
    appearance: appearanceOf(extensions),
    characterBook: parseJson<Record<string, unknown> | null>(row.characterBook, null),
    extensions,
    ratingUp: Number(row.ratingUp),
    ratingDown: Number(row.ratingDown),
    updatedAt: new Date(Number(row.updatedAt)).toISOString(),
    moderationStatus: toModerationStatus(row.moderationStatus),
  };
}

/** `characters.moderation_status` as the wire has it (`ok` for anything unexpected). */
export function toModerationStatus(value: unknown): ModerationStatus {
  return value === "flagged" || value === "removed" ? value : "ok";
}

function parseJson<T>(value: unknown, fallback: T): T {
  if (typeof value !== "string") return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** One SQL statement with its positional parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Runs statements in order in one round trip and returns each one's rows.
 * D1's `batch()` in the Worker (catalog.ts); node:sqlite in the benchmark,
 * which times the very same SQL directly on the database file
 * (scripts/bench-catalog.ts). This module therefore uses no Workers types.
 */
export type SqlBatch = (statements: Statement[]) => Promise<Row[][]>;

/**
 * Numbered SQL parameters for one statement: `bind(value)` returns `?N`,
 * the same N for the same value wherever it appears, so SQL pieces can be
 * written in any order and repeated. `statement(sql)` pairs the SQL with the
 * values up to the highest number it uses.
 */
export class SqlParams {
  readonly values: unknown[] = [];
  private readonly numbers = new Map<unknown, number>();

  readonly bind = (value: unknown): string => {
    let n = this.numbers.get(value);
    if (n === undefined) {
      n = this.values.push(value);
      this.numbers.set(value, n);
    }
    return `?${n}`;
  };

  statement(sql: string): Statement {
    let highest = 0;
    for (const m of sql.matchAll(/\?(\d+)/g)) highest = Math.max(highest, Number(m[1]));
    return { sql, params: this.values.slice(0, highest) };
  }
}

/**
 * Whose personal parts a statement computes, as SQL: a user id bound as a
 * value, or the user of a session looked up inside the statement itself
 * (`sessionUserSql` of worker/lib/sessions.ts), so no round trip goes to the
 * session first. The expression is NULL when nobody is signed in.
 */
export type ViewerSql = (bind: (value: unknown) => string) => string;

/** A viewer known by id (tests, the benchmark, routes that validated the session already). */
export const viewerById =
  (userId: string): ViewerSql =>
  (bind) =>
    bind(userId);

/**
 * The result columns of a signed-in viewer's list row for the character id
 * `id` (`user` is the SQL of the user id): `isFavorited`, and
 * `hiddenComments`, the comments of people the viewer blocked
 * (worker/lib/block-sql.ts hiddenCommentsSql; one probe of the blocks index
 * when they blocked nobody), which `toCatalogCharacter` takes out of
 * `commentCount`, so a card counts what the character page shows them.
 */
export const favoritedColumn = (id: string, user: string) =>
  `, EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = ${user} AND f.character_id = ${id}) AS isFavorited,
  ${hiddenCommentsSql(id, user)} AS hiddenComments`;

/**
 * A page's SQL whose rows also carry `isFavorited` (0/1) for the viewer
 * `user` (an SQL expression). The page stays a subquery with its own plan,
 * ORDER BY, LIMIT and OFFSET, so its rows are picked exactly as for a
 * visitor and only those (at most `limit`) each probe the unique index on
 * favorites (user_id, character_id) — the ordering never runs again and a
 * sort over many candidates never pays for the probe. SQLite runs such a
 * subquery as a co-routine and the outer query, having no ORDER BY of its
 * own, keeps its order. One statement, so no extra round trip. (Rows
 * carry `hiddenComments` too: favoritedColumn.)
 */
export function withFavorites(pageSql: string, user: string | null): string {
  if (user === null) return pageSql;
  return `SELECT page.*${favoritedColumn("page.id", user)} FROM (${pageSql}) page`;
}

/**
 * The statements of one catalog answer, to run in one round trip (one batch,
 * in order), and how to turn their rows into the answer.
 */
export interface CatalogPlan {
  statements: Statement[];
  read: (results: Row[][]) => { characters: CatalogCharacter[]; total: number };
}

/** The plan of a query nothing can match: no statement at all. */
export const EMPTY_PLAN: CatalogPlan = { statements: [], read: () => ({ characters: [], total: 0 }) };
