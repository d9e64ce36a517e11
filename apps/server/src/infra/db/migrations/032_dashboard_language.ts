import type { Kysely } from "kysely";

/**
 * The language a dashboard's client-facing pages, PDF and e-mails are in (docs/decisions.md, "Report
 * languages"): a BCP 47 tag of the supported list, English for every dashboard made before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("dashboards")
    .addColumn("language", "varchar(16)", (c) => c.notNull().defaultTo("en"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("dashboards").dropColumn("language").execute();
}
