/**
 * Forks of characters (issue 40, DESIGN.md turn 4 "Sharing and forks",
 * docs/decisions/0035-forks.md): a person's own copy of someone's character
 * that keeps the credit.
 *
 * - `POST /api/characters/{id}/fork` copies every field of the original
 *   (text, greetings, tags, lorebook, voice, card extensions, NSFW flag) into
 *   a new, inactive character of the forker, with `forked_from_id` set and
 *   `creator` the forker's own; an uploaded avatar is copied into the
 *   forker's own uploads, so it outlives the original. Its expressions,
 *   backgrounds and other card assets are listed for the fork too (the
 *   files are stored once by content hash and outlive either character),
 *   and each standalone lorebook attached to the original is copied into a
 *   lorebook of the forker's, attached to the fork (the original's creator
 *   may edit or delete theirs). The copy meets the same rules as a new
 *   character: the input schema, the pre-screen.
 * - The credit is computed when read (worker/lib/catalog-rows.ts
 *   forkedFromColumns): the original's current name and creator, nothing
 *   once it is deleted. `fork_count` is kept by the triggers of
 *   migrations/0025_forks.sql.
 */
import type { CatalogCharacter, Character } from "../../schema/api.ts";
import { type CharacterInput, characterInputSchema, type ForksQuery } from "../../schema/inputs.ts";
import { getCharacter } from "./catalog.ts";
import { type Row, SUMMARY_COLUMNS, toCatalogCharacter } from "./catalog-rows.ts";
import { createCharacter, defaultCreator } from "./characters.ts";
import { forbidden, notFound, validationFailed } from "./errors.ts";
import { isVisibleTo, listedSql, visibleToSql } from "./listable.ts";
import { avatarKeyOwner, newAvatarKey, putAvatar, sniffImageType } from "./uploads.ts";

/** 403 when the creator turned forks off. */
export const FORKS_OFF_MESSAGE = "The creator of this character does not allow forks.";

/** 403 for a character an operator removed (its owner still sees it). */
export const REMOVED_FORK_MESSAGE = "This character was removed by moderation and cannot be forked.";

/**
 * The character `id` if `userId` may fork it. Throws 404 "Character not
 * found" when it does not exist or the caller cannot see it (someone else's
 * inactive character: its existence is private), 403 `forbidden` when its
 * creator does not allow forks (the creator may still copy their own) or an
 * operator removed it.
 */
export async function findForkable(db: D1Database, id: number, userId: string): Promise<Character> {
  const original = await getCharacter(db, id);
  if (!original || !isVisibleTo(original, userId)) throw notFound("Character not found");
  if (original.moderationStatus === "removed") throw forbidden(REMOVED_FORK_MESSAGE);
  if (!original.allowForks && original.creatorId !== userId) throw forbidden(FORKS_OFF_MESSAGE);
  return original;
}

/**
 * The fields a fork copies, checked by the input schema of `POST
 * /api/characters` (a name or text that a rule added since the original was
 * written no longer allows is refused the same way: 400 with its issues).
 * `allowForks` is the forker's to choose and starts on.
 */
export function forkInput(original: Character): CharacterInput {
  const parsed = characterInputSchema.safeParse({
    name: original.name,
    description: original.description,
    longDescription: original.longDescription,
    personality: original.personality,
    scenario: original.scenario,
    exampleConversation: original.exampleConversation,
    avatarUrl: original.avatarUrl,
    tags: original.tags,
    isNsfw: original.isNsfw,
    allowForks: true,
    greeting: original.greeting,
    alternateGreetings: original.alternateGreetings,
    systemPrompt: original.systemPrompt,
    postHistoryInstructions: original.postHistoryInstructions,
    creatorNotes: original.creatorNotes,
    voice: original.voice,
    appearance: original.appearance,
    characterBook: original.characterBook,
  });
  if (!parsed.success) throw validationFailed(parsed.error);
  return parsed.data;
}

/**
 * The avatar URL the fork shows: an upload of someone else
 * (`/objects/avatars/<owner>/<id>`) is copied to a new key of the forker's
 * (the original's owner may delete theirs, and worker/lib/uploads.ts
 * deleteUnusedAvatar only looks at its owner's rows); other URLs (https,
 * the demo artwork, the forker's own upload) are kept. Null when the upload
 * is gone or is no image.
 */
