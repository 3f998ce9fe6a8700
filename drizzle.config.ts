import { defineConfig } from "drizzle-kit";

/** drizzle-kit 0.x writes flat `migrations/NNNN_name.sql` files that wrangler and readD1Migrations read. */
export default defineConfig({
  dialect: "sqlite",
  schema: ["./schema/db.ts", "./schema/db-chat.ts", "./schema/db-moderation.ts"],
  out: "./migrations",
});
