import type { Kysely } from "kysely";

/**
 * The intro questionnaire's answer (docs/product.md §3: the onboarding flow comes "from questionnaire
 * source or initial flow"): which onboarding source the user picked on the intro. Null until answered,
 * and for every user from before the questionnaire, who keep the flow they registered with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("onboarding_source", "varchar(40)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("onboarding_source").execute();
}
