import type { Kysely } from "kysely";

/**
 * The company audit log (docs/decisions.md, "The company audit log"): one row per recorded change,
 * append-only. The actor is kept twice, as an id (no foreign key: members get deleted) and as a copy of
 * their name and e-mail at the time, so a removed member's actions still say who it was; a null actor is
 * the system (a job). Details are small JSON of the action's allowed keys only, never a secret.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("audit_events")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("actor_id", "varchar(32)")
    .addColumn("actor_name", "varchar(255)")
    .addColumn("actor_email", "varchar(255)")
    .addColumn("action", "varchar(64)", (c) => c.notNull())
    .addColumn("target_type", "varchar(32)")
    .addColumn("target_id", "varchar(64)")
    .addColumn("target_label", "varchar(255)")
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("ip", "varchar(64)")
    .addColumn("user_agent", "varchar(512)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  // The log page reads a company's rows newest first; the retention job deletes by age across companies.
  await db.schema
    .createIndex("audit_events_company_time_idx")
    .on("audit_events")
    .columns(["company_id", "created_at"])
    .execute();
  await db.schema.createIndex("audit_events_time_idx").on("audit_events").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("audit_events").execute();
}
