import type { Kysely } from "kysely";

/**
 * PDF exports (docs/product.md §7): one row per distinct request (dashboard as saved, period, zone, paper),
 * so identical requests share one render and a poll from any process finds the result. The file itself
 * lives in the storage; the row says where, or why it could not be made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("pdf_exports")
    // sha256 of the request (see features/exports/service.ts).
    .addColumn("key", "varchar(64)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("dashboard_id", "varchar(32)", (c) => c.notNull().references("dashboards.id").onDelete("cascade"))
    // pending | ready | failed
    .addColumn("state", "varchar(10)", (c) => c.notNull())
    .addColumn("file", "varchar(200)")
    .addColumn("filename", "varchar(200)", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("finished_at", "varchar(40)")
    .execute();
  await db.schema.createIndex("pdf_exports_company_idx").on("pdf_exports").column("company_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pdf_exports").execute();
}
