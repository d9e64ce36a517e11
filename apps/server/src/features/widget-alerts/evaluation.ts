import {
  type AlertState,
  describeWidgetAlertRule,
  isSnoozed,
  nextAlertState,
  snoozeEndedSince,
  type TWidget,
  type WidgetAlertCondition,
  type WidgetAlertDirection,
  type WidgetAlertVerdict,
  widgetAlertClock,
  widgetAlertMetrics,
} from "@app/core";
import type { AppContext } from "../../context";
import { widgetAlertMail } from "./alert-mail";
import { announceWidgetAlerts } from "./announce";
import type { WidgetAlertsDeps } from "./deps";
import { widgetObservations } from "./observations";
import type { WidgetAlertRow, widgetAlertsRepo } from "./repo";

export interface EvaluationSummary {
  evaluated: number;
  opened: number;
  resolved: number;
  mailed: number;
}

/**
 * The evaluation job's work (jobs.ts): each rule judged against its widget's data (observations.ts), its
 * new state by the domain alerts' hysteresis (core nextAlertState), and one e-mail per opening.
 */
export function evaluationUseCases(ctx: AppContext, deps: WidgetAlertsDeps, repo: ReturnType<typeof widgetAlertsRepo>) {
  const now = () => ctx.clock.now();
  const observations = widgetObservations(ctx, deps);

  /** Sends the opening's one mail, unless another evaluation already did; a failure is retried next pass. */
  async function notify(row: WidgetAlertRow, widget: TWidget, verdict: WidgetAlertVerdict, ruleText: string) {
    const at = now().toISOString();
    if (!row.opened_at || !(await repo.claimNotification(row.company_id, row.id, row.opened_at, at))) return false;
    try {
      const from = await deps.sender(row.company_id);
      const link = `${ctx.config.appUrl}/dashboards/${encodeURIComponent(row.dashboard_permalink)}`;
      const mail = widgetAlertMail({
        companyName: from.fromName,
        dashboardName: row.dashboard_name,
        widgetTitle: widget.title,
        ruleText,
        message: verdict.message,
        dashboardUrl: link,
      });
      await ctx.mailer.send({
        to: row.recipients,
        ...mail,
        fromName: from.fromName,
        ...(from.fromAddress && { fromAddress: from.fromAddress }),
        ...(from.dkim && { dkim: from.dkim }),
        messageId: `<widget-alert-${row.id}-${row.opened_at.replace(/[^A-Za-z0-9.-]/g, "")}@${new URL(ctx.config.appUrl).hostname}>`,
      });
      return true;
    } catch (error) {
      ctx.logger.warn({ err: error, alert: row.id }, "a widget alert's mail could not be sent");
      await repo.releaseNotification(row.company_id, row.id, at);
      return false;
    }
  }

  /** One rule against what was observed: its new state, and its mail when it opened and is not snoozed. */
  async function apply(
    row: WidgetAlertRow,
    widget: TWidget,
    verdict: WidgetAlertVerdict,
    label: string,
    summary: EvaluationSummary,
    changed: Set<string>,
  ): Promise<void> {
    const at = now();
    const base = { last_message: verdict.message, last_value: verdict.value, last_evaluated_at: at.toISOString() };
    summary.evaluated += 1;
    if (verdict.outcome === "unknown") {
      // No value, no baseline or too little history: neither opens nor resolves.
      await repo.update(row.company_id, row.id, base);
      return;
    }
    const previous: AlertState | null =
      row.state && row.opened_at
        ? { status: row.state, openedAt: row.opened_at, resolvedAt: row.resolved_at, passes: row.passes }
        : null;
    const afresh = snoozeEndedSince(row.snoozed_until, row.last_evaluated_at, at);
    const { state, transition } = nextAlertState(previous, verdict.outcome === "failing", at, afresh);
    await repo.update(row.company_id, row.id, {
      ...base,
      state: state?.status ?? null,
      opened_at: state?.openedAt ?? null,
      resolved_at: state?.resolvedAt ?? null,
      passes: state?.passes ?? 0,
      // A new opening owes its one mail.
      ...(transition === "opened" && { notified_at: null }),
    });
    if (transition === "opened") summary.opened += 1;
    if (transition === "resolved") summary.resolved += 1;
    if (transition === "opened" || transition === "resolved") changed.add(row.dashboard_id);
    const owesMail = state?.status === "open" && (transition === "opened" || row.notified_at === null);
    if (owesMail && !isSnoozed(row.snoozed_until, at)) {
      const ruleText = describeWidgetAlertRule(
        {
          condition: row.condition as WidgetAlertCondition,
          value: row.value,
          direction: row.direction as WidgetAlertDirection,
        },
        label,
      );
      const opened = { ...row, opened_at: state.openedAt };
      if (await notify(opened, widget, verdict, ruleText)) summary.mailed += 1;
    }
  }

  /**
   * Every rule of the company that is not paused, once: each widget's data is asked once per pass
   * (and per instance by day for anomaly rules), through the same path and caches as the dashboard.
   */
  async function evaluateCompany(companyId: string): Promise<EvaluationSummary> {
    const summary: EvaluationSummary = { evaluated: 0, opened: 0, resolved: 0, mailed: 0 };
    const changed = new Set<string>();
    const rows = (await repo.listActive(companyId)).filter((row) => row.dashboard_active === 1);
    const widgetsByDashboard = new Map<string, readonly TWidget[]>();
    // Every rule judges on the company's own days (a Los Angeles agency's "yesterday" and month end at
    // its midnight, not UTC's), as its dashboards show them.
    const clock = widgetAlertClock(now(), await repo.companyTimezone(companyId));
    const judge = observations.forPass(companyId, clock);
    for (const row of rows) {
      if (!widgetsByDashboard.has(row.dashboard_id)) {
        widgetsByDashboard.set(row.dashboard_id, await deps.dashboards().widgetsById(companyId, row.dashboard_id));
      }
      const widget = widgetsByDashboard.get(row.dashboard_id)?.find((each) => each.id === row.widget_id);
      const metric = widget ? widgetAlertMetrics(widget).find((each) => each.key === row.metric) : undefined;
      if (widget?.nature !== "interactive" || !metric) {
        const message = widget
          ? "The widget no longer shows this metric."
          : "The widget was removed from the dashboard.";
        await repo.update(companyId, row.id, { last_message: message, last_evaluated_at: now().toISOString() });
        continue;
      }
      const rule = {
        condition: row.condition as WidgetAlertCondition,
        value: row.value === null ? null : Number(row.value),
        direction: row.direction as WidgetAlertDirection,
      };
      const judged = await judge(row, widget, metric, rule);
      if ("error" in judged) {
        // The figures could not be read (a source to reconnect, a provider down): the alert says so.
        const unknown = { outcome: "unknown" as const, value: null, message: judged.error };
        await apply(row, widget, unknown, metric.name ?? metric.metric, summary, changed);
        continue;
      }
      const { verdict, label } = judged;
      await apply(row, widget, verdict, label, summary, changed);
    }
    // Open dashboards of the company show the badge (or drop it) without a reload (announce.ts).
    if (changed.size > 0) await announceWidgetAlerts(ctx, companyId, [...changed], summary.opened, summary.resolved);
    return summary;
  }

  return {
    evaluateCompany,
    companiesToEvaluate: () => repo.companiesWithActive(),
  };
}
