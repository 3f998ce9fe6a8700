/**
 * `npm run bench:memory`: the room's memory (durable-objects/room/memory.ts)
 * with the offline embedder (ai/embeddings/offline.ts), on the room's own
 * SQL run by node:sqlite (the same statements the Durable Object runs on
 * its SQLite):
 *
 * - recall@4 on a generated 5,000-message roleplay with 100 planted facts
 *   asked about at its end (the tuned set: facts and questions from
 *   templates below), and on the blind set (scripts/data/memory-blind-set.ts,
 *   30 facts written before the embedder existed) planted in the same chat.
 *   A question's window is its last WINDOW messages (they are in the
 *   prompt); candidates are everything before. Hit: the fact's message is
 *   among the 4 recalled. Targets: ≥ 90 % each.
 * - retrieval p95 at 10,000 messages (RoomMemory.recall, ms; target ≤ 5);
 * - the time a reply waits for memory before its first delta: the query
 *   embedded, then recall, at 5,000 messages (ms, p95; target ≤ 2);
 * - bytes added per message (the database file with and without vectors).
 *
 * Exits 1 when a target is missed. `--seed N` changes the generated chat.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { OfflineEmbedder } from "../ai/embeddings/offline.ts";
import { RoomMemory } from "../durable-objects/room/memory.ts";
import { BLIND_FACTS, type PlantedFact } from "./data/memory-blind-set.ts";
import { mulberry32 } from "../schema/seeded-random.ts";
import { percentile } from "./lib/bench-tools.ts";

const { values } = parseArgs({ options: { seed: { type: "string", default: "7" } } });
const WINDOW = 40;
const RECALL_AT = 4;

/** Every run with the same --seed builds the same chat. */
const random = mulberry32(Number(values.seed));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

// --- the generated chat ---------------------------------------------------

const NAMES = ["Mira", "Tomas", "Selene", "Aldric", "Nell", "Ravel", "Ilse", "Barnaby", "Kestrel", "Varro", "Ash", "Wren"];
const PLACES = ["the harbour", "the old mill", "the chapel", "the market", "the north road", "the inn", "the forest", "the tower", "the docks", "the bridge"];
const THINGS = ["lantern", "map", "sword", "letter", "ring", "cloak", "satchel", "coin purse", "dagger", "book"];
const ACTIONS = ["glances at", "walks toward", "points at", "laughs about", "frowns at", "picks up", "puts down", "talks about", "looks for", "waves at"];
const MOODS = ["quietly", "with a grin", "nervously", "slowly", "without a word", "after a pause", "half asleep", "in a hurry"];

/** A line of ordinary roleplay: the names, places and things of the story, no fact. */
function fillerLine(): string {
  switch (Math.floor(random() * 4)) {
    case 0:
      return `*${pick(NAMES)} ${pick(ACTIONS)} the ${pick(THINGS)} ${pick(MOODS)}.*`;
    case 1:
      return `"We should head to ${pick(PLACES)} before dark," ${pick(NAMES)} says ${pick(MOODS)}.`;
    case 2:
      return `The ${pick(THINGS)} is still at ${pick(PLACES)}, I think. ${pick(NAMES)} ${pick(ACTIONS)} me.`;
    default:
      return `*Rain falls over ${pick(PLACES)} as ${pick(NAMES)} ${pick(ACTIONS)} ${pick(NAMES)}.*`;
  }
}

const COLOURS = ["crimson", "silver", "green", "amber", "black", "white", "blue", "golden", "violet", "copper"];
const ANIMALS = ["owl", "fox", "stag", "raven", "wolf", "hare", "boar", "heron", "lynx", "badger"];
const OBJECTS = ["key", "seal", "amulet", "chest", "scroll", "compass", "helm", "flute", "mirror", "goblet"];

