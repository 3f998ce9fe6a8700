/**
 * A conversation as every answer shows it, read in one D1 query: the SQL of
 * its columns (`COLUMNS` from `FROM_JOINED`, table alias `v`, its first
 * character `c`) with its cast, people and branch source, and the row's
 * shape (`fromJoined`). A character an operator removed shows in no
 * conversation (issue 42, docs/decisions/0025).
 */
import {
  type CastMember,
  type ChatModelName,
  type Conversation,
  type ConversationMember,
  DEFAULT_TALKATIVENESS,
  REMOVED_CHARACTER_NAME,
  type ReplyOrder,
} from "../../schema/chat.ts";
import { creatorUsernameSql } from "./catalog-rows.ts";

/** A conversation row joined with its character and the conversation it was branched from (`COLUMNS` from `FROM_JOINED`). */
export interface JoinedRow {
  id: string;
  characterId: number;
  userId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  lastMessageAt: number | null;
  lastMessagePreview: string | null;
  personaId: string | null;
  modelConnectionId: string | null;
  background: string | null;
  checkIns: number;
  branchedFromId: string | null;
  branchedFromTitle: string | null;
  characterName: string;
  characterAvatarUrl: string | null;
  characterCreator: string;
  characterCreatorUsername: string | null;
  replyOrder: ReplyOrder;
  /** JSON list of CastMember (muted as 0/1), in member order. */
  castJson: string;
  /** JSON list of ConversationMember: the owner, then members by joining time. */
  membersJson: string;
}

/** The people of conversation `v`: its owner, then the members of a shared room in the order they joined. */
const MEMBERS_SQL = `(SELECT json_group_array(json_object('userId', u.id, 'username', u.username,
    'name', coalesce(nullif(trim(u.name), ''), nullif(trim(u.first_name), ''), u.username), 'avatarUrl', u.profile_image_url, 'role', x.role))
  FROM (SELECT v.user_id AS uid, 'owner' AS role, 0 AS ord, 0 AS at
        UNION ALL SELECT m.user_id, 'member', 1, m.joined_at FROM conversation_members m WHERE m.conversation_id = v.id
        ORDER BY ord, at) x
  JOIN users u ON u.id = x.uid)`;

/**
 * A character an operator removed shows in no conversation (issue 42,
 * docs/decisions/0025): SQL for character `alias`'s name, avatar, creator
 * and creator's username as a conversation answer shows them.
 */
function shownCharacterSql(alias: string): { name: string; avatarUrl: string; creator: string; creatorUsername: string } {
  const removed = `${alias}.moderation_status = 'removed'`;
  return {
    name: `CASE WHEN ${removed} THEN '${REMOVED_CHARACTER_NAME}' ELSE ${alias}.name END`,
    avatarUrl: `CASE WHEN ${removed} THEN NULL ELSE ${alias}.avatar_url END`,
    creator: `CASE WHEN ${removed} THEN '' ELSE ${alias}.creator END`,
    creatorUsername: `CASE WHEN ${removed} THEN NULL ELSE ${creatorUsernameSql(`${alias}.creator_id`)} END`,
  };
}

/** SQL: conversation `v` has a cast member (or first character) an operator removed. */
export const HAS_REMOVED_CHARACTER_SQL = `EXISTS (SELECT 1 FROM characters rc WHERE rc.moderation_status = 'removed'
    AND (rc.id = v.character_id OR rc.id IN (SELECT cc.character_id FROM conversation_characters cc WHERE cc.conversation_id = v.id)))`;

/**
 * The title of conversation `v` as shown: null (the client names the cast
 * shown) when it names a character an operator removed — default titles
 * ("Chat with …") always do.
 */
export const SHOWN_TITLE_SQL = `CASE WHEN v.title IS NOT NULL AND EXISTS (SELECT 1 FROM characters rc WHERE rc.moderation_status = 'removed'
    AND (rc.id = v.character_id OR rc.id IN (SELECT cc.character_id FROM conversation_characters cc WHERE cc.conversation_id = v.id))
    AND instr(lower(v.title), lower(rc.name)) > 0) THEN NULL ELSE v.title END`;

/**
 * The expressions and backgrounds of cast member `m` (its character `mc`),
 * as a JSON list of CharacterAsset in the card's order; none for a character
 * an operator removed.
 */
