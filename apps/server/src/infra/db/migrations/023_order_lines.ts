import type { Kysely } from "kysely";

/**
 * The lines of each order (invoices show what was charged and why; docs/decisions.md, "Invoices"): a JSON list of
 * `{description, quantity, unitCents, amountCents}` adding up to the order's amount, written when the
 * order is recorded (the server's price at checkout, or the provider's invoice lines). Null for orders
 * made before: their invoice keeps the list price and one discount line.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("lines", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("lines").execute();
}
