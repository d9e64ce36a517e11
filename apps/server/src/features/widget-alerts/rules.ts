import {
  isSnoozed,
  joinRecipients,
  snoozeUntil,
  type TInteractiveWidget,
  type TWidget,
  type TWidgetAlert,
  type TWidgetAlertInput,
  WIDGET_ALERT_MESSAGES,
  type WidgetAlertMetric,
  widgetAlertMetrics,
} from "@app/core";
import { widgetType } from "../../connectors";
import type { AppContext } from "../../context";
import type { WidgetAlertsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { newId } from "../../infra/security";
import type { Actor } from "../users/service";
import { announceWidgetAlerts } from "./announce";
import type { WidgetAlertsDeps } from "./deps";
import { present } from "./presenter";
import type { WidgetAlertRow, widgetAlertsRepo } from "./repo";

/** Whether the instance's type can answer by day: what an anomaly rule learns its usual range from. */
function hasDailyValues(widget: TInteractiveWidget, metric: WidgetAlertMetric): boolean {
  const found = widgetType(widget.instances[metric.instance]?.type ?? "");
  if (!found || found.config.realtime) return false;
  const dimension = found.config.params.find((param) => param.key === "dimension");
  return dimension?.options?.some((option) => option.value === "date") ?? false;
}

const sameRule = (row: WidgetAlertsTable, input: TWidgetAlertInput) =>
  row.metric === input.metric &&
  row.condition === input.condition &&
  (row.value === null ? null : Number(row.value)) === input.value &&
  row.direction === input.direction;

/**
 * A widget's alert rules (the widget menu's alerts dialog): list, create, update, delete, snooze. Who may
 * manage a widget's alerts is who may edit its dashboard: any member of the dashboard's company.
 */
export function ruleUseCases(ctx: AppContext, deps: WidgetAlertsDeps, repo: ReturnType<typeof widgetAlertsRepo>) {
  const now = () => ctx.clock.now();

  /** The widget a rule is on, or 404 (another company's dashboard is "not found" too). */
  async function widgetOf(companyId: string, dashboardId: string, widgetId: string): Promise<TWidget> {
    if (!(await repo.dashboardOf(companyId, dashboardId))) throw AppError.notFound("Dashboard not found.");
    const widget = (await deps.dashboards().widgetsById(companyId, dashboardId)).find((each) => each.id === widgetId);
    if (!widget) throw AppError.notFound(WIDGET_ALERT_MESSAGES.widgetNotFound);
    return widget;
  }

  /**
   * The rule's fields the widget decides: its metric must be one of the widget's, anomaly needs days,
   * off pace needs a goal on the metric.
   */
  function assertFits(widget: TWidget, input: TWidgetAlertInput): void {
    if (widget.nature !== "interactive") {
      throw AppError.validation({ metric: [WIDGET_ALERT_MESSAGES.widgetNotInteractive] });
    }
    const metric = widgetAlertMetrics(widget).find((each) => each.key === input.metric);
    if (!metric) throw AppError.validation({ metric: [WIDGET_ALERT_MESSAGES.metricUnknown] });
    if (input.condition === "anomaly" && !hasDailyValues(widget, metric)) {
      throw AppError.validation({ condition: [WIDGET_ALERT_MESSAGES.anomalyWithoutDays] });
    }
    // Off pace judges the widget's own goal on the metric: without one there is nothing to be off.
    if (input.condition === "offPace" && !(widget.goals ?? []).some((goal) => goal.metric === input.metric)) {
      throw AppError.validation({ condition: [WIDGET_ALERT_MESSAGES.offPaceWithoutGoal] });
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

  return {
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
      await announceWidgetAlerts(ctx, actor.companyId, [row.dashboard_id]);
      return reload(actor.companyId, id);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const row = await load(actor, id);
      await repo.delete(actor.companyId, id);
      await announceWidgetAlerts(ctx, actor.companyId, [row.dashboard_id]);
    },

    /** Snooze a week: evaluations go on (the state is right when it ends), mails wait. */
    async snooze(actor: Actor, id: string): Promise<TWidgetAlert> {
      const row = await load(actor, id);
      const at = now();
      await repo.update(actor.companyId, id, {
        snoozed_until: snoozeUntil(at).toISOString(),
        updated_at: at.toISOString(),
      });
      await announceWidgetAlerts(ctx, actor.companyId, [row.dashboard_id]);
      return reload(actor.companyId, id);
    },

    /** Ends the snooze now (core snoozeEndedSince then lets the next evaluation decide afresh). */
    async unsnooze(actor: Actor, id: string): Promise<TWidgetAlert> {
      const row = await load(actor, id);
      const at = now().toISOString();
      const ended = isSnoozed(row.snoozed_until, now()) ? at : row.snoozed_until;
      await repo.update(actor.companyId, id, { snoozed_until: ended, updated_at: at });
      await announceWidgetAlerts(ctx, actor.companyId, [row.dashboard_id]);
      return reload(actor.companyId, id);
    },
  };
}
