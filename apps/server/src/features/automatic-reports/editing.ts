import {
  AUTOMATIC_REPORT_REFUSALS,
  joinRecipients,
  MAX_REPORTS_PER_DASHBOARD,
  normaliseTimeZone,
  type TAutomaticReport,
  type TAutomaticReportInput,
} from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import { AppError } from "../../infra/errors";
import { newId } from "../../infra/security";
import { reportChanged } from "../audit/events";
import type { auditLog } from "../audit/record";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import { type reportPresenter, widgetCount } from "./presenter";
import { type ReportRow, reportsRepo } from "./repo";

/** The zone a report takes when the request names none: the user's own, or UTC if theirs is not a zone. */
function zoneOrDefault(requested: string | undefined, fallback: string): string {
  return requested ?? normaliseTimeZone(fallback) ?? "UTC";
}

/** A report as its audit events name it. */
export const report = (id: string, actor: Actor, dashboardName: string) => ({
  id,
  companyId: actor.companyId,
  dashboardName,
});

/**
 * Creating, changing and deleting a report, each with its audit event in the same transaction; the rules
 * that need the database are checked there too.
 */
export function editingUseCases(
  ctx: AppContext,
  companies: CompaniesService,
  audit: ReturnType<typeof auditLog>,
  { presentOne }: ReturnType<typeof reportPresenter>,
  load: (actor: Actor, id: string) => Promise<ReportRow>,
) {
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
      // The scheduler reads the same clock: a report is due from its first slot after this time (scheduling.ts).
      const now = ctx.clock.now().toISOString();
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
          updated_at: ctx.clock.now().toISOString(),
        });
      });
      return presentOne(actor.companyId, await load(actor, id));
    },

    /** DELETE /api/automatic-reports/{id}; another company's report is not found (404). */
    async remove(actor: Actor, id: string): Promise<void> {
      const event = reportChanged("report.deleted", report(id, actor, (await load(actor, id)).dashboard_name));
      await audit.within(ctx.db, event, (trx) => reportsRepo(trx).delete(actor.companyId, id));
    },
  };
}
