import type { Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { AutomaticReportsTable, ReportDeliveriesTable } from "../../infra/db/schema";

/** A report row with the name and permalink of the dashboard it sends. */
export type ReportRow = AutomaticReportsTable & {
  dashboard_name: string;
  dashboard_permalink: string;
  /** The dashboard's widgets (JSON text), counted for the form's PDF rule. */
  dashboard_widgets: string;
};

/**
 * Automatic reports: the only SQL of the feature, every query scoped to the company. It reads the
 * dashboards table (names for lists, widget count for the PDF rule) and takes the dashboard's row lock,
 * but never writes a dashboard's data: that stays with the dashboards feature.
 */
export function reportsRepo(db: Db) {
  const withDashboard = () =>
    db
      .selectFrom("automatic_reports as r")
      .innerJoin("dashboards as d", (join) =>
        join.onRef("d.id", "=", "r.dashboard_id").onRef("d.company_id", "=", "r.company_id"),
      )
      .selectAll("r")
      .select(["d.name as dashboard_name", "d.permalink as dashboard_permalink", "d.widgets as dashboard_widgets"]);

  return {
    list(companyId: string): Promise<ReportRow[]> {
      return withDashboard()
        .where("r.company_id", "=", companyId)
        .orderBy("d.name")
        .orderBy("r.created_at")
        .orderBy("r.id")
        .execute();
    },
    listForDashboard(companyId: string, dashboardId: string): Promise<ReportRow[]> {
      return withDashboard()
        .where("r.company_id", "=", companyId)
        .where("r.dashboard_id", "=", dashboardId)
        .orderBy("r.created_at")
        .orderBy("r.id")
        .execute();
    },
    find(companyId: string, id: string): Promise<ReportRow | undefined> {
      return withDashboard().where("r.company_id", "=", companyId).where("r.id", "=", id).executeTakeFirst();
    },
    countForDashboard(companyId: string, dashboardId: string, exceptId: string | null = null) {
      let query = db
        .selectFrom("automatic_reports")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("company_id", "=", companyId)
        .where("dashboard_id", "=", dashboardId);
      if (exceptId) query = query.where("id", "!=", exceptId);
      return query.executeTakeFirstOrThrow().then((row) => Number(row.count));
    },
    /**
     * The company's dashboard a report is for, with its widget list (JSON text), or undefined. Inside a
     * transaction it first takes the dashboard row's write lock (a no-op update): on PostgreSQL two
     * requests adding a report to the same dashboard then count one after the other, so both cannot take
     * the last of the 5 places; on SQLite writers already take turns.
     */
    async lockDashboard(companyId: string, dashboardId: string) {
      const touched = await db
        .updateTable("dashboards")
        // Not the key column: a key update would also block inserts of rows that reference the dashboard.
        .set((eb) => ({ updated_at: eb.ref("updated_at") }))
        .where("company_id", "=", companyId)
        .where("id", "=", dashboardId)
        .executeTakeFirst();
      if (Number(touched.numUpdatedRows) === 0) return undefined;
      return db
        .selectFrom("dashboards")
        .select(["id", "name", "widgets"])
        .where("company_id", "=", companyId)
        .where("id", "=", dashboardId)
        .executeTakeFirst();
    },
    insert(row: AutomaticReportsTable) {
      return db.insertInto("automatic_reports").values(row).execute();
    },
    async update(companyId: string, id: string, patch: Updateable<AutomaticReportsTable>) {
      await db
        .updateTable("automatic_reports")
        .set(patch)
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .execute();
    },
    async delete(companyId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("automatic_reports")
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Every report of every company, for the scheduler (a system job: it only reads schedules and
     * hands each due slot to a job that works inside that report's company).
     */
    listAllForScheduling(): Promise<ReportRow[]> {
      // A dashboard's reports side by side: their sends are queued together and share one render while
      // it is being made (ordered by id, 500 reports on 100 dashboards rendered many dashboards twice).
      return withDashboard().orderBy("r.company_id").orderBy("r.dashboard_id").orderBy("r.id").execute();
    },
    ...deliveryQueries(db),
  };
}

/** The deliveries of the company's reports: one row per (report, slot) or manual send, claimed once. */
function deliveryQueries(db: Db) {
  return {
    /** The delivery of one slot of a report, or the latest one (any slot) when `slot` is left out. */
    latestDelivery(companyId: string, reportId: string): Promise<ReportDeliveriesTable | undefined> {
      return db
        .selectFrom("report_deliveries")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("report_id", "=", reportId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
    },
    /** The latest scheduled (not manual) slot a delivery exists for: where the scheduler resumes. */
    async latestScheduledSlot(companyId: string, reportId: string): Promise<string | null> {
      const row = await db
        .selectFrom("report_deliveries")
        .select("scheduled_for")
        .where("company_id", "=", companyId)
        .where("report_id", "=", reportId)
        .where("manual", "=", 0)
        .orderBy("scheduled_for", "desc")
        .executeTakeFirst();
      return row?.scheduled_for ?? null;
    },
    /** The latest finished delivery of each of these reports (the list's "last result"). */
    async lastResults(companyId: string, reportIds: string[]): Promise<Map<string, ReportDeliveriesTable>> {
      if (reportIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("report_deliveries")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("report_id", "in", reportIds)
        .where("state", "!=", "pending")
        .orderBy("finished_at", "asc")
        .execute();
      return new Map(rows.map((row) => [row.report_id, row]));
    },
    /** Inserts a delivery unless its (report, slot) exists; answers the row that holds the slot either way. */
    async claimDelivery(row: ReportDeliveriesTable): Promise<{ row: ReportDeliveriesTable; created: boolean }> {
      const result = await db
        .insertInto("report_deliveries")
        .values(row)
        .onConflict((conflict) => conflict.columns(["report_id", "slot"]).doNothing())
        .executeTakeFirst();
      const created = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      const held = await db
        .selectFrom("report_deliveries")
        .selectAll()
        .where("report_id", "=", row.report_id)
        .where("slot", "=", row.slot)
        .executeTakeFirstOrThrow();
      return { row: held, created };
    },
    /** A manual delivery that could not be queued, taken back with its audit row. */
    async deleteDelivery(companyId: string, id: string): Promise<void> {
      await db.deleteFrom("report_deliveries").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    findDelivery(companyId: string, id: string): Promise<ReportDeliveriesTable | undefined> {
      return db
        .selectFrom("report_deliveries")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    async updateDelivery(companyId: string, id: string, patch: Partial<ReportDeliveriesTable>) {
      await db
        .updateTable("report_deliveries")
        .set(patch)
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .execute();
    },
  };
}
