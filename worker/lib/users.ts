/**
 * Users: created on first sign-in (through the identity provider, or the local
 * development sign-in), found again by the provider's subject, and edited
 * through the profile (SPEC.md §5).
 *
 * Uniqueness lives in the database (migrations/0000_init.sql): `lower(email)`,
 * `lower(username)` and `auth_subject` each have a unique index, so two
 * requests racing for the same name cannot both win; the loser sees a UNIQUE
 * constraint error, which the functions here turn into a retry or a "taken".
 *
 * A name is also taken when it only *looks like* someone else's: every
 * username has its confusable skeleton (`users.username_skeleton`,
 * migrations/0012_name_skeletons.sql; schema/skeleton.ts `nameSkeleton`),
 * and a username or pen name whose skeleton is another person's is refused
 * ("@nightowI", "@nightowl_", "nightоwl" with a Cyrillic о). A person's own
 * handle, in any spelling, stays theirs.
 *
 * The username of a deleted account is held for 30 days (`username_holds`,
 * worker/lib/account/deletion.ts): it and its lookalikes are taken, as if
 * the person were still there.
 */
import { nameSkeleton } from "../../schema/skeleton.ts";
import { canonicalUsername } from "../../schema/usernames.ts";
import type { IdTokenClaims } from "./oidc.ts";
import type { SessionUser } from "./sessions.ts";

export { canonicalUsername, usernameKey } from "../../schema/usernames.ts";

const USER_FIELDS = `id, first_name AS firstName, last_name AS lastName, name, username, email,
  profile_image_url AS profileImageUrl, bio`;
const NOW_MS = "cast(unixepoch('subsec') * 1000 as integer)";

/** SQL true when a held name (a deleted account's, for 30 days) is `nameSql` in lower case or has skeleton `skeletonSql`. */
const heldSql = (nameSql: string, skeletonSql: string) =>
  `EXISTS (SELECT 1 FROM username_holds h WHERE (h.username = lower(${nameSql}) OR h.skeleton = ${skeletonSql}) AND h.until > ${NOW_MS})`;

/** Longest stored first/last/display name, characters (the profile's name limit, SPEC.md §5). */
const MAX_NAME = 100;
/** Longest username stem, so "@" + stem + "_" + 6 digits stays within the 30-character limit. */
const MAX_STEM = 20;
/** Attempts before giving up on a unique-index race that keeps being lost. */
const MAX_ATTEMPTS = 5;

/** True when a D1 error is a UNIQUE constraint violation (a lost race, a taken name). */
export function isUniqueViolation(err: unknown): boolean {
  const messages: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages.some((m) => m.includes("UNIQUE constraint failed"));
}

const TRANSLITERATION: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/**
 * A username stem from free text: accents removed (NFKD), a few letters
 * transliterated, lower case, every run of other characters made one "_",
 * at most 20 characters. Null when fewer than 2 characters remain
 * (e.g. a name in a script without a Latin transliteration here).
 */
export function usernameStem(text: string | null | undefined): string | null {
  if (!text) return null;
  const stem = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (ch) => TRANSLITERATION[ch] ?? "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_STEM)
    .replace(/_+$/, "");
  return stem.length >= 2 ? stem : null;
}

/** The stem for a new user: from the first name, else the full name, else the e-mail's local part. */
export function usernameStemFor(person: { firstName?: string | null; name?: string | null; email?: string | null }): string | null {
  const local = person.email?.split("@")[0]?.split("+")[0];
  return usernameStem(person.firstName) ?? usernameStem(person.name) ?? usernameStem(local);
}

function randomDigits(count: number): string {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  const low = 10 ** (count - 1);
  return String(low + ((n ?? 0) % (9 * low)));
}

/**
 * A username nobody holds (compared case-insensitively), in its canonical form:
 * `@mira` when free, else `@mira_42`-style with a random suffix that grows
 * (2, 4, 6 digits) while candidates keep being taken; `@user_1234`-style when
 * there is no usable stem. The unique index still has the last word: callers
 * retry on a UNIQUE violation.
 */
