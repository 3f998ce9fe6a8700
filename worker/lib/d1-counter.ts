/**
 * Counting a request's D1 queries and round trips (reported in `Server-Timing`
 * as `d1;desc="reads=N writes=M trips=T"`, read by scripts/bench-catalog.ts).
 *
 * `countingD1` wraps whatever stands in `env.DB` — the binding, or a Sessions
 * API session (`withSession`) — and counts each statement when it runs
 * (`first`, `all`, `run`, `raw`, each statement of a `batch`, and `exec`).
 * A statement is a write unless its SQL is read-only (`isReadOnlySql`); a
 * write always goes to the primary, so `writes` is the number of primary
 * writes the request made. A round trip is one call that goes to the
 * database: `first`, `all`, `run` or `raw` of one statement, one `batch`
 * (however many statements), one `exec`.
 */

/** Queries one request ran. */
export interface D1Counts {
  reads: number;
  writes: number;
  /** Calls that went to the database (a batch is one). */
  trips: number;
}

/**
 * Whether `sql` only reads: it starts with SELECT, VALUES, EXPLAIN or a
 * WITH … SELECT, and names no INSERT / UPDATE / DELETE / REPLACE. Anything
 * else (including `UPDATE … RETURNING` and PRAGMA) counts as a write.
 */
export function isReadOnlySql(sql: string): boolean {
  const text = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ").trim().toUpperCase();
  if (!/^(SELECT|WITH|VALUES|EXPLAIN)\b/.test(text)) return false;
  return !/\b(INSERT|UPDATE|DELETE|REPLACE)\b/.test(text.replace(/'(?:[^']|'')*'/g, "''"));
}

const RUNNERS = new Set(["first", "all", "run", "raw"]);

/** The real statement and SQL behind each counted one, so `batch` hands D1 its own objects. */
const unwrapped = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();

function countSql(counts: D1Counts, sql: string): void {
  if (isReadOnlySql(sql)) counts.reads += 1;
  else counts.writes += 1;
}

function wrapStatement(statement: D1PreparedStatement, sql: string, counts: D1Counts): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === "bind") {
        return (...values: unknown[]) => wrapStatement(target.bind(...values), sql, counts);
      }
      if (typeof prop === "string" && RUNNERS.has(prop) && typeof value === "function") {
        return (...args: unknown[]) => {
          countSql(counts, sql);
          counts.trips += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  unwrapped.set(proxy, { statement, sql });
  return proxy;
}

/** What `countingD1` can wrap: the D1 binding or a Sessions API session. */
type D1Like = Pick<D1Database, "prepare" | "batch">;

/**
 * `db` with every query counted into `counts`. `prepare`, `batch`, `exec`
 * and `withSession` (whose session is counted too) are intercepted; anything
 * else (`getBookmark`, `dump`…) passes through unchanged.
 */
export function countingD1<T extends D1Like>(db: T, counts: D1Counts): T {
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      const fn = value as (...a: unknown[]) => unknown;
      switch (prop) {
        case "prepare":
          return (sql: string) => wrapStatement(fn.call(target, sql) as D1PreparedStatement, sql, counts);
        case "batch":
          return (statements: D1PreparedStatement[]) => {
            counts.trips += 1;
            return fn.call(
              target,
              statements.map((s) => {
                const real = unwrapped.get(s);
                // A statement prepared elsewhere (its SQL unknown here) counts as a write.
                if (real) countSql(counts, real.sql);
                else counts.writes += 1;
                return real?.statement ?? s;
              }),
            );
          };
        case "exec":
          return (sql: string) => {
            counts.writes += 1;
            counts.trips += 1;
            return fn.call(target, sql);
          };
        case "withSession":
          return (...args: unknown[]) => countingD1(fn.apply(target, args) as D1Like, counts);
        default:
          return fn.bind(target);
      }
    },
  });
}
