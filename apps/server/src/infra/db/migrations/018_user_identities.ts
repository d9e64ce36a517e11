import type { Kysely } from "kysely";

/**
 * Social sign-in identities (docs/product.md §7 POST /register/{provider}): which provider account
 * (provider + its stable subject) signs in as which user. Unique on (provider, subject), so one Google
 * account can never belong to two users; a user may have one of each provider. The e-mail and whether
 * the provider vouched for it are kept as they were when the identity was linked (why it was linked).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_identities")
    .addColumn("provider", "varchar(20)", (c) => c.notNull())
    .addColumn("subject", "varchar(255)", (c) => c.notNull())
    .addColumn("user_id", "varchar(32)", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "varchar(255)")
    .addColumn("email_verified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_identities_pk", ["provider", "subject"])
    .execute();
  await db.schema.createIndex("user_identities_user_idx").on("user_identities").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("user_identities").execute();
}
