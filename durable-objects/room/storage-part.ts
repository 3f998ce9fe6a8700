/**
 * What every part of the room's store shares (store.ts and its parts:
 * cast.ts, people.ts, kept.ts, message-edits.ts, reply-rows.ts): the
 * object's storage and one way to run a statement on its SQLite. Throws
 * what SQLite throws.
 */
export abstract class StoragePart {
  protected readonly storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.storage = storage;
  }

  /** Runs `query` with `bindings` (positional `?`) and returns its rows. */
  protected sql<T>(query: string, ...bindings: unknown[]): T[] {
    return this.storage.sql.exec(query, ...bindings).toArray() as T[];
  }
}
