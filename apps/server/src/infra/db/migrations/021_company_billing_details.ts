import type { Kysely } from "kysely";

/**
 * The company's billing details (docs/decisions.md, "Invoices"): the address and VAT id its invoices are made
 * out to, set by an admin in the company settings. Both optional: an invoice without them names only
 * the company.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("companies").addColumn("billing_address", "varchar(500)").execute();
  await db.schema.alterTable("companies").addColumn("vat_id", "varchar(32)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("companies").dropColumn("vat_id").execute();
  await db.schema.alterTable("companies").dropColumn("billing_address").execute();
}
