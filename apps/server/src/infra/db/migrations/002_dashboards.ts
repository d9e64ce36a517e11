import type { Kysely } from "kysely";

/** Sources, uploaded files and dashboards (dashboards and widgets issue). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sources")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("name", "varchar(60)", (c) => c.notNull())
    .addColumn("account", "varchar(255)")
    // AES-256-GCM sealed JSON of the credentials (APP_KEY), never plain text.
    .addColumn("credentials", "text")
    .addColumn("properties", "text", (c) => c.notNull())
    .addColumn("invalid", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sources_company_idx").on("sources").column("company_id").execute();

  await db.schema
    .createTable("files")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("kind", "varchar(20)", (c) => c.notNull())
    .addColumn("path", "varchar(255)", (c) => c.notNull())
    .addColumn("original_name", "varchar(255)", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("files_company_idx").on("files").column("company_id").execute();

  await db.schema
    .createTable("dashboards")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("permalink", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("name", "varchar(200)", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("range_type", "varchar(30)", (c) => c.notNull())
    .addColumn("start_date", "varchar(10)")
    .addColumn("end_date", "varchar(10)")
    .addColumn("compare_start_date", "varchar(10)")
    .addColumn("compare_end_date", "varchar(10)")
    .addColumn("styles", "text", (c) => c.notNull())
    .addColumn("defaults", "text", (c) => c.notNull())
    // Widgets are saved whole with the dashboard (docs/product.md §7 multipart save), so they live with it.
    .addColumn("widgets", "text", (c) => c.notNull())
    .addColumn("hidden_date_selector", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("footer", "text")
    .addColumn("password_hash", "varchar(255)")
    .addColumn("locked_by", "varchar(32)")
    .addColumn("locked_at", "varchar(40)")
    .addColumn("created_by", "varchar(32)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("dashboards_company_idx").on("dashboards").columns(["company_id", "active"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["dashboards", "files", "sources"]) await db.schema.dropTable(table).execute();
}
