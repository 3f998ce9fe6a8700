/**
 * An OperatorDb (worker/lib/moderation-actions.ts) on the local database of
 * `npm start` (the D1 file miniflare keeps under `persistTo`,
 * scripts/lib/tools.ts `localD1File`), through node:sqlite: the same SQLite
 * file the running app reads. Miniflare keeps it in WAL mode, so a write here
 * is seen by the app's next read, while it runs; SQLite's own file locks keep
 * the two apart. `wrangler d1 execute --local` reaches the same file through
 * a workerd of its own, about 2–10 s per statement; this takes milliseconds.
 * The deployed database is only reached through wrangler (wrangler-d1.ts).
 *
 * Throws when `persistTo` holds no local database (migrations never applied)
 * and what SQLite throws; `run` is one transaction (all or nothing).
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { OperatorDb, SqlParam } from "../../worker/lib/moderation-actions.ts";
import { localD1File } from "./tools.ts";

/** How long a statement waits for the running app's write lock before SQLite gives up, ms. */
const BUSY_TIMEOUT_MS = 5_000;

export function localOperatorDb(persistTo: string): OperatorDb & { close(): void } {
  const file = localD1File(persistTo);
  if (!file) throw new Error(`no local database under ${persistTo}: run \`npm run db:migrate\` (or \`npm start\`) first`);
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  const bind = (params: SqlParam[]) => params as SQLInputValue[];
  return {
    async all<T>(sql: string, ...params: SqlParam[]) {
      return db.prepare(sql).all(...bind(params)) as T[];
    },
    async run(statements) {
      if (statements.length === 0) return;
      db.exec("BEGIN IMMEDIATE");
      try {
        for (const { sql, params } of statements) db.prepare(sql).run(...bind(params));
        db.exec("COMMIT");
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
    },
    close() {
      db.close();
    },
  };
}
