import { type MonthDetail, nextRunAfter, type ReportDateRange, type TAutomaticReport, type Weekday } from "@app/core";
import type { AppContext } from "../../context";
import type { ReportDeliveriesTable } from "../../infra/db/schema";
import type { ReportRow, reportsRepo } from "./repo";

/** How many widgets a dashboard's stored widget list holds (the PDF rule counts them all, as the export does). */
export function widgetCount(widgets: string): number {
  const list: unknown = JSON.parse(widgets);
  return Array.isArray(list) ? list.length : 0;
}

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

/** Reports as the API answers them: each with its next run and its latest finished delivery. */
export function reportPresenter(ctx: AppContext, repo: ReturnType<typeof reportsRepo>) {
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

  return { presentAll, presentOne };
}
