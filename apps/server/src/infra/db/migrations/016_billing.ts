import type { Kysely } from "kysely";

/**
 * Billing (docs/product.md §4; docs/decisions.md, "Billing: subscription lifecycle and Stripe checkout"): the card provider's customer of each company, the
 * next charge, when the expiry job saw service end; `orders` (one per provider invoice, numbered
 * INV-<year>-<6-digit sequence> across all companies) and `payment_events` (provider event ids already
 * handled, so a replayed webhook changes nothing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("companies").addColumn("stripe_customer_id", "varchar(255)").execute();
  await db.schema.alterTable("companies").addColumn("next_charge_at", "varchar(40)").execute();
  await db.schema.alterTable("companies").addColumn("service_ended_at", "varchar(40)").execute();
  await db.schema.createIndex("companies_stripe_customer_idx").on("companies").column("stripe_customer_id").execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("sequence", "integer", (c) => c.notNull().unique())
    .addColumn("number", "varchar(32)", (c) => c.notNull().unique())
    .addColumn("provider_ref", "varchar(255)", (c) => c.notNull())
    .addColumn("period_start", "varchar(40)")
    .addColumn("period_end", "varchar(40)")
    .addColumn("dashboards", "integer", (c) => c.notNull())
    .addColumn("interval", "integer", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "varchar(3)", (c) => c.notNull())
    .addColumn("status", "varchar(16)", (c) => c.notNull())
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();
  // One order per provider invoice and company: a paid retry updates the failed order, never adds one.
  await db.schema
    .createIndex("orders_company_ref_idx")
    .unique()
    .on("orders")
    .columns(["company_id", "provider_ref"])
    .execute();

  await db.schema
    .createTable("payment_events")
    .addColumn("event_id", "varchar(255)", (c) => c.primaryKey())
    .addColumn("type", "varchar(100)", (c) => c.notNull())
    .addColumn("company_id", "varchar(32)")
    .addColumn("received_at", "varchar(40)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("payment_events").execute();
  await db.schema.dropTable("orders").execute();
  await db.schema.dropIndex("companies_stripe_customer_idx").execute();
  await db.schema.alterTable("companies").dropColumn("service_ended_at").execute();
  await db.schema.alterTable("companies").dropColumn("next_charge_at").execute();
  await db.schema.alterTable("companies").dropColumn("stripe_customer_id").execute();
}