export async function pickUsername(db: D1Database, stem: string | null): Promise<string> {
  const base = stem ?? "user";
  for (let digits = stem ? 2 : 4; digits <= 6; digits += 2) {
    const candidates = [
      ...(stem && digits === 2 ? [canonicalUsername(stem)] : []),
      ...Array.from({ length: 5 }, () => canonicalUsername(`${base}_${randomDigits(digits)}`)),
    ];
    const marks = candidates.map(() => "?").join(", ");
    const { results } = await db
      .prepare(`SELECT lower(username) AS taken, username_skeleton AS skeleton FROM users
        WHERE lower(username) IN (${marks}) OR username_skeleton IN (${marks})
        UNION ALL SELECT username, skeleton FROM username_holds
        WHERE (username IN (${marks}) OR skeleton IN (${marks})) AND until > ${NOW_MS}`)
      .bind(...candidates.map((c) => c.toLowerCase()), ...candidates.map(nameSkeleton), ...candidates.map((c) => c.toLowerCase()), ...candidates.map(nameSkeleton))
      .all<{ taken: string; skeleton: string }>();
    const taken = new Set(results.flatMap((r) => [r.taken, r.skeleton]));
    const free = candidates.find((c) => !taken.has(c.toLowerCase()) && !taken.has(nameSkeleton(c)));
    if (free) return free;
  }
  throw new Error(`No free username found for stem ${base}`);
}

const clip = (text: string | null, max = MAX_NAME) => (text ? text.slice(0, max) : null);

/** First and last name from the claims: `given_name`/`family_name`, else `name` split at its first space. */
export function namesFromClaims(claims: Pick<IdTokenClaims, "givenName" | "familyName" | "name">): {
  firstName: string | null;
  lastName: string | null;
} {
  if (claims.givenName || claims.familyName) {
    return { firstName: clip(claims.givenName), lastName: clip(claims.familyName) };
  }
  const [first, ...rest] = (claims.name ?? "").split(/\s+/).filter(Boolean);
  return { firstName: clip(first ?? null), lastName: clip(rest.join(" ") || null) };
}

/** The picture claim when it is an http(s) URL of reasonable length, else null. */
function pictureUrl(picture: string | null): string | null {
  if (!picture || picture.length > 2048) return null;
  try {
    const { protocol } = new URL(picture);
    return protocol === "https:" || protocol === "http:" ? picture : null;
  } catch {
    return null;
  }
}

/**
 * The user of a verified ID token, created on first sign-in.
 *
 * - Found by provider subject (`iss` + " " + `sub`): e-mail and first/last
 *   name are refreshed from the claims; name, username and profile image are
 *   the person's own (the profile) and never overwritten.
 * - Not found, and the e-mail belongs to an account: that account is linked
 *   only when it has no provider subject yet and the provider says the e-mail
 *   is verified. Otherwise a new account is created without an e-mail: an
 *   address is never a way into somebody else's account.
 * - New users get a unique username from their name or e-mail.
 */
export async function signInWithIdentity(db: D1Database, claims: IdTokenClaims): Promise<SessionUser> {
  const { firstName, lastName } = namesFromClaims(claims);
  const email = clip(claims.email, 254);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const known = await db
        .prepare(
          `UPDATE users SET
             email = CASE WHEN ?1 IS NULL OR lower(?1) IS lower(email)
                            OR EXISTS (SELECT 1 FROM users o WHERE lower(o.email) = lower(?1) AND o.id != users.id)
                          THEN email ELSE ?1 END,
             first_name = coalesce(?2, first_name),
             last_name = coalesce(?3, last_name),
             updated_at = ${NOW_MS}
           WHERE auth_subject = ?4
           RETURNING ${USER_FIELDS}`,
        )
        .bind(email, firstName, lastName, claims.subject)
        .first<SessionUser>();
      if (known) return known;

      let newEmail = email;
      if (email) {
        const holder = await db
          .prepare("SELECT id, auth_subject AS authSubject FROM users WHERE lower(email) = lower(?)")
          .bind(email)
          .first<{ id: string; authSubject: string | null }>();
        if (holder) {
          if (holder.authSubject === null && claims.emailVerified) {
            const linked = await db
              .prepare(
                `UPDATE users SET auth_subject = ?, first_name = coalesce(?, first_name),
                   last_name = coalesce(?, last_name), updated_at = ${NOW_MS}
                 WHERE id = ? AND auth_subject IS NULL
                 RETURNING ${USER_FIELDS}`,
              )
              .bind(claims.subject, firstName, lastName, holder.id)
              .first<SessionUser>();
            if (linked) return linked;
            continue; // linked by a concurrent sign-in meanwhile: look again
          }
          newEmail = null;
        }
      }

      const name = clip(claims.name ?? ([firstName, lastName].filter(Boolean).join(" ") || null));
      const username = await pickUsername(db, usernameStemFor({ firstName, name, email }));
      const created = await db
        .prepare(
          `INSERT INTO users (id, email, first_name, last_name, name, username, profile_image_url, auth_subject)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           RETURNING ${USER_FIELDS}`,
        )
        .bind(crypto.randomUUID(), newEmail, firstName, lastName, name, username, pictureUrl(claims.picture), claims.subject)
        .first<SessionUser>();
      if (created) return created;
    } catch (err) {
      // A concurrent sign-in took the subject, the e-mail or the username: look again.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error("Could not sign in: unique-index races lost too often");
}

