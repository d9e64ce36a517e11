import type { Kysely } from "kysely";

/**
 * What an accountant needs on an invoice (docs/decisions.md "Invoices a business can book"):
 * - the company's billing name, postal code, city and country (ISO 3166-1 alpha-2) beside the street
 *   lines (`billing_address`, migration 021) and `vat_id`; all null until an admin gives them;
 * - each order's tax as the card provider computed it: a JSON list of
 *   `{name, percent, jurisdiction, amountCents, taxableCents, inclusive}`; null for orders made before
 *   (or without any tax).
 * One column per statement: SQLite adds only one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("companies").addColumn("billing_name", "varchar(200)").execute();
  await db.schema.alterTable("companies").addColumn("billing_postal_code", "varchar(16)").execute();
  await db.schema.alterTable("companies").addColumn("billing_city", "varchar(100)").execute();
  await db.schema.alterTable("companies").addColumn("billing_country", "varchar(2)").execute();
  await db.schema.alterTable("orders").addColumn("tax_lines", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("tax_lines").execute();
  await db.schema.alterTable("companies").dropColumn("billing_country").execute();
  await db.schema.alterTable("companies").dropColumn("billing_city").execute();
  await db.schema.alterTable("companies").dropColumn("billing_postal_code").execute();
  await db.schema.alterTable("companies").dropColumn("billing_name").execute();
}
