import { type Kysely, sql } from "kysely";

/**
 * Mission Control (docs/architecture.md, "Glossary"; "groups" in the UI, campaigns in the API): a company's groups, the domains
 * each tracks, their daily metric values and their alerts. Every table carries the company id, so every
 * query is scoped without a join; deleting a group deletes its domains, and a domain its values and
 * alerts (foreign keys, on both databases).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("campaigns")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("created_by", "varchar(32)")
    // JSON of the group's overrides of the company's alert rules; null = the company's defaults.
    .addColumn("alert_settings", "text")
    // Where its domains' metrics come from (core's CAMPAIGN_METRICS_SOURCES): "demo" until a real provider exists.
    .addColumn("metrics_source", "varchar(32)", (c) => c.notNull().defaultTo("demo"))
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();
  // Exact names only: the service also refuses a name differing in case, this catches two racing creates.
  await db.schema
    .createIndex("campaigns_company_name_unique")
    .on("campaigns")
    .columns(["company_id", "name"])
    .unique()
    .execute();

  await db.schema
    .createTable("campaign_domains")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("campaign_id", "varchar(32)", (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    // The normalised host (core's normaliseDomain): lower case, punycode, no www.
    .addColumn("domain", "varchar(253)", (c) => c.notNull())
    .addColumn("label", "varchar(100)")
    .addColumn("alerts_snoozed_until", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addUniqueConstraint("campaign_domains_domain_unique", ["campaign_id", "domain"])
    .execute();
  await db.schema.createIndex("campaign_domains_company_idx").on("campaign_domains").column("company_id").execute();

  // Append-only daily values, one per (domain, metric, day, provider): what the 7/30-day changes read.
  await db.schema
    .createTable("domain_metric_days")
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("campaign_domain_id", "varchar(32)", (c) =>
      c.notNull().references("campaign_domains.id").onDelete("cascade"),
    )
    .addColumn("metric", "varchar(64)", (c) => c.notNull())
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("value", "double precision", (c) => c.notNull())
    .addColumn("provider", "varchar(64)", (c) => c.notNull())
    .addColumn("fetched_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("domain_metric_days_pk", ["campaign_domain_id", "metric", "day", "provider"])
    .execute();
  await db.schema.createIndex("domain_metric_days_company_idx").on("domain_metric_days").column("company_id").execute();

  await db.schema
    .createTable("campaign_alerts")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("campaign_domain_id", "varchar(32)", (c) =>
      c.notNull().references("campaign_domains.id").onDelete("cascade"),
    )
    .addColumn("rule", "varchar(64)", (c) => c.notNull())
    // What makes two alerts the same one (domain and rule, or a widget's metric): one open alert per key.
    .addColumn("dedupe_key", "varchar(200)", (c) => c.notNull())
    .addColumn("state", "varchar(10)", (c) => c.notNull())
    .addColumn("opened_at", "varchar(40)", (c) => c.notNull())
    .addColumn("resolved_at", "varchar(40)")
    .addColumn("reason", "text", (c) => c.notNull())
    // Passing evaluations since it opened: it resolves after two (hysteresis; docs/decisions.md, "Mission Control alerts").
    .addColumn("passing_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("campaign_alerts_company_idx").on("campaign_alerts").column("company_id").execute();
  await db.schema
    .createIndex("campaign_alerts_domain_idx")
    .on("campaign_alerts")
    .column("campaign_domain_id")
    .execute();
  // A partial unique index (both databases have them): resolved alerts stay as history, one open per key.
  await db.schema
    .createIndex("campaign_alerts_open_unique")
    .on("campaign_alerts")
    .column("dedupe_key")
    .unique()
    .where(sql.ref("state"), "=", "open")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["campaign_alerts", "domain_metric_days", "campaign_domains", "campaigns"]) {
    await db.schema.dropTable(table).execute();
  }
}