/**
 * The local development sign-in (DESIGN.md "Local development"): the user
 * with this e-mail (case-insensitive), created on first use with the first
 * name as name and a derived username.
 */
export async function findOrCreateDevUser(db: D1Database, person: { email: string; firstName: string }): Promise<SessionUser> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const existing = await db
      .prepare(`SELECT ${USER_FIELDS} FROM users WHERE lower(email) = lower(?)`)
      .bind(person.email)
      .first<SessionUser>();
    if (existing) return existing;
    try {
      const username = await pickUsername(db, usernameStemFor(person));
      const created = await db
        .prepare(
          `INSERT INTO users (id, email, first_name, name, username) VALUES (?, ?, ?, ?, ?)
           RETURNING ${USER_FIELDS}`,
        )
        .bind(crypto.randomUUID(), person.email, person.firstName, person.firstName, username)
        .first<SessionUser>();
      if (created) return created;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error("Could not sign in: unique-index races lost too often");
}

/**
 * True when nobody but `userId` holds `username` in its canonical form,
 * compared case-insensitively ("nightowl", "@nightowl" and "@NightOwl" are
 * one name), nor a name that looks like it: the same confusable skeleton
 * ("@nightowI", "@night0wl", "@nightowl_", "nightоwl" with a Cyrillic о).
 * Also the check of a pen name (a character's `creator`) against everyone
 * else's username.
 */
export async function isUsernameAvailable(db: D1Database, username: string, userId: string): Promise<boolean> {
  // A lookalike of the person's own username is theirs even when someone else's name
  // came to look the same later (a new skeleton step, migrations/0020_leetspeak_skeletons.sql).
  const row = await db
    .prepare(
      `SELECT 1 AS taken FROM users
       WHERE id != ?3 AND (lower(username) = lower(?1)
         OR (username_skeleton = ?2 AND NOT EXISTS (SELECT 1 FROM users me WHERE me.id = ?3 AND me.username_skeleton = ?2)))
       UNION ALL SELECT 1 WHERE ${heldSql("?1", "?2")}
         AND NOT EXISTS (SELECT 1 FROM users WHERE id = ?3 AND lower(username) = lower(?1))`,
    )
    .bind(canonicalUsername(username), nameSkeleton(username), userId)
    .first();
  return row === null;
}

/**
 * Saves the profile (SPEC.md §5 fields and the bio, already validated) and `updated_at`;
 * the username is stored in its canonical form. Returns the updated user, or
 * "username_taken" when another user holds the username in any letter case
 * or one with the same confusable skeleton — also when they took it a moment
 * ago (one statement: the skeleton check and the write cannot be split by
 * another write). A spelling of the person's own username (the same
 * skeleton as theirs) is always theirs, also when another person's name
 * came to share that skeleton only when the skeleton gained a step (two
 * names held before migrations/0020_leetspeak_skeletons.sql both stay
 * usable); the unique index still refuses the other's exact name.
 */
export async function updateProfile(
  db: D1Database,
  userId: string,
  profile: { name: string; username: string; profileImageUrl: string | null; bio?: string | null },
): Promise<SessionUser | "username_taken"> {
  try {
    // An absent bio (a client of SPEC.md §7's three fields) leaves the stored one as it is; "" removes it.
    const user = await db
      .prepare(
        `UPDATE users SET name = ?1, username = ?2, profile_image_url = ?3, bio = CASE WHEN ?7 THEN ?8 ELSE bio END, updated_at = ${NOW_MS}
         WHERE id = ?4 AND (username_skeleton = ?5 OR NOT EXISTS (SELECT 1 FROM users other WHERE other.username_skeleton = ?5 AND other.id != ?6))
           AND (lower(username) = lower(?2) OR NOT ${heldSql("?2", "?5")})
         RETURNING ${USER_FIELDS}`,
      )
      .bind(
        profile.name,
        canonicalUsername(profile.username),
        profile.profileImageUrl,
        userId,
        nameSkeleton(profile.username),
        userId,
        profile.bio !== undefined ? 1 : 0,
        profile.bio || null,
      )
      .first<SessionUser>();
    if (!user) {
      const exists = await db.prepare("SELECT 1 AS found FROM users WHERE id = ?").bind(userId).first();
      if (!exists) throw new Error(`User ${userId} vanished while saving the profile`);
      return "username_taken";
    }
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) return "username_taken";
    throw err;
  }
}
