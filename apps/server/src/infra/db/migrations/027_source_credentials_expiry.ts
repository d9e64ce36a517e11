import type { Kysely } from "kysely";

/**
 * When a source's login ends for good (a Meta long-lived user token, about 60 days, with no refresh):
 * copied out of the sealed credentials so the expiry warning (features/sources/expiry.ts) and the
 * admins' banner can find the sources due without opening every source's credentials. Null: the login
 * does not expire, or refreshes itself. `expiry_warned_for` is the expiry the admins were last mailed
 * about, so each expiry is mailed once however many passes and processes see it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sources").addColumn("credentials_expire_at", "varchar(40)").execute();
  await db.schema.alterTable("sources").addColumn("expiry_warned_for", "varchar(40)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sources").dropColumn("expiry_warned_for").execute();
  await db.schema.alterTable("sources").dropColumn("credentials_expire_at").execute();
}
