/**
 * The one canonical form of a username (DESIGN.md "Usernames"): "@" followed
 * by the name, e.g. "@nightowl". It is what the database stores, what
 * comparisons use (case-insensitively: `lower(username)` is unique,
 * migrations/0000_init.sql) and what screens show. Shared by the Worker
 * (worker/lib/users.ts re-exports it), the scripts and the web app.
 */

/**
 * A username as people type it ("nightowl", "@nightowl", " @NightOwl") in its
 * canonical form: surrounding spaces removed and exactly one leading "@"
 * (any number typed becomes one). Letter case is kept as typed; compare with
 * `usernameKey`. Validation (letters, digits, underscores, length) is the
 * profile schema's job (schema/inputs.ts), not this function's.
 */
export function canonicalUsername(input: string): string {
  return `@${input.trim().replace(/^@+/, "")}`;
}

/** The comparison key of a username: its canonical form in lower case (as `lower(username)` in SQL). */
export function usernameKey(input: string): string {
  return canonicalUsername(input).toLowerCase();
}

/**
 * The path of a person's public creator page, `/u/{name}` without the "@"
 * (the page also answers `/u/@name`, in any letter case).
 */
export function creatorPath(username: string): string {
  return `/u/${encodeURIComponent(canonicalUsername(username).slice(1))}`;
}