/** The tuned set: 100 facts from templates and a question each that paraphrases it. */
function tunedFacts(): PlantedFact[] {
  const facts: PlantedFact[] = [];
  for (let i = 0; i < 100; i++) {
    // Every (colour, object) and (name, animal) pair once: no two facts answer one question.
    const name = NAMES[i % NAMES.length]!;
    const colour = COLOURS[i % COLOURS.length]!;
    const animal = ANIMALS[Math.floor(i / 10) % ANIMALS.length]!;
    const object = OBJECTS[Math.floor(i / 10) % OBJECTS.length]!;
    const number = 100 + ((i * 37) % 900);
    switch (i % 5) {
      case 0:
        facts.push({ fact: `${name}'s ${object} has a ${colour} ${animal} carved on it.`, question: `What is carved on ${name}'s ${object}?` });
        break;
      case 1:
        facts.push({ fact: `The ${colour} ${object} is hidden under the ${animal} statue, ${number} steps from the gate.`, question: `Where did we hide the ${colour} ${object}?` });
        break;
      case 2:
        facts.push({ fact: `${name} owes the ${animal} guild ${number} crowns for the ${object}.`, question: `How much does ${name} owe the ${animal} guild?` });
        break;
      case 3:
        facts.push({ fact: `My ${animal} is called ${colour[0]!.toUpperCase()}${colour.slice(1)}${number} and it bites strangers.`, question: `What's my ${animal} called again?` });
        break;
      default:
        facts.push({ fact: `${name} swore an oath on the ${colour} ${object} never to return to the ${animal} valley.`, question: `What oath did ${name} swear on the ${colour} ${object}?` });
    }
  }
  return facts;
}

// --- the room's storage on node:sqlite --------------------------------------

