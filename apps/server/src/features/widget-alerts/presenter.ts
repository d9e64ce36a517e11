import {
  isSnoozed,
  METRICS_PARAM,
  splitRecipients,
  type TWidget,
  type TWidgetAlert,
  type WidgetAlertCondition,
  type WidgetAlertDirection,
  type WidgetAlertMetric,
} from "@app/core";
import { widgetType } from "../../connectors";
import type { WidgetAlertsTable } from "../../infra/db/schema";

/** A stored rule as the API shows it. */
export function present(row: WidgetAlertsTable, now: Date): TWidgetAlert {
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
