/**
 * The operator's database (worker/lib/moderation-actions.ts OperatorDb) over
 * the tests' D1 binding: what `npm run moderation` does through wrangler,
 * here with the statements of one action in one batch.
 */
import { env } from "cloudflare:workers";
import type { OperatorDb, SqlParam } from "../lib/moderation-actions.ts";

export const operatorDb: OperatorDb = {
  async all<T>(sql: string, ...params: SqlParam[]) {
    return (await env.DB.prepare(sql).bind(...params).all<T>()).results;
  },
  async run(statements) {
    await env.DB.batch(statements.map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  },
};

/** Who acts in tests. */
export const OPERATOR = { actor: "test-operator", reason: "test" };
