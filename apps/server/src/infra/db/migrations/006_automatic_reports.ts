import type { Kysely } from "kysely";

/**
 * Automatic reports (docs/product.md §3): one row per scheduled e-mail of a dashboard. They belong to the
 * dashboard (deleting it deletes them) and carry the company id, so every query is scoped without a join.
 * The schedule is stored as entered (period, detail, hour, minute, zone); when it next runs is derived.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("automatic_reports")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("dashboard_id", "varchar(32)", (c) => c.notNull().references("dashboards.id").onDelete("cascade"))
    // Comma-separated addresses, as entered and shown (at most 5).
    .addColumn("recipients", "text", (c) => c.notNull())
    .addColumn("period", "varchar(10)", (c) => c.notNull())
    // MONTH: FIRST_DAY | LAST_DAY | FIRST_WORK_DAY; WEEK: the weekday's digit 0 (Sunday) to 6.
    .addColumn("detail", "varchar(20)", (c) => c.notNull())
    .addColumn("hour", "integer", (c) => c.notNull())
    .addColumn("minute", "integer", (c) => c.notNull())
    .addColumn("timezone", "varchar(64)", (c) => c.notNull())
    .addColumn("date_range", "varchar(20)", (c) => c.notNull())
    .addColumn("with_pdf", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("with_preview", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "varchar(32)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("automatic_reports_company_idx").on("automatic_reports").column("company_id").execute();
  await db.schema
    .createIndex("automatic_reports_dashboard_idx")
    .on("automatic_reports")
    .column("dashboard_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("automatic_reports").execute();
}
