import type { Kysely } from "kysely";

/**
 * Deliveries of automatic reports (docs/product.md §3): one row per (report, slot). The unique key is
 * what makes sending idempotent: a restart, a retry or a second worker finding the same due slot inserts
 * nothing new and enqueues the same job key, so a slot is sent once. Manual sends ("send now") have a
 * slot of their own (`manual:<request time>`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("report_deliveries")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("report_id", "varchar(32)", (c) => c.notNull().references("automatic_reports.id").onDelete("cascade"))
    .addColumn("slot", "varchar(60)", (c) => c.notNull())
    // The instant the report was due (or asked for, when manual).
    .addColumn("scheduled_for", "varchar(40)", (c) => c.notNull())
    .addColumn("late", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("manual", "integer", (c) => c.notNull().defaultTo(0))
    // pending | sent | failed
    .addColumn("state", "varchar(10)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("finished_at", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addUniqueConstraint("report_deliveries_slot_unique", ["report_id", "slot"])
    .execute();
  await db.schema.createIndex("report_deliveries_company_idx").on("report_deliveries").column("company_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("report_deliveries").execute();
}
