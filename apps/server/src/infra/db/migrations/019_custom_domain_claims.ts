import { type Kysely, sql } from "kysely";

/**
 * A custom domain is held by the company that proved it, not by the first to type it (docs/decisions.md
 * "Custom domains: a claim is not a hold"). 015 made every claim unique, so anyone could type an agency's
 * domain first and keep the agency from ever adding it. Now only verified domains are unique: any number
 * of companies may claim a host, one at a time can have it verified (a partial unique index, which SQLite
 * and PostgreSQL both have).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("companies_domain_cname_idx").execute();
  await sql`CREATE UNIQUE INDEX companies_verified_domain_idx ON companies (domain_cname) WHERE domain_verified_at IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("companies_verified_domain_idx").execute();
  await db.schema.createIndex("companies_domain_cname_idx").unique().on("companies").column("domain_cname").execute();
}
