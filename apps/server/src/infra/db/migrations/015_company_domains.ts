import type { Kysely } from "kysely";

/**
 * A company's own domain for its shared dashboards (white label, docs/product.md §3 domainCname): the
 * host its clients open, and when its CNAME was last found pointing at us (null: not verified, so no
 * request is routed by it). Unique: one host can only ever lead to one company's dashboards. NULLs do
 * not collide in a unique index on SQLite or PostgreSQL, so companies without a domain are fine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("companies").addColumn("domain_cname", "varchar(253)").execute();
  await db.schema.alterTable("companies").addColumn("domain_verified_at", "varchar(40)").execute();
  await db.schema.createIndex("companies_domain_cname_idx").unique().on("companies").column("domain_cname").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("companies_domain_cname_idx").execute();
  await db.schema.alterTable("companies").dropColumn("domain_verified_at").execute();
  await db.schema.alterTable("companies").dropColumn("domain_cname").execute();
}
