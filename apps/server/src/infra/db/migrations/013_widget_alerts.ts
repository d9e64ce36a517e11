import type { Kysely } from "kysely";

/**
 * Alerts on any widget metric (docs/decisions.md, "Alerts on any widget metric"). One row is one rule and the state of its alert: a widget
 * alert has exactly one thing it watches, so "one open alert per rule" needs no second table, and the
 * latest opening and resolving are all the history the widget's menu shows. Company-scoped like every
 * table; deleting the dashboard deletes its rules (a widget removed from a saved dashboard leaves its
 * rules behind, and the evaluation skips and reports them as gone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("widget_alerts")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("dashboard_id", "varchar(32)", (c) => c.notNull().references("dashboards.id").onDelete("cascade"))
    .addColumn("widget_id", "varchar(100)", (c) => c.notNull())
    // The column key in the widget's table: `<instance prefix>.<metric>`.
    .addColumn("metric", "varchar(200)", (c) => c.notNull())
    .addColumn("condition", "varchar(16)", (c) => c.notNull())
    .addColumn("value", "double precision")
    .addColumn("direction", "varchar(8)", (c) => c.notNull())
    // Comma-separated addresses, as automatic reports keep them.
    .addColumn("recipients", "text", (c) => c.notNull())
    .addColumn("paused", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("snoozed_until", "varchar(40)")
    .addColumn("created_by", "varchar(32)")
    // The alert: null until the first failing evaluation, then open or resolved (core nextAlertState).
    .addColumn("state", "varchar(10)")
    .addColumn("opened_at", "varchar(40)")
    .addColumn("resolved_at", "varchar(40)")
    .addColumn("passes", "integer", (c) => c.notNull().defaultTo(0))
    // When the open alert was mailed: null while an opening still owes its one mail.
    .addColumn("notified_at", "varchar(40)")
    .addColumn("last_value", "double precision")
    .addColumn("last_message", "text")
    .addColumn("last_evaluated_at", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("widget_alerts_company_idx").on("widget_alerts").column("company_id").execute();
  await db.schema
    .createIndex("widget_alerts_widget_idx")
    .on("widget_alerts")
    .columns(["dashboard_id", "widget_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("widget_alerts").execute();
}
