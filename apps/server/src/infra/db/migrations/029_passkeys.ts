import type { Kysely } from "kysely";

/**
 * WebAuthn passkeys (features/passkeys): each row is one credential a user registered on their profile,
 * its public key (COSE, base64url) and signature counter, the transports the browser reported, the
 * name the user gave it, and when it was made and last signed in. `credential_id` (base64url, as the
 * browser sends it back) is unique across users, since a sign-in finds the user by it alone.
 *
 * `passkey_challenges` holds the challenges handed out for a ceremony, server-side (never in a cookie or
 * the page): each is deleted by the request that uses it, so it is good once, and it expires after a few
 * minutes. `user_id` binds a challenge to the signed-in (or known) user it was made for; a
 * passwordless sign-in's challenge has none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("passkeys")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("user_id", "varchar(32)", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "varchar(1400)", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("transports", "varchar(255)", (c) => c.notNull().defaultTo("[]"))
    .addColumn("name", "varchar(60)", (c) => c.notNull())
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("last_used_at", "varchar(40)")
    .execute();
  await db.schema.createIndex("passkeys_user_idx").on("passkeys").columns(["company_id", "user_id"]).execute();
  await db.schema
    .createTable("passkey_challenges")
    .addColumn("challenge", "varchar(128)", (c) => c.primaryKey())
    .addColumn("purpose", "varchar(20)", (c) => c.notNull())
    .addColumn("user_id", "varchar(32)", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("passkey_challenges_expiry_idx").on("passkey_challenges").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("passkey_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
}
