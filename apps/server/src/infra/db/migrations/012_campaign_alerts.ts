import type { Kysely } from "kysely";

/**
 * Mission Control alerts, evaluated (docs/decisions.md, "Mission Control alerts"): what an alert saw, when each domain was last judged
 * (a snooze that ended since then makes the next evaluation decide afresh), the company's alert
 * settings (its default rules and the digest frequency) and the digests sent, one per company and period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("campaign_domains").addColumn("alerts_evaluated_at", "varchar(40)").execute();

  // The catalogue metric the alert's rule watches, and the JSON of its last observation (values, as-of day).
  await db.schema.alterTable("campaign_alerts").addColumn("metric", "varchar(64)").execute();
  await db.schema.alterTable("campaign_alerts").addColumn("observed", "text").execute();
  // The as-of day of the last evaluation that counted: a pass counts once per day of data, so rules
  // judged again the same day (an edit, an un-snooze) do not resolve an alert early.
  await db.schema.alterTable("campaign_alerts").addColumn("evaluated_day", "varchar(10)").execute();

  await db.schema
    .createTable("campaign_alert_settings")
    .addColumn("company_id", "varchar(32)", (c) => c.primaryKey().references("companies.id").onDelete("cascade"))
    // JSON of the company's rules (core's TAlertRule[]); a company without a row uses DEFAULT_ALERT_RULES.
    .addColumn("rules", "text")
    // "daily" | "weekly" | "off"
    .addColumn("digest", "varchar(10)", (c) => c.notNull().defaultTo("daily"))
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();

  // One row per digest period and company, written before the mail goes out: a period is mailed once.
  await db.schema
    .createTable("campaign_alert_digests")
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    // "daily:2026-11-26" or "weekly:2026-11-23" (the Monday), in the company's time zone.
    .addColumn("period", "varchar(32)", (c) => c.notNull())
    .addColumn("alert_count", "integer", (c) => c.notNull())
    .addColumn("sent_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("campaign_alert_digests_pk", ["company_id", "period"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("campaign_alert_digests").execute();
  await db.schema.dropTable("campaign_alert_settings").execute();
  for (const column of ["evaluated_day", "observed", "metric"]) {
    await db.schema.alterTable("campaign_alerts").dropColumn(column).execute();
  }
  await db.schema.alterTable("campaign_domains").dropColumn("alerts_evaluated_at").execute();
}
