import {
  describeWidgetAlertRule,
  formatInstantInZone,
  type TWidget,
  type TWidgetAlert,
  type TWidgetAlertForm,
  WIDGET_ALERT_MESSAGES,
  type WidgetAlertCondition,
  type WidgetAlertDirection,
  widgetAlertMetrics,
  widgetAlertTakesValue,
} from "@app/core";

/** The "Alert me when…" form as typed: text inputs stay text until sent. */
export interface AlertFormValues {
  metric: string;
  condition: WidgetAlertCondition;
  /** Threshold or percentage, as typed. */
  value: string;
  direction: WidgetAlertDirection;
  /** Comma-separated, as the automatic report form takes them. */
  recipients: string;
  paused: boolean;
}

export const CONDITION_OPTIONS: { value: WidgetAlertCondition; label: string }[] = [
  { value: "below", label: "falls below" },
  { value: "above", label: "rises above" },
  { value: "changeBy", label: "changes against the comparison period by more than" },
  { value: "anomaly", label: "leaves its usual range (anomaly)" },
  // Reads after the metric: "Sessions — goal is off pace"; the server refuses it on a metric without a goal.
  { value: "offPace", label: "goal is off pace (not on track to meet it)" },
];

export const DIRECTION_OPTIONS: { value: WidgetAlertDirection; label: string }[] = [
  { value: "either", label: "Up or down" },
  { value: "down", label: "Down only" },
  { value: "up", label: "Up only" },
];

/** A column key's metric part as words when no label is known: 'a.avg_session_duration' → 'Avg session duration'. */
function fallbackLabel(metric: string): string {
  const words = metric.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The widget's metrics for the select, labelled as its data names them (the table's labels, when the
 * widget's data is loaded), else by the calculated metric's name or the key in words.
 */
export function alertMetricOptions(
  widget: TWidget,
  tableMetrics: readonly { key: string; label: string }[] = [],
): { value: string; label: string }[] {
  const labels = new Map(tableMetrics.map((metric) => [metric.key, metric.label]));
  return widgetAlertMetrics(widget).map((metric) => ({
    value: metric.key,
    label: labels.get(metric.key) ?? metric.name ?? fallbackLabel(metric.metric),
  }));
}

export function defaultAlertValues(metrics: readonly { value: string }[]): AlertFormValues {
  return {
    metric: metrics[0]?.value ?? "",
    condition: "below",
    value: "",
    direction: "either",
    recipients: "",
    paused: false,
  };
}

export function valuesOf(alert: TWidgetAlert): AlertFormValues {
  return {
    metric: alert.metric,
    condition: alert.condition,
    value: alert.value === null ? "" : String(alert.value),
    direction: alert.direction,
    recipients: alert.recipients.join(", "),
    paused: alert.paused,
  };
}

/** What the value field is called for the condition; null when the condition takes none. */
export function valueLabel(condition: WidgetAlertCondition): string | null {
  if (!widgetAlertTakesValue(condition)) return null;
  return condition === "changeBy" ? "Change (%)" : "Value";
}

/** Whether the direction matters for the condition (a threshold has one way by itself). */
export const takesDirection = (condition: WidgetAlertCondition) => condition === "changeBy" || condition === "anomaly";

/** The typed value as a number ('1,500' and '1500' alike); null when empty, NaN when not a number. */
function typedNumber(text: string): number | null {
  const typed = text.trim().replace(/,/g, "");
  return typed === "" ? null : Number(typed);
}

/**
 * What the browser can tell before sending: only that the value is not a number (a JSON body cannot
 * carry "abc" as one). Everything else is the server's 422, shown under the same fields.
 */
export function alertFormErrors(values: AlertFormValues): Record<string, string> {
  const number = typedNumber(values.value);
  if (widgetAlertTakesValue(values.condition) && number !== null && !Number.isFinite(number)) {
    return { value: WIDGET_ALERT_MESSAGES.valueNumber };
  }
  return {};
}

/** The request body; an empty value travels as null, so the server says it is required. */
export function alertPayload(values: AlertFormValues): TWidgetAlertForm {
  const number = typedNumber(values.value);
  return {
    metric: values.metric,
    condition: values.condition,
    value: !widgetAlertTakesValue(values.condition) || number === null || !Number.isFinite(number) ? null : number,
    direction: takesDirection(values.condition) ? values.direction : "either",
    recipients: values.recipients,
    paused: values.paused,
  };
}

/** One line per alert in the widget's list: the rule, then where it stands. */
export function alertSummary(
  alert: TWidgetAlert,
  labelOf: (metric: string) => string,
  timezone: string,
): { rule: string; status: string; tone: "red" | "gray" | "green" | "yellow" } {
  const rule = describeWidgetAlertRule(alert, labelOf(alert.metric));
  if (alert.paused) return { rule, status: "Paused", tone: "gray" };
  if (alert.snoozed && alert.snoozed_until) {
    return {
      rule,
      status: `Snoozed until ${formatInstantInZone(new Date(alert.snoozed_until), timezone)}`,
      tone: "yellow",
    };
  }
  if (alert.state === "open") return { rule, status: "Open", tone: "red" };
  if (alert.last_evaluated_at === null) return { rule, status: "Not checked yet", tone: "gray" };
  return { rule, status: "OK", tone: "green" };
}
