/**
 * Character page views counted through the `fabled-views` queue
 * (worker/lib/views.ts, the Worker's queue() handler): the page read writes
 * nothing; the local queue delivers the views to the real consumer, which
 * adds exactly one per view — with 50 viewers at once, and when a batch is
 * delivered again — and never the owner's own.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character } from "../../schema/api.ts";
import worker from "../index.ts";
import { countViews, VIEW_ID_RETENTION_MS, type ViewMessage } from "../lib/views.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser, viewCountOnceCounted } from "./fixtures.ts";

beforeEach(clearCatalog);

function view(id: number, user: TestUser | null = null): Promise<Response> {
  return exports.default.fetch(`http://localhost/api/characters/${id}`, { headers: user ? { cookie: user.cookie } : {} });
}

async function stored(id: number): Promise<{ viewCount: number; countedIds: number }> {
  return (await env.DB.prepare(
    "SELECT view_count AS viewCount, (SELECT count(*) FROM counted_views WHERE character_id = ?1) AS countedIds FROM characters WHERE id = ?1",
  )
    .bind(id)
    .first<{ viewCount: number; countedIds: number }>())!;
}

/**
 * Records every row about character `characterId` inserted, updated or
 * deleted in any of our D1 tables from now on (a trigger per table and
 * operation writing to `test_d1_writes`), until `stop()`: the character's own
 * row, and rows of tables with a `character_id` column that name it. Rows
 * about other characters are left out: test files share one database
 * (docs/decisions/0023), and an earlier file's queued views may still land.
 * FTS5 tables and their shadow tables cannot carry triggers; their rows
 * change only with `characters`, which is watched.
 */
async function watchWrites(characterId: number): Promise<{ writes: () => Promise<string[]>; stop: () => Promise<void> }> {
  const { results } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'
       AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE '%fts%' AND name <> 'test_d1_writes'`,
  ).all<{ name: string }>();
  const subjects = await Promise.all(
    results.map(async ({ name }) => {
      if (name === "characters") return { name, column: "id" };
      const columns = await env.DB.prepare("SELECT name FROM pragma_table_info(?)").bind(name).all<{ name: string }>();
      return { name, column: columns.results.some((c) => c.name === "character_id") ? "character_id" : null };
    }),
  );
  const triggers = subjects.flatMap(({ name, column }) =>
    column === null ? [] : ["INSERT", "UPDATE", "DELETE"].map((op) => ({ name, op, column, trigger: `test_watch_${name}_${op}` })),
  );
  await env.DB.batch([
    env.DB.prepare("CREATE TABLE IF NOT EXISTS test_d1_writes (id INTEGER PRIMARY KEY, what TEXT NOT NULL)"),
    env.DB.prepare("DELETE FROM test_d1_writes"),
    ...triggers.map(({ name, op, column, trigger }) => {
      const row = op === "DELETE" ? "OLD" : "NEW";
      return env.DB.prepare(
        `CREATE TRIGGER ${trigger} AFTER ${op} ON "${name}" WHEN ${row}.${column} = ${Number(characterId)}
         BEGIN INSERT INTO test_d1_writes (what) VALUES ('${op} ${name}'); END`,
      );
    }),
  ]);
  return {
    writes: async () => (await env.DB.prepare("SELECT what FROM test_d1_writes ORDER BY id").all<{ what: string }>()).results.map((r) => r.what),
    stop: async () => {
      await env.DB.batch([...triggers.map(({ trigger }) => env.DB.prepare(`DROP TRIGGER ${trigger}`)), env.DB.prepare("DROP TABLE test_d1_writes")]);
    },
  };
}

/** Delivers `bodies` to the Worker's queue() handler as the queue would, attempt `attempts`. */
async function deliver(bodies: unknown[], attempts = 1) {
  const batch = createMessageBatch<unknown>(
    "fabled-views",
    bodies.map((body, i) => ({ id: `message-${crypto.randomUUID()}-${i}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch<unknown>, env);
  return getQueueResult(batch, ctx);
}

const views = (characterId: number, n: number): ViewMessage[] =>
  Array.from({ length: n }, () => ({ characterId, viewId: crypto.randomUUID() }));

