import type { TAutomaticReport } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { reportChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import type { DeliveryService } from "./delivery";
import { editingUseCases, report } from "./editing";
import { reportPresenter } from "./presenter";
import { type ReportRow, reportsRepo } from "./repo";

/**
 * Automatic reports of docs/product.md §3 with the rules of §5 and §9: at most 5 per dashboard, the
 * company must be allowed to create them, and the PDF option only for dashboards within the PDF
 * widget limit. Sending them is another feature's work; this one keeps what to send and when. * Assembled here from presenter.ts (a report as the API answers it) and editing.ts (create, change, delete).
 */
export function reportsService(ctx: AppContext, companies: CompaniesService, delivery: () => DeliveryService) {
  const repo = reportsRepo(ctx.db);
  const audit = auditLog(ctx);
  const { presentAll, presentOne } = reportPresenter(ctx, repo);

  async function load(actor: Actor, id: string): Promise<ReportRow> {
    const row = await repo.find(actor.companyId, id);
    if (!row) throw AppError.notFound("Automatic report not found.");
    return row;
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

    ...editingUseCases(ctx, companies, audit, { presentAll, presentOne }, load),

    /** POST /api/automatic-reports/{id}/send ("send now"): delivered by a job; answers the report as it is. */
    async sendNow(actor: Actor, id: string): Promise<TAutomaticReport> {
      const row = await load(actor, id);
      const event = reportChanged("report.sent", report(id, actor, row.dashboard_name), { recipients: row.recipients });
      await delivery().sendNow(actor, row, (trx) => audit.record(trx, event));
      return presentOne(actor.companyId, row);
    },
  };
}

export type ReportsService = ReturnType<typeof reportsService>;
