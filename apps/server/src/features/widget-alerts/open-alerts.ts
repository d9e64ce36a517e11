import {
  describeWidgetAlertRule,
  type TOpenWidgetAlert,
  type TWidget,
  type WidgetAlertCondition,
  type WidgetAlertDirection,
  widgetAlertMetrics,
} from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { DigestWidgetAlertRow } from "../campaigns/alert-jobs";
import type { Actor } from "../users/service";
import type { WidgetAlertsDeps } from "./deps";
import { metricLabelOf } from "./presenter";
import type { widgetAlertsRepo } from "./repo";

/** An open alert of the digest, in the shape the digest asks for (campaigns/alert-jobs.ts). */
export type DigestWidgetAlert = DigestWidgetAlertRow;

/** The open alerts as they are shown: on the dashboard's cards, and in the Mission Control digest. */
export function openAlertUseCases(ctx: AppContext, deps: WidgetAlertsDeps, repo: ReturnType<typeof widgetAlertsRepo>) {
  const now = () => ctx.clock.now();
  return {
    /** Companies with a shown open alert (the digest is due for them too). */
    companiesWithOpen: () => repo.companiesWithOpen(now().toISOString()),

    /**
     * The dashboard's open alerts, one request for all its cards; those of a removed widget or of a
     * metric the widget no longer shows are left out (no card would show them).
     */
    async open(actor: Actor, dashboardId: string): Promise<TOpenWidgetAlert[]> {
      if (!(await repo.dashboardOf(actor.companyId, dashboardId))) throw AppError.notFound("Dashboard not found.");
      const rows = await repo.openOfDashboard(actor.companyId, dashboardId, now().toISOString());
      if (rows.length === 0) return [];
      const widgets = await deps.dashboards().widgetsById(actor.companyId, dashboardId);
      return rows.flatMap((row) => {
        const widget = widgets.find((each) => each.id === row.widget_id);
        const metric = widget ? widgetAlertMetrics(widget).find((each) => each.key === row.metric) : undefined;
        if (!widget || !metric || !row.opened_at) return [];
        return [
          {
            id: row.id,
            widget_id: row.widget_id,
            metric: row.metric,
            metric_label: metricLabelOf(widget, metric),
            message: row.last_message,
            opened_at: row.opened_at,
          },
        ];
      });
    },

    /** The company's shown open alerts for the Mission Control digest, by dashboard (name order). */
    async openForDigest(companyId: string): Promise<DigestWidgetAlert[]> {
      const rows = await repo.openOfCompany(companyId, now().toISOString());
      const widgetsByDashboard = new Map<string, readonly TWidget[]>();
      const result: DigestWidgetAlert[] = [];
      for (const row of rows) {
        if (!widgetsByDashboard.has(row.dashboard_id)) {
          widgetsByDashboard.set(row.dashboard_id, await deps.dashboards().widgetsById(companyId, row.dashboard_id));
        }
        const widget = widgetsByDashboard.get(row.dashboard_id)?.find((each) => each.id === row.widget_id);
        const metric = widget ? widgetAlertMetrics(widget).find((each) => each.key === row.metric) : undefined;
        if (!widget || !metric || !row.opened_at) continue;
        const metricLabel = metricLabelOf(widget, metric);
        result.push({
          dashboardId: row.dashboard_id,
          dashboardName: row.dashboard_name,
          dashboardPermalink: row.dashboard_permalink,
          widgetTitle: widget.title || "Untitled widget",
          metricLabel,
          message:
            row.last_message ??
            describeWidgetAlertRule(
              {
                condition: row.condition as WidgetAlertCondition,
                value: row.value === null ? null : Number(row.value),
                direction: row.direction as WidgetAlertDirection,
              },
              metricLabel,
            ),
          openedAt: row.opened_at,
        });
      }
      return result;
    },
  };
}
