// placeholder: replaced by the seeding work
import { DatabaseSync } from "node:sqlite";
export async function seedDemoIfEmpty(dbFile: string, _persistDir: string): Promise<void> {
  const db = new DatabaseSync(dbFile);
  const row = db.prepare("SELECT count(*) AS n FROM characters").get() as { n: number };
  console.log(`characters in local database: ${row.n}`);
  db.close();
}
