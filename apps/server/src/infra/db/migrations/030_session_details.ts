import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";

/**
 * What the profile's list of signed-in sessions shows (features/sessions): a public id to name a session
 * by (the row's `id` is the hash of the cookie token, its lookup key, and never leaves the server), the
 * browser's user agent and its address (both from the session's own requests, refreshed with
 * `last_seen_at`). Sessions older than this migration get a public id now and no browser or address:
 * they show as "Unknown browser" until their next request records them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("public_id", "varchar(40)").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "varchar(512)").execute();
  await db.schema.alterTable("sessions").addColumn("ip_address", "varchar(64)").execute();
  const { rows } = await sql<{ id: string }>`SELECT id FROM sessions`.execute(db);
  for (const row of rows) {
    const publicId = randomBytes(12).toString("base64url");
    await sql`UPDATE sessions SET public_id = ${publicId} WHERE id = ${row.id}`.execute(db);
  }
  await db.schema.createIndex("sessions_public_id_unique").on("sessions").column("public_id").unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sessions_public_id_unique").execute();
  await db.schema.alterTable("sessions").dropColumn("ip_address").execute();
  await db.schema.alterTable("sessions").dropColumn("user_agent").execute();
  await db.schema.alterTable("sessions").dropColumn("public_id").execute();
}
