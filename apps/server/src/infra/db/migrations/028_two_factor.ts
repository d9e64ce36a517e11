import type { Kysely } from "kysely";

/**
 * Two-factor sign-in (features/two-factor, docs/decisions.md "Two-factor sign-in with TOTP"):
 * - `user_two_factor`: a user's TOTP secret, sealed with APP_KEY as source credentials are; on once
 *   `enabled_at` is set (a secret without it is a set-up not confirmed yet). `last_used_step` is the
 *   last time step a code was accepted for, raised with one conditional UPDATE so a code is used once.
 * - `user_recovery_codes`: keyed hashes of the ten recovery codes, never the codes.
 * - `pending_sign_ins`: a password (or social sign-in) accepted, the second step still to come; the
 *   row's id is the hash of the browser's cookie token.
 * - `companies.require_two_factor`: 1 when an admin requires two-factor of every member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("companies")
    .addColumn("require_two_factor", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("user_two_factor")
    .addColumn("user_id", "varchar(32)", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("company_id", "varchar(32)", (c) => c.notNull())
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("enabled_at", "varchar(40)")
    .addColumn("last_used_step", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("user_recovery_codes")
    .addColumn("user_id", "varchar(32)", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "varchar(64)", (c) => c.notNull())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull())
    .addColumn("used_at", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_recovery_codes_pk", ["user_id", "code_hash"])
    .execute();
  await db.schema
    .createTable("pending_sign_ins")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "varchar(32)", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("company_id", "varchar(32)", (c) => c.notNull())
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "varchar(40)", (c) => c.notNull())
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pending_sign_ins_user_idx").on("pending_sign_ins").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pending_sign_ins").execute();
  await db.schema.dropTable("user_recovery_codes").execute();
  await db.schema.dropTable("user_two_factor").execute();
  await db.schema.alterTable("companies").dropColumn("require_two_factor").execute();
}
