/**
 * The part of the Workers runtime's `DurableObjectStorage` the room's
 * memory (durable-objects/room/memory.ts, storage-part.ts, migrations.ts)
 * uses, for scripts that run it on node:sqlite (scripts/bench-memory.ts).
 * The worker project reads the real type from worker/worker-configuration.d.ts.
 */
interface DurableObjectStorage {
  sql: {
    exec<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): { toArray(): T[]; one(): T };
  };
  transactionSync<T>(closure: () => T): T;
}
