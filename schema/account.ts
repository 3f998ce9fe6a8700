/**
 * What a deleted account leaves behind, shared by the Worker, the rooms and
 * the web app (DESIGN.md turn 4 "Your account, your data";
 * docs/decisions/0029-your-account-your-data.md).
 */

/**
 * The deleted account (GitHub's "ghost"): the `users` row a deleted
 * person's comments that others replied to are moved to, and the author id
 * of their messages in rooms they had joined. Nobody can sign in as it
 * (migrations/0019_account_data.sql inserts it without e-mail or provider).
 */
export const DELETED_ACCOUNT_ID = "00000000-0000-0000-0000-000000000000";

/** The deleted account's username, shown beside its comments: not a name anyone can choose (no "@"). */
export const DELETED_ACCOUNT_USERNAME = "[deleted]";

/** What a deleted person's comment that others replied to says from then on. */
export const DELETED_COMMENT_TEXT = "[deleted]";

/** Who a deleted person's messages in a shared room are shown as from. */
export const DELETED_AUTHOR_NAME = "a deleted account";

/** How long a deleted account's username, and any name that looks like it, stays taken, ms (30 days). */
export const USERNAME_HOLD_MS = 30 * 24 * 60 * 60 * 1000;

/** The least time between two data exports of one person, ms (a minute): a second one sooner is 429. */
export const EXPORT_INTERVAL_MS = 60 * 1000;