describe("a character page view", () => {
  it("writes nothing to D1 in the request; the queue's consumer adds it", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Quiet" });
    const watch = await watchWrites(id);
    try {
      for (const [i, user] of [null, mira].entries()) {
        const res = await view(id, user);
        expect(res.status).toBe(200);
        expect(((await res.json()) as Character).viewCount).toBe(i);
        expect(await watch.writes(), "rows written by the page read").toEqual([]);
        expect(await viewCountOnceCounted(id, i + 1)).toBe(i + 1);
        // The watch sees writes: the consumer's.
        expect(await watch.writes()).toEqual(["INSERT counted_views", "UPDATE characters"]);
        await env.DB.prepare("DELETE FROM test_d1_writes").run();
      }
    } finally {
      await watch.stop();
    }
    expect(await stored(id)).toEqual({ viewCount: 2, countedIds: 2 });
  });

  it("50 viewers at once add exactly 50 views", async () => {
    const id = await insertCharacter();
    const answers = await Promise.all(Array.from({ length: 50 }, () => view(id)));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    expect(await viewCountOnceCounted(id, 50)).toBe(50);
    expect(await stored(id)).toEqual({ viewCount: 50, countedIds: 50 });
    expect(((await (await view(id)).json()) as Character).viewCount).toBe(50);
  });

  it("the owner's own views are not counted; everyone else's are", async () => {
    const owner = await signIn();
    const other = await signIn();
    const id = await insertCharacter({ creatorId: owner.id });
    for (let i = 0; i < 3; i++) expect((await view(id, owner)).status).toBe(200);
    expect((await view(id, other)).status).toBe(200);
    expect((await view(id)).status).toBe(200);
    expect(await viewCountOnceCounted(id, 2)).toBe(2);
    expect((await stored(id)).countedIds).toBe(2);
  });

  it("views of unknown and hidden characters are not counted", async () => {
    const hidden = await insertCharacter({ isActive: false });
    const shown = await insertCharacter();
    expect((await view(hidden)).status).toBe(404);
    expect((await view(999_999)).status).toBe(404);
    expect((await view(shown)).status).toBe(200);
    expect(await viewCountOnceCounted(shown, 1)).toBe(1);
    expect(await stored(hidden)).toEqual({ viewCount: 0, countedIds: 0 });
  });
});

describe("the queue consumer", () => {
  it("counts a batch in one go, per character", async () => {
    const a = await insertCharacter();
    const b = await insertCharacter();
    const result = await deliver([...views(a, 3), ...views(b, 2), ...views(a, 1)]);
    expect(result).toMatchObject({ outcome: "ok", retryBatch: { retry: false }, retryMessages: [] });
    expect(await stored(a)).toEqual({ viewCount: 4, countedIds: 4 });
    expect(await stored(b)).toEqual({ viewCount: 2, countedIds: 2 });
  });

  it("a batch delivered again after it was counted counts once, also regrouped with new views", async () => {
    const id = await insertCharacter();
    const first = views(id, 5);
    await deliver(first);
    expect(await stored(id)).toEqual({ viewCount: 5, countedIds: 5 });

    // The acknowledgement was lost: the same batch comes back.
    expect((await deliver(first, 2)).outcome).toBe("ok");
    expect(await stored(id)).toEqual({ viewCount: 5, countedIds: 5 });

    // Part of it again, in a batch with two new views and a view repeated inside the batch.
    const fresh = views(id, 2);
    await deliver([first[1], fresh[0], first[3], fresh[1], fresh[1]], 3);
    expect(await stored(id)).toEqual({ viewCount: 7, countedIds: 7 });
  });

  it("a retried batch counts once when it comes through the real queue as well", async () => {
    const id = await insertCharacter();
    const first = views(id, 4);
    await deliver(first);
    await env.VIEWS.sendBatch([...first, ...views(id, 1)].map((body) => ({ body, contentType: "json" as const })));
    expect(await viewCountOnceCounted(id, 5)).toBe(5);
    expect(await stored(id)).toEqual({ viewCount: 5, countedIds: 5 });
  });

  it("drops malformed messages without failing the batch", async () => {
    const id = await insertCharacter();
    const good = views(id, 1);
    const result = await deliver([
      null,
      "view",
      { characterId: id },
      { characterId: "1", viewId: crypto.randomUUID() },
      { characterId: id, viewId: "not-a-uuid" },
      { characterId: -1, viewId: crypto.randomUUID() },
      ...good,
    ]);
    expect(result).toMatchObject({ outcome: "ok", retryBatch: { retry: false } });
    expect(await stored(id)).toEqual({ viewCount: 1, countedIds: 1 });
  });

  it("a view of a since-deleted character changes nothing and does not fail", async () => {
    const id = await insertCharacter();
    await env.DB.prepare("DELETE FROM characters WHERE id = ?").bind(id).run();
    expect((await deliver(views(id, 2))).outcome).toBe("ok");
  });

  it("keeps counted ids for the queue's retention, then removes them", async () => {
    const id = await insertCharacter();
    const now = Date.now();
    expect(await countViews(env.DB, views(id, 2), now - VIEW_ID_RETENTION_MS - 1)).toEqual({ counted: 2, duplicates: 0, malformed: 0 });
    const recent = views(id, 1);
    expect(await countViews(env.DB, recent, now - 1000)).toEqual({ counted: 1, duplicates: 0, malformed: 0 });
    expect(await countViews(env.DB, [...recent, ...views(id, 1)], now)).toEqual({ counted: 1, duplicates: 1, malformed: 0 });
    expect(await stored(id)).toEqual({ viewCount: 4, countedIds: 2 });
  });
});
