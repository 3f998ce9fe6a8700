/**
 * An OperatorDb (worker/lib/moderation-actions.ts) that runs SQL through
 * `wrangler d1 execute DB --json`: on the local database under `persistTo`
 * (what `npm start` serves) or, with `remote`, on the deployed one.
 *
 * `d1 execute` takes no bound parameters, so each `?` is replaced by a SQL
 * literal (`sqlLiteral`): text in single quotes with quotes doubled, numbers
 * as written, null as NULL. Only values the operator's commands produce pass
 * through here (ids, usernames, reasons).
 */
import { spawn } from "node:child_process";
import type { OperatorDb, SqlParam } from "../../worker/lib/moderation-actions.ts";
import { ROOT, toolEnv } from "./tools.ts";

/**
 * A value as a SQLite literal. Throws on numbers that are not finite and on
 * text with NUL characters (SQLite would cut the text there).
 */
export function sqlLiteral(value: SqlParam): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a SQL number: ${value}`);
    return String(value);
  }
  if (value.includes("\u0000")) throw new Error("text with a NUL character");
  return `'${value.replaceAll("'", "''")}'`;
}

/** `sql` with each `?` (outside quotes) replaced by the next parameter's literal; `?N` by the N-th. */
export function inlineParams(sql: string, params: SqlParam[]): string {
  let next = 0;
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote) {
      out += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
      continue;
    }
    if (ch !== "?") {
      out += ch;
      continue;
    }
    const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
    const index = digits ? Number(digits) - 1 : next++;
    if (index < 0 || index >= params.length) throw new Error(`SQL parameter ${index + 1} is missing`);
    out += sqlLiteral(params[index]!);
    if (digits) i += digits.length;
  }
  return out;
}

interface ExecuteResult {
  results: Record<string, unknown>[];
  success: boolean;
}

function execute(sql: string, target: { remote: boolean; persistTo: string }): Promise<ExecuteResult[]> {
  const args = ["d1", "execute", "DB", "--json", "--command", sql];
  args.push(...(target.remote ? ["--remote"] : ["--local", "--persist-to", target.persistTo]));
  return new Promise((resolve, reject) => {
    const child = spawn("wrangler", args, { cwd: ROOT, env: toolEnv({ CI: "true" }), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) {
        reject(new Error(`wrangler d1 execute failed (exit ${code}): ${(err || out).trim().slice(0, 2000)}`));
        return;
      }
      try {
        resolve(JSON.parse(out) as ExecuteResult[]);
      } catch {
        reject(new Error(`wrangler d1 execute did not answer JSON: ${out.slice(0, 500)}`));
      }
    });
  });
}

/** The operator's database through wrangler (local state under `persistTo`, or `remote`). */
export function wranglerOperatorDb(target: { remote: boolean; persistTo: string }): OperatorDb {
  return {
    async all<T>(sql: string, ...params: SqlParam[]) {
      const [result] = await execute(inlineParams(sql, params), target);
      return (result?.results ?? []) as T[];
    },
    async run(statements) {
      if (statements.length === 0) return;
      await execute(statements.map(({ sql, params }) => inlineParams(sql, params)).join(";\n"), target);
    },
  };
}
