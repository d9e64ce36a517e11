import type { Kysely } from "kysely";

/**
 * Query results of provider connectors, kept so a client's numbers survive a provider that is down,
 * throttling or out of quota (docs/decisions.md, "Persistent results"). One row per source and query
 * (type, normalised inputs, range, zone: `query_key`); `range_end` decides whether the range has
 * settled; `fetched_at` is what the widget's "Data as of" shows when the row is served instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("provider_results")
    .addColumn("source_id", "varchar(32)", (c) => c.notNull().references("sources.id").onDelete("cascade"))
    .addColumn("query_key", "varchar(64)", (c) => c.notNull())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull())
    .addColumn("range_end", "varchar(10)", (c) => c.notNull())
    .addColumn("table_json", "text", (c) => c.notNull())
    .addColumn("fetched_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("provider_results_pk", ["source_id", "query_key"])
    .execute();
  await db.schema.createIndex("provider_results_company_idx").on("provider_results").column("company_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("provider_results").execute();
}
