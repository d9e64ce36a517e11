import { z } from "zod";
import { ZReportRecipients } from "../contract/automatic-reports";
import { dataEnvelope } from "../contract/common";
import { MAX_REPORT_RECIPIENTS } from "../dates/report-schedule";

/**
 * Alerts on any widget metric (docs/decisions.md, "Alerts on any widget metric"): "tell me when Sessions falls below 1,500". A rule watches
 * one metric column of one widget of a dashboard, with one condition.
 */
export const WIDGET_ALERT_CONDITIONS = ["above", "below", "changeBy", "anomaly", "offPace"] as const;
export type WidgetAlertCondition = (typeof WIDGET_ALERT_CONDITIONS)[number];

/** Conditions that keep no value: the anomaly's band and the goal's pace are the threshold. */
export const widgetAlertTakesValue = (condition: WidgetAlertCondition): boolean =>
  condition !== "anomaly" && condition !== "offPace";

/** Which way a change or an anomaly must go to count: a fall, a rise or either. */
export const WIDGET_ALERT_DIRECTIONS = ["up", "down", "either"] as const;
export type WidgetAlertDirection = (typeof WIDGET_ALERT_DIRECTIONS)[number];

/** Same limit as automatic reports: five people is a team, more is a mailing list. */
export const MAX_WIDGET_ALERT_RECIPIENTS = MAX_REPORT_RECIPIENTS;
/** Largest "changed by more than" percentage: beyond it the rule could never fire on a fall. */
export const MAX_WIDGET_ALERT_PERCENT = 1000;

export const WIDGET_ALERT_MESSAGES = {
  metricRequired: "The metric field is required.",
  metricUnknown: "The selected metric is not one of this widget's metrics.",
  condition: "The condition must be above, below, changeBy, anomaly or offPace.",
  valueRequired: "The value field is required.",
  valueNumber: "The value must be a number.",
  percentMin: "The change must be more than 0 %.",
  percentMax: `The change may not be greater than ${MAX_WIDGET_ALERT_PERCENT} %.`,
  direction: "The direction must be up, down or either.",
  paused: "The paused field must be true or false.",
  anomalyWithoutDays: "This widget's data has no daily values to learn a usual range from; choose another condition.",
  offPaceWithoutGoal: "This widget has no goal on this metric; add one before alerting on its pace.",
  widgetNotFound: "Widget not found.",
  widgetNotInteractive: "Only widgets that show data can have alerts.",
  notFound: "Alert not found.",
} as const;

/**
 * What a dashboard save tells its user of an off-pace rule it removed with the metric's last goal
 * (`rule` as describeWidgetAlertRule says it: "Sessions goal is off pace").
 */
export const removedWithGoalNotice = (rule: string) => `The alert “${rule}” was removed with its goal.`;

/**
 * POST /api/dashboards/{id}/widgets/{widgetId}/alerts and PUT /api/widget-alerts/{id}. Flat rather
 * than one object per condition, so each field's 422 sits under its own input in the form. `value` is
 * the threshold for above/below and the percentage for changeBy; anomaly and offPace need none.
 */
export const ZWidgetAlertInput = z
  .strictObject({
    metric: z
      .string({ error: WIDGET_ALERT_MESSAGES.metricRequired })
      .trim()
      .min(1, WIDGET_ALERT_MESSAGES.metricRequired)
      .max(200, WIDGET_ALERT_MESSAGES.metricUnknown),
    condition: z.enum(WIDGET_ALERT_CONDITIONS, { error: WIDGET_ALERT_MESSAGES.condition }),
    value: z
      .number({ error: WIDGET_ALERT_MESSAGES.valueNumber })
      .refine(Number.isFinite, WIDGET_ALERT_MESSAGES.valueNumber)
      .nullable()
      .optional(),
    direction: z.enum(WIDGET_ALERT_DIRECTIONS, { error: WIDGET_ALERT_MESSAGES.direction }).default("either"),
    recipients: ZReportRecipients,
    paused: z.boolean({ error: WIDGET_ALERT_MESSAGES.paused }).default(false),
  })
  .superRefine((input, context) => {
    if (!widgetAlertTakesValue(input.condition)) return;
    if (input.value === null || input.value === undefined) {
      context.addIssue({ code: "custom", path: ["value"], message: WIDGET_ALERT_MESSAGES.valueRequired });
      return;
    }
    if (input.condition === "changeBy" && input.value <= 0) {
      context.addIssue({ code: "custom", path: ["value"], message: WIDGET_ALERT_MESSAGES.percentMin });
    }
    if (input.condition === "changeBy" && input.value > MAX_WIDGET_ALERT_PERCENT) {
      context.addIssue({ code: "custom", path: ["value"], message: WIDGET_ALERT_MESSAGES.percentMax });
    }
  })
  // Anomaly and off-pace rules keep no value, so a later switch to another condition cannot inherit a stale one.
  .transform((input) => ({ ...input, value: widgetAlertTakesValue(input.condition) ? (input.value ?? null) : null }));
export type TWidgetAlertInput = z.infer<typeof ZWidgetAlertInput>;
/** What the form sends (before defaults). */
export type TWidgetAlertForm = z.input<typeof ZWidgetAlertInput>;

/** A rule as the API answers it, with the state of its alert. */
export const ZWidgetAlert = z.object({
  id: z.string(),
  dashboard_id: z.string(),
  widget_id: z.string(),
  metric: z.string(),
  condition: z.enum(WIDGET_ALERT_CONDITIONS),
  value: z.number().nullable(),
  direction: z.enum(WIDGET_ALERT_DIRECTIONS),
  recipients: z.array(z.string()),
  paused: z.boolean(),
  /** Until when its mails are held back (ISO instant), or null; a past instant counts as not snoozed. */
  snoozed_until: z.string().nullable(),
  snoozed: z.boolean(),
  /** null until its first failing evaluation. */
  state: z.enum(["open", "resolved"]).nullable(),
  opened_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  /** The latest evaluation's sentence ("Sessions fell to 1,204, below 1,500"); null before the first. */
  last_message: z.string().nullable(),
  last_evaluated_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TWidgetAlert = z.infer<typeof ZWidgetAlert>;

export const ZWidgetAlertResponse = dataEnvelope(ZWidgetAlert);
export const ZWidgetAlertListResponse = dataEnvelope(z.array(ZWidgetAlert));

/**
 * An open alert as the dashboard's cards show it (GET /api/dashboards/{id}/widget-alerts/open): firing,
 * not resolved, not paused and not snoozed, with the metric named as the widget's data names it.
 */
export const ZOpenWidgetAlert = z.object({
  id: z.string(),
  widget_id: z.string(),
  metric: z.string(),
  /** The metric's label ("Sessions"), for the badge's accessible name. */
  metric_label: z.string(),
  /** The evaluation's sentence ("Sessions rose to 1,204, above 1,000"). */
  message: z.string().nullable(),
  opened_at: z.string(),
});
export type TOpenWidgetAlert = z.infer<typeof ZOpenWidgetAlert>;
export const ZOpenWidgetAlertsResponse = dataEnvelope(z.array(ZOpenWidgetAlert));

/**
 * Realtime `WidgetAlertsUpdated` on the company channel: widget alerts of these dashboards opened or
 * resolved (or a rule was changed, deleted, snoozed or un-snoozed); open dashboards fetch their open
 * alerts again.
 */
export const ZWidgetAlertsUpdated = z.object({
  dashboard_ids: z.array(z.string()),
  opened: z.number().int(),
  resolved: z.number().int(),
});
export type TWidgetAlertsUpdated = z.infer<typeof ZWidgetAlertsUpdated>;
