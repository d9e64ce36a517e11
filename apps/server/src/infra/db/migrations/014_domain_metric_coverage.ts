import type { Kysely } from "kysely";

/**
 * Mission Control's per-source coverage (docs/decisions.md, "Mission Control metric sources"), written by the snapshot jobs so the group page
 * reads it without asking a provider. A row with a hint: the group's source had nothing covering the
 * domain when last asked, and the sentence says what to connect. A row with a plan: what covers it
 * (which connected source gives which metrics); when the plan changes the domain's values from that
 * provider are fetched anew, so one series never mixes two sources.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("domain_metric_coverage")
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("campaign_domain_id", "varchar(32)", (c) =>
      c.notNull().references("campaign_domains.id").onDelete("cascade"),
    )
    .addColumn("provider", "varchar(64)", (c) => c.notNull())
    .addColumn("hint", "text")
    .addColumn("plan", "text")
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
