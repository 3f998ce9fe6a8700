/**
 * The operator tool's SQL literals (scripts/lib/wrangler-d1.ts): `wrangler d1
 * execute` takes no bound parameters, so every value an operator types
 * (reasons, usernames) goes through these and must come out as one literal.
 */
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { inlineParams, sqlLiteral } from "./wrangler-d1.ts";

describe("sqlLiteral", () => {
  it("quotes text with its quotes doubled, numbers as written, null as NULL", () => {
    expect(sqlLiteral("it's")).toBe("'it''s'");
    expect(sqlLiteral(42)).toBe("42");
    expect(sqlLiteral(null)).toBe("NULL");
    expect(() => sqlLiteral(Number.NaN)).toThrow("not a SQL number");
    expect(() => sqlLiteral("a\u0000b")).toThrow("NUL");
  });

  it("a hostile reason reads back exactly, and nothing else runs", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE TABLE t (reason TEXT); CREATE TABLE keep (x INTEGER); INSERT INTO keep VALUES (1)");
    const reason = "x'); DROP TABLE keep; -- \"?\" ?1";
    db.exec(inlineParams("INSERT INTO t (reason) VALUES (?)", [reason]));
    expect(db.prepare("SELECT reason FROM t").get()).toEqual({ reason });
    expect(db.prepare("SELECT count(*) AS n FROM keep").get()).toEqual({ n: 1 });
  });
});

describe("inlineParams", () => {
  it("fills ? in order and ?N by number, leaving ? inside quotes alone", () => {
    expect(inlineParams("SELECT ?, '?', \"?\", ?", ["a", 2])).toBe("SELECT 'a', '?', \"?\", 2");
    expect(inlineParams("WHERE a = ?2 AND b = ?1 AND c = ?2", ["x", 7])).toBe("WHERE a = 7 AND b = 'x' AND c = 7");
  });

  it("throws when a parameter is missing", () => {
    expect(() => inlineParams("SELECT ?, ?", ["only one"])).toThrow("SQL parameter 2 is missing");
  });
});