export async function forkAvatar(bucket: R2Bucket, avatarUrl: string | null, forkerId: string): Promise<string | null> {
  const key = /^\/objects\/(avatars\/[\w-]+\/[\w-]+)$/.exec(avatarUrl ?? "")?.[1];
  if (!key) return avatarUrl;
  if (avatarKeyOwner(key) === forkerId) return avatarUrl;
  const object = await bucket.get(key);
  if (!object) return null;
  const bytes = new Uint8Array(await object.arrayBuffer());
  const type = sniffImageType(bytes);
  if (!type) return null;
  const copy = newAvatarKey(forkerId);
  await putAvatar(bucket, copy, bytes, type, forkerId);
  return `/objects/${copy}`;
}

/**
 * Creates the fork of `original` for `forker` from `input` (forkInput) and
 * returns it as `GET /api/characters/:id` shows it: inactive, `creator` the
 * forker's username, `extensions` the original's, `forkedFrom` set. The
 * original's `forkCount` goes up by one in the same statement (trigger).
 * Throws 413 when it would not fit a row (it fitted as the original).
 */
export async function createFork(
  env: { DB: D1Database; AVATARS: R2Bucket },
  original: Character,
  input: CharacterInput,
  forker: { id: string; username: string },
): Promise<Character> {
  const fork = await createCharacter(env.DB, {
    ...input,
    avatarUrl: await forkAvatar(env.AVATARS, input.avatarUrl ?? null, forker.id),
    creator: defaultCreator(forker.username),
    creatorId: forker.id,
    isActive: false,
    extensions: original.extensions,
    forkedFromId: original.id,
  });
  const copies = await copyStatements(env.DB, original.id, fork.id, forker.id);
  if (copies.length === 0) return fork;
  await env.DB.batch(copies);
  return (await getCharacter(env.DB, fork.id)) ?? fork;
}

/**
 * The statements that give fork `forkId` (of `forkerId`) what character
 * `originalId` has besides its fields: its asset rows (the same R2 objects:
 * keyed by content hash, deleted only when no character lists them,
 * worker/lib/cards/assets.ts) and, for each standalone lorebook attached to
 * it, a copy owned by the forker attached in the same order.
 */
async function copyStatements(db: D1Database, originalId: number, forkId: number, forkerId: string): Promise<D1PreparedStatement[]> {
  const { results: books } = await db
    .prepare("SELECT lorebook_id AS id, position FROM character_lorebooks WHERE character_id = ? ORDER BY position")
    .bind(originalId)
    .all<{ id: string; position: number }>();
  return [
    db
      .prepare(
        `INSERT INTO character_assets (character_id, type, name, ext, url, object_key, size, position)
         SELECT ?, type, name, ext, url, object_key, size, position FROM character_assets WHERE character_id = ?`,
      )
      .bind(forkId, originalId),
    ...books.flatMap((book) => {
      const copy = crypto.randomUUID();
      return [
        db
          .prepare(
            `INSERT INTO lorebooks (id, owner_id, name, description, settings, entries, extensions)
             SELECT ?, ?, name, description, settings, entries, extensions FROM lorebooks WHERE id = ?`,
          )
          .bind(copy, forkerId, book.id),
        db
          .prepare("INSERT INTO character_lorebooks (character_id, lorebook_id, position) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM lorebooks WHERE id = ?)")
          .bind(forkId, copy, book.position, copy),
      ];
    }),
  ];
}

/**
 * `GET /api/characters/{id}/forks`: one page of the public forks of
 * character `id` (listed, and not NSFW unless `showNsfw`), most
 * favorited first then newest, and their exact total, in one round trip.
 * Throws 404 when the caller (`viewerId`, null for a visitor) cannot see the
 * character itself.
 */
export async function listForks(
  db: D1Database,
  id: number,
  viewerId: string | null,
  query: ForksQuery,
): Promise<{ characters: CatalogCharacter[]; total: number }> {
  const where = `c.forked_from_id = ?1 AND ${listedSql("c", { showNsfw: query.showNsfw === "true" })}`;
  const [original, page, counted] = await db.batch<Row>([
    db.prepare(`SELECT 1 AS found FROM characters c WHERE c.id = ?1 AND ${visibleToSql("c", "?2")}`).bind(id, viewerId),
    db
      .prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM characters c WHERE ${where}
         ORDER BY c.favorite_count DESC, c.created_at DESC, c.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(id, query.limit, query.offset),
    db.prepare(`SELECT count(*) AS total FROM characters c WHERE ${where}`).bind(id),
  ]);
  if (!original?.results[0]) throw notFound("Character not found");
  return { characters: (page?.results ?? []).map(toCatalogCharacter), total: Number(counted?.results[0]?.total ?? 0) };
}
