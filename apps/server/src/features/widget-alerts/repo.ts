import type { Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { WidgetAlertsTable } from "../../infra/db/schema";

/** A rule with what the mail and the evaluation need of its dashboard. */
export type WidgetAlertRow = WidgetAlertsTable & {
  dashboard_name: string;
  dashboard_permalink: string;
  dashboard_range_type: string;
  dashboard_active: number;
};

/**
 * Widget alert rules and their state: the only SQL of the feature, every query scoped to the company.
 * It reads the dashboards table (name, permalink and date range of the rule's dashboard) but never
 * writes it.
 */
export function widgetAlertsRepo(db: Db) {
  const withDashboard = () => rulesWithDashboard(db);

  return {
    /** The company's time zone (its agency's clock), UTC when it has none. */
    async companyTimezone(companyId: string): Promise<string> {
      const row = await db.selectFrom("companies").select("timezone").where("id", "=", companyId).executeTakeFirst();
      return row?.timezone || "UTC";
    },

    /** The dashboard's id when it belongs to the company. */
    async dashboardOf(companyId: string, dashboardId: string): Promise<string | null> {
      const row = await db
        .selectFrom("dashboards")
        .select("id")
        .where("company_id", "=", companyId)
        .where("id", "=", dashboardId)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    listForWidget(companyId: string, dashboardId: string, widgetId: string): Promise<WidgetAlertRow[]> {
      return withDashboard()
        .where("a.company_id", "=", companyId)
        .where("a.dashboard_id", "=", dashboardId)
        .where("a.widget_id", "=", widgetId)
        .orderBy("a.created_at")
        .orderBy("a.id")
        .execute();
    },

    /** Every rule of the company that is not paused, grouped by the caller per widget. */
    listActive(companyId: string): Promise<WidgetAlertRow[]> {
      return withDashboard()
        .where("a.company_id", "=", companyId)
        .where("a.paused", "=", 0)
        .orderBy("a.dashboard_id")
        .orderBy("a.widget_id")
        .orderBy("a.id")
        .execute();
    },

    ...openAlertQueries(db),

    find(companyId: string, id: string): Promise<WidgetAlertRow | undefined> {
      return withDashboard().where("a.company_id", "=", companyId).where("a.id", "=", id).executeTakeFirst();
    },

    async insert(row: WidgetAlertsTable): Promise<void> {
      await db.insertInto("widget_alerts").values(row).execute();
    },

    async update(companyId: string, id: string, patch: Updateable<WidgetAlertsTable>): Promise<void> {
      await db
        .updateTable("widget_alerts")
        .set(patch)
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .execute();
    },

    /**
     * Marks the current opening as mailed, once: only the evaluation that flips `notified_at` from null
     * sends, so two workers evaluating the same rule cannot both mail it.
     */
    async claimNotification(companyId: string, id: string, openedAt: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("widget_alerts")
        .set({ notified_at: at })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("state", "=", "open")
        .where("opened_at", "=", openedAt)
        .where("notified_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Gives a claimed notification back when sending failed, so the next evaluation tries again. */
    async releaseNotification(companyId: string, id: string, at: string): Promise<void> {
      await db
        .updateTable("widget_alerts")
        .set({ notified_at: null })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("notified_at", "=", at)
        .execute();
    },

    /** The off-pace rules of a dashboard's widgets on these metrics (their goals are gone). */
    offPaceOn(
      companyId: string,
      dashboardId: string,
      metrics: readonly { widgetId: string; metric: string }[],
    ): Promise<WidgetAlertsTable[]> {
      if (metrics.length === 0) return Promise.resolve([]);
      return rulesOfDashboard(db, companyId, dashboardId)
        .where("condition", "=", "offPace")
        .where((eb) =>
          eb.or(
            metrics.map(({ widgetId, metric }) => eb.and([eb("widget_id", "=", widgetId), eb("metric", "=", metric)])),
          ),
        )
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    async deleteMany(companyId: string, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .deleteFrom("widget_alerts")
        .where("company_id", "=", companyId)
        .where("id", "in", [...ids])
        .execute();
    },

    async delete(companyId: string, id: string): Promise<void> {
      await db.deleteFrom("widget_alerts").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
  };
}

export type WidgetAlertsRepo = ReturnType<typeof widgetAlertsRepo>;

/** The rules on one dashboard of the company, to narrow further. */
function rulesOfDashboard(db: Db, companyId: string, dashboardId: string) {
  return db
    .selectFrom("widget_alerts")
    .selectAll()
    .where("company_id", "=", companyId)
    .where("dashboard_id", "=", dashboardId);
}

/** Widget alert rows with the name, permalink, range and state of their dashboard. */
function rulesWithDashboard(db: Db) {
  return db
    .selectFrom("widget_alerts as a")
    .innerJoin("dashboards as d", (join) =>
      join.onRef("d.id", "=", "a.dashboard_id").onRef("d.company_id", "=", "a.company_id"),
    )
    .selectAll("a")
    .select([
      "d.name as dashboard_name",
      "d.permalink as dashboard_permalink",
      "d.range_type as dashboard_range_type",
      "d.active as dashboard_active",
    ]);
}

/** The open alerts as they are shown (a dashboard's cards, the digest) and the companies the jobs visit. */
function openAlertQueries(db: Db) {
  const withDashboard = () => rulesWithDashboard(db);
  return {
    /**
     * The alerts of one dashboard that are firing and shown: open, not paused (a paused rule is not
     * judged, so its state is stale) and not snoozed (the member said they know), oldest first.
     */
    openOfDashboard(companyId: string, dashboardId: string, now: string): Promise<WidgetAlertsTable[]> {
      return rulesOfDashboard(db, companyId, dashboardId)
        .where("state", "=", "open")
        .where("paused", "=", 0)
        .where((eb) => eb.or([eb("snoozed_until", "is", null), eb("snoozed_until", "<=", now)]))
        .orderBy("opened_at")
        .orderBy("id")
        .execute();
    },

    /** The company's shown open alerts on dashboards not in the trash, for the digest: by dashboard, oldest first. */
    openOfCompany(companyId: string, now: string): Promise<WidgetAlertRow[]> {
      return withDashboard()
        .where("a.company_id", "=", companyId)
        .where("a.state", "=", "open")
        .where("a.paused", "=", 0)
        .where("d.active", "=", 1)
        .where((eb) => eb.or([eb("a.snoozed_until", "is", null), eb("a.snoozed_until", "<=", now)]))
        .orderBy("d.name")
        .orderBy("a.dashboard_id")
        .orderBy("a.opened_at")
        .orderBy("a.id")
        .execute();
    },

    /** Companies with at least one shown open alert: their digest is due even without Mission Control domains. */
    async companiesWithOpen(now: string): Promise<string[]> {
      const rows = await db
        .selectFrom("widget_alerts")
        .select("company_id")
        .where("state", "=", "open")
        .where("paused", "=", 0)
        .where((eb) => eb.or([eb("snoozed_until", "is", null), eb("snoozed_until", "<=", now)]))
        .distinct()
        .execute();
      return rows.map((row) => row.company_id);
    },

    /** Companies with at least one rule that is not paused: each gets its evaluation job. */
    async companiesWithActive(): Promise<string[]> {
      const rows = await db
        .selectFrom("widget_alerts")
        .select("company_id")
        .where("paused", "=", 0)
        .distinct()
        .execute();
      return rows.map((row) => row.company_id);
    },
  };
}
