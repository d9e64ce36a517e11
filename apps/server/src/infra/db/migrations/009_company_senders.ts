import type { Kysely } from "kysely";

/**
 * A company's own sender address (white label, docs/product.md §3): the address, its DKIM key pair
 * (private key sealed with APP_KEY) and selector, and the outcome of the last DNS check per record.
 * One row per company; removing the address removes the row (a new address gets a new key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("company_senders")
    .addColumn("company_id", "varchar(32)", (c) => c.primaryKey().references("companies.id").onDelete("cascade"))
    .addColumn("address", "varchar(200)", (c) => c.notNull())
    .addColumn("domain", "varchar(253)", (c) => c.notNull())
    .addColumn("selector", "varchar(63)", (c) => c.notNull())
    .addColumn("dkim_private", "text", (c) => c.notNull())
    // base64 of the public key's DER (SubjectPublicKeyInfo), as the DKIM record's p= carries it.
    .addColumn("dkim_public", "text", (c) => c.notNull())
    // JSON: [{ type, host, verified, problem }] of the last check.
    .addColumn("checks", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("verified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("checked_at", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("company_senders").execute();
}
