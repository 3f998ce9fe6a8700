/**
 * The operator's two ways to a database (scripts/moderation.ts): straight
 * from the local file (local-operator-db.ts) and through `wrangler d1
 * execute` (wrangler-d1.ts, the only way to the deployed D1). Both run on
 * one fresh local state (wrangler makes its database file with the first
 * statement), so each must see what the other wrote.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localOperatorDb } from "./local-operator-db.ts";
import { wranglerOperatorDb } from "./wrangler-d1.ts";

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "fabled-operator-db-"));
  await wranglerOperatorDb({ remote: false, persistTo: dir }).run([
    { sql: "CREATE TABLE names (name TEXT NOT NULL, note TEXT)", params: [] },
    { sql: "CREATE UNIQUE INDEX names_name ON names (lower(name))", params: [] },
  ]);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the operator's database", () => {
  it("a write through the file is what wrangler reads, and the other way round", async () => {
    const local = localOperatorDb(dir);
    const wrangler = wranglerOperatorDb({ remote: false, persistTo: dir });
    await local.run([{ sql: "INSERT INTO names (name, note) VALUES (?, ?)", params: ["it's local", null] }]);
    expect(await wrangler.all("SELECT name, note FROM names WHERE name = ?", "it's local")).toEqual([{ name: "it's local", note: null }]);
    await wrangler.run([{ sql: "INSERT INTO names (name) VALUES (?)", params: ["through wrangler"] }]);
    expect(await local.all("SELECT count(*) AS n FROM names WHERE name IN (?, ?)", "it's local", "through wrangler")).toEqual([{ n: 2 }]);
    local.close();
  }, 120_000);

  it("runs a list of statements all or nothing", async () => {
    const local = localOperatorDb(dir);
    // The second statement breaks the unique name: the first is undone with it.
    const failing = local.run([
      { sql: "INSERT INTO names (name) VALUES (?)", params: ["kept only with the rest"] },
      { sql: "INSERT INTO names (name) VALUES (?)", params: ["IT'S LOCAL"] },
    ]);
    await expect(failing).rejects.toThrow(/UNIQUE/);
    expect(await local.all("SELECT count(*) AS n FROM names WHERE name = ?", "kept only with the rest")).toEqual([{ n: 0 }]);
    local.close();
  });

  it("says so when the folder holds no database", () => {
    const empty = mkdtempSync(join(tmpdir(), "fabled-no-db-"));
    try {
      expect(() => localOperatorDb(empty)).toThrow(`no local database under ${empty}`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
