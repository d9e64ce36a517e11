import {
  AUTOMATIC_REPORT_REFUSALS,
  joinRecipients,
  MAX_REPORTS_PER_DASHBOARD,
  type MonthDetail,
  nextRunAfter,
  normaliseTimeZone,
  type ReportDateRange,
  type TAutomaticReport,
  type TAutomaticReportInput,
  type Weekday,
} from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { ReportDeliveriesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { newId, nowIso } from "../../infra/security";
import { reportChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import type { DeliveryService } from "./delivery";
import { type ReportRow, reportsRepo } from "./repo";

/** The zone a report takes when the request names none: the user's own, or UTC if theirs is not a zone. */
/** How many widgets a dashboard's stored widget list holds (the PDF rule counts them all, as the export does). */
function widgetCount(widgets: string): number {
  const list: unknown = JSON.parse(widgets);
  return Array.isArray(list) ? list.length : 0;
}

function zoneOrDefault(requested: string | undefined, fallback: string): string {
  return requested ?? normaliseTimeZone(fallback) ?? "UTC";
}

/** A report as its audit events name it. */
const report = (id: string, actor: Actor, dashboardName: string) => ({ id, companyId: actor.companyId, dashboardName });

/** A report's latest finished delivery as the API tells it (a pending one is not a result yet). */
function lastResult(last: ReportDeliveriesTable | undefined): TAutomaticReport["last_result"] {
  if (!last || last.state === "pending") return null;
  return {
    status: last.state,
    at: last.finished_at ?? last.created_at,
    scheduled_for: last.scheduled_for,
    late: last.late === 1,
    manual: last.manual === 1,
    error: last.error,
  };
}

/**
 * Automatic reports of docs/product.md §3 with the rules of §5 and §9: at most 5 per dashboard, the
 * company must be allowed to create them, and the PDF option only for dashboards within the PDF
 * widget limit. Sending them is another feature's work; this one keeps what to send and when.
 */
export function reportsService(ctx: AppContext, companies: CompaniesService, delivery: () => DeliveryService) {
  const repo = reportsRepo(ctx.db);
  const audit = auditLog(ctx);

  function present(row: ReportRow, last?: ReportDeliveriesTable): TAutomaticReport {
    const common = {
      id: row.id,
      dashboard_id: row.dashboard_id,
      dashboard: {
        id: row.dashboard_id,
        name: row.dashboard_name,
        permalink: row.dashboard_permalink,
        widget_count: widgetCount(row.dashboard_widgets),
      },
      recipients: row.recipients,
      hour: row.hour,
      minute: row.minute,
      timezone: row.timezone,
      date_range: row.date_range as ReportDateRange,
      with_pdf: row.with_pdf === 1,
      with_preview: row.with_preview === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    const schedule =
      row.period === "WEEK"
        ? { ...common, period: "WEEK" as const, detail: Number(row.detail) as Weekday }
        : { ...common, period: "MONTH" as const, detail: row.detail as MonthDetail };
    return {
      ...schedule,
      next_run_at: nextRunAfter(schedule, ctx.clock.now()).toISOString(),
      last_result: lastResult(last),
    };
  }

  /** Rows with the latest finished delivery of each (one query for the list). */
  async function presentAll(companyId: string, rows: ReportRow[]): Promise<TAutomaticReport[]> {
    const last = await repo.lastResults(
      companyId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => present(row, last.get(row.id)));
  }

  async function presentOne(companyId: string, row: ReportRow): Promise<TAutomaticReport> {
    return (await presentAll(companyId, [row]))[0];
  }

  async function load(actor: Actor, id: string): Promise<ReportRow> {
    const row = await repo.find(actor.companyId, id);
    if (!row) throw AppError.notFound("Automatic report not found.");
    return row;
  }

  /**
   * The rules that need the database, checked inside the write's transaction (`db`) after taking the
   * dashboard's lock, so the count cannot change before the insert. `exceptId` is the report being
   * edited: it does not count against its own dashboard's limit.
   */
  async function assertAllowed(db: Db, actor: Actor, input: TAutomaticReportInput, exceptId: string | null) {
    const reports = reportsRepo(db);
    const dashboard = await reports.lockDashboard(actor.companyId, input.dashboard_id);
    if (!dashboard) throw AppError.validation({ dashboard_id: [AUTOMATIC_REPORT_REFUSALS.dashboardMissing] });
    const errors: Record<string, string[]> = {};
    const widgets = widgetCount(dashboard.widgets);
    if (input.with_pdf && widgets > ctx.config.maxPdfWidgets) {
      errors.with_pdf = [AUTOMATIC_REPORT_REFUSALS.pdfAboveWidgetLimit(ctx.config.maxPdfWidgets)];
    }
    if ((await reports.countForDashboard(actor.companyId, dashboard.id, exceptId)) >= MAX_REPORTS_PER_DASHBOARD) {
      errors.general = [AUTOMATIC_REPORT_REFUSALS.perDashboardLimit];
    }
    if (errors.general) throw AppError.validation(errors, AUTOMATIC_REPORT_REFUSALS.perDashboardLimit);
    if (errors.with_pdf) throw AppError.validation(errors);
    return dashboard;
  }

  function columns(input: TAutomaticReportInput, timezone: string) {
    return {
      dashboard_id: input.dashboard_id,
      recipients: joinRecipients(input.recipients),
      period: input.period,
      detail: String(input.detail),
      hour: input.hour,
      minute: input.minute,
      timezone,
      date_range: input.date_range,
      with_pdf: input.with_pdf ? 1 : 0,
      with_preview: input.with_preview ? 1 : 0,
    };
  }

  return {
    /** GET /api/automatic-reports: every report of the company (docs/product.md §6: open to all its users). */
    async list(actor: Actor): Promise<TAutomaticReport[]> {
      return presentAll(actor.companyId, await repo.list(actor.companyId));
    },

    /** The reports of one of the company's dashboards (its `automaticReports`). */
    async forDashboard(companyId: string, dashboardId: string): Promise<TAutomaticReport[]> {
      return presentAll(companyId, await repo.listForDashboard(companyId, dashboardId));
    },

    /**
     * POST /api/automatic-reports. Without a timezone the report takes `userTimezone` (docs/product.md §3:
     * the user's zone); the payload's defaults (§9) were filled in by the contract.
     */
    async create(actor: Actor, input: TAutomaticReportInput, userTimezone: string): Promise<TAutomaticReport> {
      const company = await companies.get(actor.companyId);
      if (!company.canCreateAutomaticReport) {
        throw AppError.validation(
          { general: [AUTOMATIC_REPORT_REFUSALS.notAllowed] },
          AUTOMATIC_REPORT_REFUSALS.notAllowed,
        );
      }
      const now = nowIso();
      const id = newId();
      await ctx.db.transaction().execute(async (trx) => {
        const dashboard = await assertAllowed(trx, actor, input, null);
        await audit.record(trx, reportChanged("report.created", report(id, actor, dashboard.name)));
        await reportsRepo(trx).insert({
          id,
          company_id: actor.companyId,
          ...columns(input, zoneOrDefault(input.timezone, userTimezone)),
          created_by: actor.id,
          created_at: now,
          updated_at: now,
        });
      });
      return presentOne(actor.companyId, await load(actor, id));
    },

    /**
     * PUT /api/automatic-reports/{id}: the whole payload again (the form sends every field). A report
     * moved to another dashboard counts against that one's limit; without a timezone it keeps its own.
     */
    async update(actor: Actor, id: string, input: TAutomaticReportInput): Promise<TAutomaticReport> {
      const current = await load(actor, id);
      await ctx.db.transaction().execute(async (trx) => {
        const dashboard = await assertAllowed(trx, actor, input, id);
        await audit.record(trx, reportChanged("report.changed", report(id, actor, dashboard.name)));
        await reportsRepo(trx).update(actor.companyId, id, {
          ...columns(input, input.timezone ?? current.timezone),
          updated_at: nowIso(),
        });
      });
      return presentOne(actor.companyId, await load(actor, id));
    },

    /** POST /api/automatic-reports/{id}/send ("send now"): delivered by a job; answers the report as it is. */
    async sendNow(actor: Actor, id: string): Promise<TAutomaticReport> {
      const row = await load(actor, id);
      const event = reportChanged("report.sent", report(id, actor, row.dashboard_name), { recipients: row.recipients });
      await delivery().sendNow(actor, row, (trx) => audit.record(trx, event));
      return presentOne(actor.companyId, row);
    },

    /** DELETE /api/automatic-reports/{id}; another company's report is not found (404). */
    async remove(actor: Actor, id: string): Promise<void> {
      const event = reportChanged("report.deleted", report(id, actor, (await load(actor, id)).dashboard_name));
      await audit.within(ctx.db, event, (trx) => reportsRepo(trx).delete(actor.companyId, id));
    },
  };
}

export type ReportsService = ReturnType<typeof reportsService>;
