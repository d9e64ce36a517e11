import type { Kysely } from "kysely";

/**
 * An issued invoice never changes (docs/decisions.md "Issued invoices keep their parties"): each order
 * keeps who it was from and to when it was recorded, as JSON `{name, addressLines, vatId, country}`
 * (`seller_party`, `buyer_party`), and whether the reverse charge applied (`reverse_charge`, 0/1). All
 * null for orders recorded before: their invoices print from the current details.
 * One column per statement: SQLite adds only one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("seller_party", "text").execute();
  await db.schema.alterTable("orders").addColumn("buyer_party", "text").execute();
  await db.schema.alterTable("orders").addColumn("reverse_charge", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("reverse_charge").execute();
  await db.schema.alterTable("orders").dropColumn("buyer_party").execute();
  await db.schema.alterTable("orders").dropColumn("seller_party").execute();
}