/** The part of DurableObjectStorage RoomMemory uses, over node:sqlite. */
function storageOf(db: DatabaseSync): DurableObjectStorage {
  return {
    sql: {
      exec: (query: string, ...bindings: unknown[]) => {
        const statement = db.prepare(query);
        const params = bindings.map((b) => (b instanceof Int8Array ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : b)) as never[];
        const rows = statement.all(...params);
        return { toArray: () => rows, one: () => rows[0] };
      },
    },
    transactionSync: <T>(fn: () => T): T => {
      db.exec("BEGIN");
      try {
        const result = fn();
        db.exec("COMMIT");
        return result;
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
    },
  } as unknown as DurableObjectStorage;
}

/** The tables memory reads (migrations.ts versions 1–8, the columns it uses). */
function createRoom(path: string, withVectors: boolean): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, role TEXT NOT NULL, content TEXT NOT NULL,
    created_at INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'complete', hidden INTEGER NOT NULL DEFAULT 0, author_name TEXT, character_id INTEGER,
    alternatives TEXT NOT NULL DEFAULT '[]', swipe_index INTEGER, recalled TEXT)`);
  db.exec("CREATE INDEX messages_status_idx ON messages (status, seq)");
  if (withVectors) {
    db.exec("CREATE TABLE message_vectors (message_id TEXT PRIMARY KEY, embedder TEXT NOT NULL, vector BLOB NOT NULL, norm REAL NOT NULL)");
    db.exec("CREATE TABLE memory_changes (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT NOT NULL)");
  }
  return db;
}

function insertMessages(db: DatabaseSync, lines: string[]): string[] {
  const insert = db.prepare("INSERT INTO messages (id, role, content, created_at, author_name, character_id) VALUES (?, ?, ?, ?, ?, ?)");
  const ids: string[] = [];
  db.exec("BEGIN");
  lines.forEach((line, i) => {
    const id = crypto.randomUUID();
    ids.push(id);
    const user = i % 2 === 0;
    insert.run(id, user ? "user" : "character", line, i, user ? "Mira" : null, user ? null : 1);
  });
  db.exec("COMMIT");
  return ids;
}

/** The `p`th percentile of `values` (any order; bench-tools.ts `percentile`). */
const percentileOf = (values: number[], p: number) => percentile([...values].sort((a, b) => a - b), p);

async function embedAll(memory: RoomMemory): Promise<void> {
  while ((await memory.embedPending(100_000)) > 0);
}

// --- recall@4 ---------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), "bench-memory-"));
const embedder = new OfflineEmbedder();
const nameOf = (row: { role: string }) => (row.role === "user" ? "Mira" : "Wren");

/** Plants `facts` in a `size`-message chat (first 80 %), asks each at the end; the share whose fact is among the 4 recalled. */
async function recallAt4(facts: readonly PlantedFact[], size: number, label: string) {
  const lines = Array.from({ length: size }, fillerLine);
  const slots = new Set<number>();
  while (slots.size < facts.length) slots.add(2 * Math.floor((random() * size * 0.8) / 2));
  const at = [...slots];
  facts.forEach((fact, i) => (lines[at[i]!] = fact.fact));
  const db = createRoom(join(dir, `${label}.sqlite`), true);
  const ids = insertMessages(db, lines);
  const memory = new RoomMemory(storageOf(db), () => embedder);
  await embedAll(memory);
  const beforeSeq = size - WINDOW + 1;
  const misses: string[] = [];
  for (const [i, fact] of facts.entries()) {
    const query = (await memory.queryVector(fact.question, "Wren"))!;
    const hits = memory.recall(query, { beforeSeq, afterSeq: 0 }, 10_000, nameOf);
    if (!hits.slice(0, RECALL_AT).some((hit) => hit.id === ids[at[i]!])) misses.push(`  missed: ${fact.question}  →  ${hits[0]?.content ?? "(nothing)"}`);
  }
  db.close();
  return { rate: (facts.length - misses.length) / facts.length, misses };
}

const tuned = await recallAt4(tunedFacts(), 5000, "tuned");
const blind = await recallAt4(BLIND_FACTS, 5000, "blind");

// --- retrieval time at 10,000 messages; time before the first delta at 5,000 ---

async function timings(size: number, rounds: number) {
  const db = createRoom(join(dir, `time-${size}.sqlite`), true);
  insertMessages(db, Array.from({ length: size }, fillerLine));
  const memory = new RoomMemory(storageOf(db), () => embedder);
  await embedAll(memory);
  const recallMs: number[] = [];
  const beforeDeltaMs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const question = `${fillerLine()} Where is the ${pick(THINGS)}?`;
    const started = performance.now();
    await memory.settled();
    const query = (await memory.queryVector(question, "Wren"))!;
    const embedded = performance.now();
    memory.recall(query, { beforeSeq: size - WINDOW, afterSeq: 0 }, 600, nameOf);
    const done = performance.now();
    recallMs.push(done - embedded);
    beforeDeltaMs.push(done - started);
  }
  db.close();
  return { recallMs, beforeDeltaMs };
}

// Warm-up (JIT), then the measured rounds.
await timings(2000, 20);
const at10k = await timings(10_000, 200);
const at5k = await timings(5000, 200);

// --- bytes per message --------------------------------------------------------

function fileBytes(withVectors: boolean, lines: string[]): number {
  const path = join(dir, `size-${withVectors}.sqlite`);
  const db = createRoom(path, withVectors);
  insertMessages(db, lines);
  if (withVectors) {
    const memory = new RoomMemory(storageOf(db), () => embedder);
    const rows = db.prepare("SELECT id, content FROM messages").all() as { id: string; content: string }[];
    const insert = db.prepare("INSERT INTO message_vectors (message_id, embedder, vector, norm) VALUES (?, ?, ?, 1)");
    db.exec("BEGIN");
    for (const row of rows) {
      const vector = new Int8Array(512);
      // Same shape as the offline embedder writes: 512 bytes.
      void memory;
      insert.run(row.id, embedder.id, new Uint8Array(vector.buffer));
    }
    db.exec("COMMIT");
  }
  db.exec("VACUUM");
  db.close();
  return statSync(path).size;
}
const sizeLines = Array.from({ length: 5000 }, fillerLine);
const bytesPerMessage = (fileBytes(true, sizeLines) - fileBytes(false, sizeLines)) / sizeLines.length;
rmSync(dir, { recursive: true, force: true });

// --- report -------------------------------------------------------------------

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(`bench:memory (offline embedder ${embedder.id}, window ${WINDOW} messages, seed ${values.seed})`);
console.log(`recall@${RECALL_AT}, tuned set (100 facts in 5,000 messages): ${pct(tuned.rate)}`);
for (const miss of tuned.misses) console.log(miss);
console.log(`recall@${RECALL_AT}, blind set (${BLIND_FACTS.length} facts in 5,000 messages): ${pct(blind.rate)}`);
for (const miss of blind.misses) console.log(miss);
console.log(`retrieval at 10,000 messages: p50 ${ms(percentileOf(at10k.recallMs, 50))}, p95 ${ms(percentileOf(at10k.recallMs, 95))}`);
console.log(`before the first delta at 5,000 messages (query embedded + recall): p50 ${ms(percentileOf(at5k.beforeDeltaMs, 50))}, p95 ${ms(percentileOf(at5k.beforeDeltaMs, 95))}`);
console.log(`bytes added per message: ${bytesPerMessage.toFixed(0)}`);

const failed = [
  tuned.rate < 0.9 && "tuned recall@4 under 90 %",
  blind.rate < 0.9 && "blind recall@4 under 90 %",
  percentileOf(at10k.recallMs, 95) > 5 && "retrieval p95 over 5 ms",
  percentileOf(at5k.beforeDeltaMs, 95) > 2 && "time before the first delta p95 over 2 ms",
].filter(Boolean);
if (failed.length > 0) {
  console.log(`missed: ${failed.join("; ")}`);
  process.exitCode = 1;
}