const CHAT_ASSETS_SQL = `(SELECT json_group_array(json_object('type', a.type, 'name', a.name, 'url', a.url, 'ext', a.ext) ORDER BY a.position, a.type, a.name)
    FROM character_assets a WHERE a.character_id = m.character_id AND a.type IN ('emotion', 'background') AND mc.moderation_status != 'removed')`;

const castMember = shownCharacterSql("mc");
/**
 * The cast of conversation `v` as one JSON list in member order (the
 * subquery's ORDER BY is kept by json_group_array), members active or not.
 */
const CAST_SQL = `(SELECT json_group_array(json_object('id', m.character_id, 'name', ${castMember.name}, 'avatarUrl', ${castMember.avatarUrl},
    'creator', ${castMember.creator}, 'creatorUsername', ${castMember.creatorUsername}, 'muted', m.muted, 'talkativeness', m.talkativeness,
    'assets', json(${CHAT_ASSETS_SQL})))
  FROM (SELECT * FROM conversation_characters WHERE conversation_id = v.id ORDER BY position) m
  JOIN characters mc ON mc.id = m.character_id)`;

const firstCharacter = shownCharacterSql("c");
/** The last message's preview is left out while a removed character is in the cast: it may be that character's line. */
export const COLUMNS = `v.id, v.character_id AS characterId, v.user_id AS userId, ${SHOWN_TITLE_SQL} AS title, v.created_at AS createdAt,
  v.updated_at AS updatedAt, v.last_message_at AS lastMessageAt,
  CASE WHEN ${HAS_REMOVED_CHARACTER_SQL} THEN NULL ELSE v.last_message_preview END AS lastMessagePreview,
  v.persona_id AS personaId, v.model_connection_id AS modelConnectionId, v.background AS background, v.check_ins AS checkIns, v.branched_from_id AS branchedFromId, b.title AS branchedFromTitle,
  ${firstCharacter.name} AS characterName, ${firstCharacter.avatarUrl} AS characterAvatarUrl, ${firstCharacter.creator} AS characterCreator,
  ${firstCharacter.creatorUsername} AS characterCreatorUsername, v.reply_order AS replyOrder, ${CAST_SQL} AS castJson,
  ${MEMBERS_SQL} AS membersJson`;

/** No `is_active` filter on purpose (DESIGN.md "Inactive characters": chats already open keep working). */
export const FROM_JOINED = `conversations v JOIN characters c ON c.id = v.character_id
  LEFT JOIN conversations b ON b.id = v.branched_from_id`;

const iso = (ms: number) => new Date(ms).toISOString();

function readCast(row: JoinedRow): CastMember[] {
  const cast = (JSON.parse(row.castJson || "[]") as (Omit<CastMember, "muted"> & { muted: number | boolean })[]).map((member) => ({
    ...member,
    creatorUsername: member.creatorUsername ?? null,
    muted: Boolean(member.muted),
    assets: member.assets ?? [],
  }));
  // A conversation from before its cast rows (never in use: migration 0013 wrote them): its character alone.
  return cast.length > 0
    ? cast
    : [
        {
          id: row.characterId,
          name: row.characterName,
          avatarUrl: row.characterAvatarUrl,
          creator: row.characterCreator,
          creatorUsername: row.characterCreatorUsername ?? null,
          muted: false,
          talkativeness: DEFAULT_TALKATIVENESS,
          assets: [],
        },
      ];
}

export function fromJoined(row: JoinedRow, chatModel: ChatModelName): Conversation {
  return {
    id: row.id,
    characterId: row.characterId,
    userId: row.userId,
    title: row.title,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    lastMessageAt: row.lastMessageAt === null ? null : iso(row.lastMessageAt),
    lastMessagePreview: row.lastMessagePreview,
    chatModel,
    character: {
      id: row.characterId,
      name: row.characterName,
      avatarUrl: row.characterAvatarUrl,
      creator: row.characterCreator,
      creatorUsername: row.characterCreatorUsername ?? null,
    },
    characters: readCast(row),
    replyOrder: row.replyOrder,
    members: JSON.parse(row.membersJson || "[]") as ConversationMember[],
    personaId: row.personaId,
    branchedFrom: row.branchedFromId === null ? null : { id: row.branchedFromId, title: row.branchedFromTitle },
    modelConnectionId: row.modelConnectionId ?? null,
    background: row.background ?? null,
    checkIns: row.checkIns === 1,
  };
}
