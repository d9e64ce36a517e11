import type { Kysely } from "kysely";

/**
 * The company's own time zone (docs/product.md §3): taken from the browser at registration, as the
 * admin's, so an agency's report forms start on its own clock. Companies from before keep UTC, which is
 * what every company had until now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("companies")
    .addColumn("timezone", "varchar(64)", (column) => column.notNull().defaultTo("UTC"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("companies").dropColumn("timezone").execute();
}
