import type { Kysely } from "kysely";

/**
 * Each dashboard's embed secret: the second half of the key its signed embed links are checked with
 * (the first is APP_KEY). Replacing it revokes every embed link of that dashboard at once, without
 * touching the others or keeping a list of issued links. Null until the first link is made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("dashboards").addColumn("embed_secret", "varchar(64)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("dashboards").dropColumn("embed_secret").execute();
}
