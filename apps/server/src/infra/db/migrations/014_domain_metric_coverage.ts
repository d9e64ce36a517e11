import type { Kysely } from "kysely";

/**
 * Mission Control's per-source coverage (issue 11 §2): a row says the group's source, when the snapshot
 * jobs last asked, had nothing covering the domain (no connected Search Console property or Ahrefs
 * source for it), with the sentence telling what to connect. Written by the jobs, so the group page
 * reads it without asking a provider; deleted again once the domain is covered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("domain_metric_coverage")
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("campaign_domain_id", "varchar(32)", (c) =>
      c.notNull().references("campaign_domains.id").onDelete("cascade"),
    )
    .addColumn("provider", "varchar(64)", (c) => c.notNull())
    .addColumn("hint", "text", (c) => c.notNull())
    .addColumn("checked_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("domain_metric_coverage_pk", ["campaign_domain_id", "provider"])
    .execute();
  await db.schema
    .createIndex("domain_metric_coverage_company_idx")
    .on("domain_metric_coverage")
    .column("company_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("domain_metric_coverage").execute();
}
