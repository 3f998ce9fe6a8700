/**
 * The room's pictures (`images`, migrations.ts version 9; DESIGN.md
 * "Pictures"): every statement on them, and how one reads on the wire. A
 * picture is not a row of `messages`: no prompt, summary, recall or
 * screening of replies ever reads it, and the chat's order places it after
 * the message it followed (`after_seq`). A regenerate keeps every version
 * (`versions`), the shown one in the row's own columns, so every reader
 * (exports, shares, reports, branches) sees the picture as shown.
 */
import type { ChatMessage } from "../../schema/chat.ts";
import type { ImageRow } from "./migrations.ts";
import { StoragePart } from "./storage-part.ts";

/** The public path of a picture's object (served by the Worker's `/objects/…`, like avatars). */
export const pictureUrl = (objectKey: string) => `/objects/${objectKey}`;

/** One version of a picture (a regenerate adds one), as `images.versions` keeps it. */
export interface ImageVersion {
  object_key: string;
  content_type: string;
  width: number;
  height: number;
  prompt: string;
  created_at: number;
}

/** The fields of `row` that make its shown version. */
function shownVersion(row: ImageRow): ImageVersion {
  return { object_key: row.object_key, content_type: row.content_type, width: row.width, height: row.height, prompt: row.prompt, created_at: row.created_at };
}

/** Every version of picture `row` in written order (one: itself, while it was never regenerated). */
export function imageVersions(row: ImageRow): ImageVersion[] {
  if (!row.versions) return [shownVersion(row)];
  try {
    const list = JSON.parse(row.versions) as ImageVersion[];
    return Array.isArray(list) && list.length > 0 ? list : [shownVersion(row)];
  } catch {
    return [shownVersion(row)];
  }
}

/** The shown version's place among `imageVersions(row)`. */
function shownIndex(row: ImageRow, count: number): number {
  const at = row.version_index;
  return at !== null && at !== undefined && Number.isInteger(at) && at >= 0 && at < count ? at : count - 1;
}

/** The R2 keys of every version of `row`: what deleting the picture deletes. */
export function imageObjectKeys(row: ImageRow): string[] {
  return [...new Set(imageVersions(row).map((version) => version.object_key))];
}

export class ImageRows extends StoragePart {
  /** Stores a picture. */
  insert(row: ImageRow): void {
    this.sql(
      `INSERT INTO images (id, after_seq, created_at, author_id, author_name, character_id, prompt, object_key, content_type, width, height)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.id,
      row.after_seq,
      row.created_at,
      row.author_id,
      row.author_name,
      row.character_id,
      row.prompt,
      row.object_key,
      row.content_type,
      row.width,
      row.height,
    );
  }

  /** The `seq` of the newest message (0 when none): a new picture's place. */
  lastSeq(): number {
    return this.sql<{ seq: number | null }>("SELECT max(seq) AS seq FROM messages")[0]?.seq ?? 0;
  }

  /** Every picture, in the chat's order. */
  all(): ImageRow[] {
    return this.sql<ImageRow>("SELECT * FROM images ORDER BY after_seq, created_at");
  }

  /** A picture by id. */
  get(id: string): ImageRow | null {
    return this.sql<ImageRow>("SELECT * FROM images WHERE id = ?", id)[0] ?? null;
  }

  /** Deletes picture `id`; its row, or null when there was none. */
  delete(id: string): ImageRow | null {
    return this.sql<ImageRow>("DELETE FROM images WHERE id = ? RETURNING *", id)[0] ?? null;
  }

  /** Deletes the pictures among `ids` (others are ignored); the rows deleted. */
  deleteMany(ids: readonly string[]): ImageRow[] {
    if (ids.length === 0) return [];
    return this.sql<ImageRow>("DELETE FROM images WHERE id IN (SELECT value FROM json_each(?)) RETURNING *", JSON.stringify(ids));
  }

  /** A regenerate's new picture becomes the newest version of picture `id`, and the one shown; the row, or null when it is gone. */
  addVersion(id: string, version: ImageVersion): ImageRow | null {
    const row = this.get(id);
    if (!row) return null;
    return this.show(id, [...imageVersions(row), version], null);
  }

  /** Shows version `index` (written order) of picture `id`; the row, or null when there is no such picture or version. */
  chooseVersion(id: string, index: number): ImageRow | null {
    const row = this.get(id);
    if (!row) return null;
    const versions = imageVersions(row);
    if (!Number.isInteger(index) || index < 0 || index >= versions.length) return null;
    return this.show(id, versions, index === versions.length - 1 ? null : index);
  }

  private show(id: string, versions: ImageVersion[], index: number | null): ImageRow | null {
    const shown = versions[index ?? versions.length - 1]!;
    return (
      this.sql<ImageRow>(
        `UPDATE images SET versions = ?, version_index = ?, object_key = ?, content_type = ?, width = ?, height = ?, prompt = ?
         WHERE id = ? RETURNING *`,
        JSON.stringify(versions),
        index,
        shown.object_key,
        shown.content_type,
        shown.width,
        shown.height,
        shown.prompt,
        id,
      )[0] ?? null
    );
  }

  /** Deletes the pictures shown after message `seq` (a rewind from there): they go with the messages they followed. */
  deleteAfter(seq: number): ImageRow[] {
    return this.sql<ImageRow>("DELETE FROM images WHERE after_seq >= ? RETURNING *", seq);
  }

  /** How a picture reads on the wire: a message of `kind: "image"` (ChatMessage). */
  toWire(row: ImageRow, conversationId: string): ChatMessage {
    const message: ChatMessage = {
      id: row.id,
      conversationId,
      content: "",
      isUser: false,
      createdAt: new Date(row.created_at).toISOString(),
      clientId: null,
      rating: null,
      kind: "image",
      imageUrl: pictureUrl(row.object_key),
      prompt: row.prompt,
      // Its other versions, as a reply's: their pictures' paths, in written order (`swipeIndex`: the shown one's place).
      alternatives: [],
      width: row.width,
      height: row.height,
      authorId: row.author_id,
      authorName: row.author_name,
    };
    if (row.character_id !== null) message.characterId = row.character_id;
    const versions = imageVersions(row);
    if (versions.length > 1) {
      const at = shownIndex(row, versions.length);
      message.alternatives = versions.filter((_, i) => i !== at).map((version) => pictureUrl(version.object_key));
      if (at !== versions.length - 1) message.swipeIndex = at;
    }
    return message;
  }
}

/**
 * `messages` (in `seq` order, with their `seq`) and `pictures` merged into
 * the chat's order: each picture right after the message of its `after_seq`.
 */
export function withPictures<T>(messages: readonly { seq: number; wire: T }[], pictures: readonly { row: ImageRow; wire: T }[]): T[] {
  const out: T[] = [];
  let p = 0;
  for (const { seq, wire } of messages) {
    while (p < pictures.length && pictures[p]!.row.after_seq < seq) out.push(pictures[p++]!.wire);
    out.push(wire);
  }
  while (p < pictures.length) out.push(pictures[p++]!.wire);
  return out;
}
