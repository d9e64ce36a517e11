import {
  type AlertState,
  type DailyValue,
  type DayRange,
  describeWidgetAlertRule,
  evaluateWidgetAlert,
  isRangeType,
  isSnoozed,
  joinRecipients,
  METRICS_PARAM,
  nextAlertState,
  type PresetRangeType,
  REALTIME_EVENTS,
  rangeForType,
  shiftDay,
  snoozeEndedSince,
  snoozeUntil,
  splitRecipients,
  type TInteractiveWidget,
  type TOpenWidgetAlert,
  type TTable,
  type TTableMetric,
  type TWidget,
  type TWidgetAlert,
  type TWidgetAlertInput,
  type TWidgetAlertsUpdated,
  todayInTimezone,
  uniquePrefix,
  WIDGET_ALERT_MESSAGES,
  type WidgetAlertCondition,
  type WidgetAlertDirection,
  type WidgetAlertMetric,
  type WidgetAlertVerdict,
  widgetAlertMetrics,
} from "@app/core";
import { lagDaysOf, widgetType } from "../../connectors";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import type { WidgetAlertsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { MailDkim } from "../../infra/mail";
import { newId } from "../../infra/security";
import type { DigestWidgetAlertRow } from "../campaigns/alert-jobs";
import type { DashboardsService } from "../dashboards/service";
import type { Actor } from "../users/service";
import type { WidgetsService } from "../widgets/service";
import { widgetAlertMail } from "./alert-mail";
import { type WidgetAlertRow, widgetAlertsRepo } from "./repo";

/** The zone alerts judge "yesterday" in: dashboards have no zone of their own, and UTC is every worker's. */
export const WIDGET_ALERT_TIMEZONE = "UTC";
/** The range of a dashboard whose dates are custom (fixed): a fixed range would never change again. */
export const FALLBACK_RANGE_TYPE: PresetRangeType = "last_30_days";
/** Weeks of daily history an anomaly rule learns from (core ANOMALY_DEFAULTS.weeks plus the judged week). */
export const ANOMALY_HISTORY_WEEKS = 9;

export interface WidgetAlertsDeps {
  dashboards: () => DashboardsService;
  widgets: () => WidgetsService;
  sender: (companyId: string) => Promise<{ fromName: string; fromAddress?: string; dkim?: MailDkim }>;
}

export interface EvaluationSummary {
  evaluated: number;
  opened: number;
  resolved: number;
  mailed: number;
}

function present(row: WidgetAlertsTable, now: Date): TWidgetAlert {
  return {
    id: row.id,
    dashboard_id: row.dashboard_id,
    widget_id: row.widget_id,
    metric: row.metric,
    condition: row.condition as WidgetAlertCondition,
    value: row.value === null ? null : Number(row.value),
    direction: row.direction as WidgetAlertDirection,
    recipients: splitRecipients(row.recipients),
    paused: row.paused === 1,
    snoozed_until: row.snoozed_until,
    snoozed: isSnoozed(row.snoozed_until, now),
    state: row.state,
    opened_at: row.opened_at,
    resolved_at: row.resolved_at,
    last_message: row.last_message,
    last_evaluated_at: row.last_evaluated_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Whether the instance's type can answer by day: what an anomaly rule learns its usual range from. */
function hasDailyValues(widget: TInteractiveWidget, metric: WidgetAlertMetric): boolean {
  const found = widgetType(widget.instances[metric.instance]?.type ?? "");
  if (!found || found.config.realtime) return false;
  const dimension = found.config.params.find((param) => param.key === "dimension");
  return dimension?.options?.some((option) => option.value === "date") ?? false;
}

/**
 * How the widget's data names the metric: the connector's label for it (the metrics parameter's
 * option), else the calculated metric's name, else its key. What the badge and the digest say.
 */
export function metricLabelOf(widget: TWidget, metric: WidgetAlertMetric): string {
  if (widget.nature !== "interactive") return metric.name ?? metric.metric;
  const type = widgetType(widget.instances[metric.instance]?.type ?? "");
  const option = type?.config.params
    .find((param) => param.key === METRICS_PARAM)
    ?.options?.find((each) => each.value === metric.metric);
  return option?.label ?? metric.name ?? metric.metric;
}

/** An open alert of the digest, in the shape the digest asks for (campaigns/alert-jobs.ts). */
export type DigestWidgetAlert = DigestWidgetAlertRow;

const sameRule = (row: WidgetAlertsTable, input: TWidgetAlertInput) =>
  row.metric === input.metric &&
  row.condition === input.condition &&
  (row.value === null ? null : Number(row.value)) === input.value &&
  row.direction === input.direction;

/**
 * Alerts on any widget metric (issue 11 §4): rules on a widget's metric, evaluated by a job through the
 * same data path as the dashboard, with the domain alerts' hysteresis (core nextAlertState) and one
 * e-mail per opening. Who may manage a widget's alerts is who may edit its dashboard: any member of the
 * dashboard's company.
 */
export function widgetAlertsService(ctx: AppContext, deps: WidgetAlertsDeps) {
  const repo = widgetAlertsRepo(ctx.db);
  const now = () => ctx.clock.now();

  /** The widget a rule is on, or 404 (another company's dashboard is "not found" too). */
  async function widgetOf(companyId: string, dashboardId: string, widgetId: string): Promise<TWidget> {
    if (!(await repo.dashboardOf(companyId, dashboardId))) throw AppError.notFound("Dashboard not found.");
    const widget = (await deps.dashboards().widgetsById(companyId, dashboardId)).find((each) => each.id === widgetId);
    if (!widget) throw AppError.notFound(WIDGET_ALERT_MESSAGES.widgetNotFound);
    return widget;
  }

  /** The rule's fields the widget decides: its metric must be one of the widget's, anomaly needs days. */
  function assertFits(widget: TWidget, input: TWidgetAlertInput): void {
    if (widget.nature !== "interactive") {
      throw AppError.validation({ metric: [WIDGET_ALERT_MESSAGES.widgetNotInteractive] });
    }
    const metric = widgetAlertMetrics(widget).find((each) => each.key === input.metric);
    if (!metric) throw AppError.validation({ metric: [WIDGET_ALERT_MESSAGES.metricUnknown] });
    if (input.condition === "anomaly" && !hasDailyValues(widget, metric)) {
      throw AppError.validation({ condition: [WIDGET_ALERT_MESSAGES.anomalyWithoutDays] });
    }
  }

  async function load(actor: Actor, id: string): Promise<WidgetAlertRow> {
    const row = await repo.find(actor.companyId, id);
    if (!row) throw AppError.notFound(WIDGET_ALERT_MESSAGES.notFound);
    return row;
  }

  async function reload(companyId: string, id: string): Promise<TWidgetAlert> {
    const row = await repo.find(companyId, id);
    if (!row) throw AppError.notFound(WIDGET_ALERT_MESSAGES.notFound);
    return present(row, now());
  }

  // ---- Evaluation -------------------------------------------------------------------------------

  /** The period the dashboard shows today, as its preset computes it. */
  function periodOf(row: WidgetAlertRow, today: string): DayRange {
    const type =
      isRangeType(row.dashboard_range_type) && row.dashboard_range_type !== "custom"
        ? row.dashboard_range_type
        : FALLBACK_RANGE_TYPE;
    return rangeForType(type, { today });
  }

  type Observed = { table: TTable; previous: TTable | null } | { error: string };

  /** The widget's data over its dashboard's period and the comparison period, as the dashboard asks. */
  async function totalsOf(companyId: string, widget: TInteractiveWidget, range: DayRange): Promise<Observed> {
    try {
      const data = await deps.widgets().data(companyId, {
        instances: [...widget.instances],
        startDate: range.startDate,
        endDate: range.endDate,
        comparison: true,
        timezone: WIDGET_ALERT_TIMEZONE,
      });
      return { table: data.current, previous: data.previous };
    } catch (error) {
      ctx.logger.warn({ err: error, widget: widget.id }, "a widget alert could not fetch its widget's data");
      return { error: "The widget's data could not be fetched; the alert is evaluated again at the next pass." };
    }
  }

  /** One instance's metric by day, up to the latest complete day (the instance alone, with the date dimension). */
  async function seriesOf(
    companyId: string,
    widget: TInteractiveWidget,
    metric: WidgetAlertMetric,
    lastDay: string,
  ): Promise<{ series: DailyValue[]; column: TTableMetric } | { error: string }> {
    const instance = widget.instances[metric.instance];
    try {
      const data = await deps.widgets().data(companyId, {
        instances: [{ ...instance, inputs: { ...instance.inputs, dimension: "date" } }],
        startDate: shiftDay(lastDay, -(7 * ANOMALY_HISTORY_WEEKS - 1)),
        endDate: lastDay,
        comparison: false,
        timezone: WIDGET_ALERT_TIMEZONE,
      });
      // Alone in the request, the instance keeps its own prefix (made unique only among several).
      const key = `${uniquePrefix(instance.prefix, new Set())}.${metric.metric}`;
      const index = data.current.metrics.findIndex((each) => each.key === key);
      if (index < 0) return { error: "The widget's data has no such metric any more." };
      const series = data.current.rows.flatMap((row) =>
        row.dimension ? [{ day: row.dimension, value: row.values[index] ?? null }] : [],
      );
      return { series, column: data.current.metrics[index] };
    } catch (error) {
      ctx.logger.warn({ err: error, widget: widget.id }, "a widget alert could not fetch its widget's daily data");
      return { error: "The widget's data could not be fetched; the alert is evaluated again at the next pass." };
    }
  }

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
    const today = todayInTimezone(WIDGET_ALERT_TIMEZONE, now());
    const lastDay = shiftDay(today, -1);
    const rows = (await repo.listActive(companyId)).filter((row) => row.dashboard_active === 1);
    const widgetsByDashboard = new Map<string, readonly TWidget[]>();
    const totals = new Map<string, Observed>();
    const daily = new Map<string, Awaited<ReturnType<typeof seriesOf>>>();
    // One observation per widget (totals) or per metric (daily series for anomaly rules), shared by rules.
    const judge = async (
      row: (typeof rows)[number],
      widget: TInteractiveWidget,
      metric: ReturnType<typeof widgetAlertMetrics>[number],
      rule: { condition: WidgetAlertCondition; value: number | null; direction: WidgetAlertDirection },
    ): Promise<{ error: string } | { verdict: WidgetAlertVerdict; label: string }> => {
      if (rule.condition === "anomaly") {
        const key = `${row.dashboard_id}\u0000${row.widget_id}\u0000${row.metric}`;
        if (!daily.has(key)) daily.set(key, await seriesOf(companyId, widget, metric, lastDay));
        const observed = daily.get(key) as Awaited<ReturnType<typeof seriesOf>>;
        if ("error" in observed) return { error: observed.error };
        const { column } = observed;
        const lagDays = lagDaysOf([widget.instances[metric.instance]]);
        const verdict = evaluateWidgetAlert(rule, {
          label: column.label,
          format: column.format,
          currency: column.currency ?? null,
          current: null,
          series: observed.series,
          lagDays,
        });
        return { verdict, label: column.label };
      }
      const key = `${row.dashboard_id}\u0000${row.widget_id}`;
      if (!totals.has(key)) totals.set(key, await totalsOf(companyId, widget, periodOf(row, today)));
      const observed = totals.get(key) as Observed;
      if ("error" in observed) return { error: observed.error };
      const index = observed.table.metrics.findIndex((each) => each.key === row.metric);
      const column = observed.table.metrics[index];
      const label = column?.label ?? metric.name ?? metric.metric;
      const verdict = evaluateWidgetAlert(rule, {
        label,
        format: column?.format,
        currency: column?.currency ?? null,
        current: index < 0 ? null : (observed.table.totals[index] ?? null),
        previous: index < 0 ? null : (observed.previous?.totals[index] ?? null),
      });
      return { verdict, label };
    };
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
    // Open dashboards of the company show the badge (or drop it) without a reload; through the bus, so
    // a worker's evaluation reaches every web process's sockets.
    if (changed.size > 0) await announce(companyId, [...changed], summary.opened, summary.resolved);
    return summary;
  }

  /** Tells the company's open pages that these dashboards' open widget alerts changed. */
  async function announce(companyId: string, dashboardIds: string[], opened = 0, resolved = 0): Promise<void> {
    const message: TWidgetAlertsUpdated = { dashboard_ids: [...dashboardIds].sort(), opened, resolved };
    await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.widgetAlertsUpdated, message);
  }

  return {
    evaluateCompany,
    companiesToEvaluate: () => repo.companiesWithActive(),
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

    async list(actor: Actor, dashboardId: string, widgetId: string): Promise<TWidgetAlert[]> {
      await widgetOf(actor.companyId, dashboardId, widgetId);
      const at = now();
      return (await repo.listForWidget(actor.companyId, dashboardId, widgetId)).map((row) => present(row, at));
    },

    async create(actor: Actor, dashboardId: string, widgetId: string, input: TWidgetAlertInput): Promise<TWidgetAlert> {
      const widget = await widgetOf(actor.companyId, dashboardId, widgetId);
      assertFits(widget, input);
      const at = now().toISOString();
      const id = newId();
      await repo.insert({
        id,
        company_id: actor.companyId,
        dashboard_id: dashboardId,
        widget_id: widgetId,
        metric: input.metric,
        condition: input.condition,
        value: input.value,
        direction: input.direction,
        recipients: joinRecipients(input.recipients),
        paused: input.paused ? 1 : 0,
        snoozed_until: null,
        created_by: actor.id,
        state: null,
        opened_at: null,
        resolved_at: null,
        passes: 0,
        notified_at: null,
        last_value: null,
        last_message: null,
        last_evaluated_at: null,
        created_at: at,
        updated_at: at,
      });
      return reload(actor.companyId, id);
    },

    /** The whole rule again; a changed condition is a new rule, so its alert starts over. */
    async update(actor: Actor, id: string, input: TWidgetAlertInput): Promise<TWidgetAlert> {
      const row = await load(actor, id);
      assertFits(await widgetOf(actor.companyId, row.dashboard_id, row.widget_id), input);
      const fresh = sameRule(row, input)
        ? {}
        : {
            state: null,
            opened_at: null,
            resolved_at: null,
            passes: 0,
            notified_at: null,
            last_value: null,
            last_message: null,
            last_evaluated_at: null,
          };
      await repo.update(actor.companyId, id, {
        metric: input.metric,
        condition: input.condition,
        value: input.value,
        direction: input.direction,
        recipients: joinRecipients(input.recipients),
        paused: input.paused ? 1 : 0,
        updated_at: now().toISOString(),
        ...fresh,
      });
      await announce(actor.companyId, [row.dashboard_id]);
      return reload(actor.companyId, id);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const row = await load(actor, id);
      await repo.delete(actor.companyId, id);
      await announce(actor.companyId, [row.dashboard_id]);
    },

    /** Snooze a week: evaluations go on (the state is right when it ends), mails wait. */
    async snooze(actor: Actor, id: string): Promise<TWidgetAlert> {
      const row = await load(actor, id);
      const at = now();
      await repo.update(actor.companyId, id, {
        snoozed_until: snoozeUntil(at).toISOString(),
        updated_at: at.toISOString(),
      });
      await announce(actor.companyId, [row.dashboard_id]);
      return reload(actor.companyId, id);
    },

    /** Ends the snooze now (core snoozeEndedSince then lets the next evaluation decide afresh). */
    async unsnooze(actor: Actor, id: string): Promise<TWidgetAlert> {
      const row = await load(actor, id);
      const at = now().toISOString();
      const ended = isSnoozed(row.snoozed_until, now()) ? at : row.snoozed_until;
      await repo.update(actor.companyId, id, { snoozed_until: ended, updated_at: at });
      await announce(actor.companyId, [row.dashboard_id]);
      return reload(actor.companyId, id);
    },
  };
}

export type WidgetAlertsService = ReturnType<typeof widgetAlertsService>;
