import { z } from "zod";
import { isValidDay } from "../dates/day";
import { RANGE_TYPE_KEYS } from "../dates/ranges";
import { GOAL_PERIODS } from "../goals/period";
import { LANGUAGES, PSEUDO_LANGUAGE } from "../i18n/languages";
import { widgetAlertMetrics } from "../widget-alerts/metrics";
import { CALCULATED_METRIC_TYPES } from "../widgets/calculated";
import { parseExpression } from "../widgets/expression";
import { PASSIVE_FORMATS, WIDGET_FORMATS } from "../widgets/formats";
import { GRID_COLUMNS, WIDGET_HEIGHTS } from "../widgets/sizes";
import { dataEnvelope, ZPageMeta, zFormBoolean } from "./common";
import { ZAutomaticReport } from "./report-records";

/** A calendar day, `yyyy-MM-dd` (docs/product.md §9). */
export const ZDay = z.string().refine(isValidDay, "The date must be a valid date (yyyy-MM-dd).");
export const ZRangeType = z.enum(RANGE_TYPE_KEYS);
export type TRangeType = z.infer<typeof ZRangeType>;

/**
 * The language a dashboard's client-facing pages are read in (docs/product.md §9, "Report language"). The
 * pseudo-locale is accepted for finding overflowing text; the settings never offer it.
 */
export const ZLanguage = z.enum([...LANGUAGES, PSEUDO_LANGUAGE], {
  error: `The language must be one of: ${LANGUAGES.join(", ")}.`,
});
export type TLanguage = z.infer<typeof ZLanguage>;

/** Where the company's uploaded images live: `/files/{companyId}/{name}.{png|jpg|webp}`. */
export const STYLE_IMAGE_PATH = /^\/files\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.(png|jpg|webp)$/;

/**
 * A style image is one of the company's own uploads, never an arbitrary address (`javascript:…`, a
 * tracking pixel); the server checks that the file is the company's.
 */
function zStyleImage(label: string) {
  return z
    .string()
    .max(2048)
    .regex(STYLE_IMAGE_PATH, `The ${label} must be an image uploaded to this dashboard.`)
    .nullable();
}

/** Dashboard styles of docs/product.md §3; colours are stored as given and applied only when valid (isValidColour). */
export const ZDashboardStyles = z.object({
  backgroundColor: z.string().max(64).nullable(),
  dashboardBackgroundColor: z.string().max(64).nullable(),
  color: z.string().max(64).nullable(),
  theme: z.string().max(64).nullable(),
  logoImage: zStyleImage("logo image"),
  backgroundImage: zStyleImage("background image"),
  clientImage: zStyleImage("client image"),
  /** The ranked insights summary at the top of the dashboard and its PDF (off unless switched on). */
  insightsSummary: z.boolean().optional(),
});
export type TDashboardStyles = z.infer<typeof ZDashboardStyles>;

/** The styles of a dashboard nobody has styled: no colour, theme or image of its own. */
export const EMPTY_DASHBOARD_STYLES: TDashboardStyles = {
  backgroundColor: null,
  dashboardBackgroundColor: null,
  color: null,
  theme: null,
  logoImage: null,
  backgroundImage: null,
  clientImage: null,
};

export const ZWidgetFormat = z.enum(WIDGET_FORMATS);
export type TWidgetFormat = z.infer<typeof ZWidgetFormat>;

/** Options of docs/product.md §3's format table; each format keeps only its own (see formatOptionsFor). */
export const ZFormatOptions = z.object({
  visibleGrid: z.boolean().optional(),
  doughnut: z.boolean().optional(),
  visibleLabels: z.boolean().optional(),
  minValue: z.number().optional(),
  maxValue: z.number().optional(),
});
export type TFormatOptions = z.infer<typeof ZFormatOptions>;

/** Per-metric options of an instance (docs/product.md §3): own sub-format and hiding of value/change. */
export const ZMetricOption = z.object({
  format: ZWidgetFormat.nullable(),
  cloaked: z.boolean(),
  cloakedChange: z.boolean(),
});
export type TMetricOption = z.infer<typeof ZMetricOption>;

export const ZCalculatedMetric = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, "The name field is required.").max(120),
  type: z.enum(CALCULATED_METRIC_TYPES),
  expression: z
    .string()
    .trim()
    .min(1, "The expression field is required.")
    .superRefine((expression, ctx) => {
      const parsed = parseExpression(expression);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: `${parsed.error} at character ${parsed.position + 1}.` });
    }),
});
export type TCalculatedMetric = z.infer<typeof ZCalculatedMetric>;

const ZInputScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/**
 * Type-form values: the parameters of the widget type plus calculatedMetrics, which every type accepts.
 * The catch-all admits calculated-metric lists too only so TypeScript's index signature stays
 * compatible with the named key; the named key is what is validated.
 */
export const ZInstanceInputs = z
  .object({ calculatedMetrics: z.array(ZCalculatedMetric).optional() })
  .catchall(z.union([ZInputScalar, z.array(z.union([z.string(), z.number()])), z.array(ZCalculatedMetric)]));
export type TInstanceInputs = z.infer<typeof ZInstanceInputs>;

/** Widget instance of docs/product.md §3: one query against one source; `config` is a preset key or 'custom'. */
export const ZWidgetInstance = z.object({
  id: z.string(),
  type: z.string(),
  prefix: z.string(),
  sourceId: z.string().nullable(),
  config: z.string(),
  currency: z.string().nullable(),
  accounts: z.array(z.string()),
  inputs: ZInstanceInputs,
  metricsOptions: z.record(z.string(), ZMetricOption),
});
export type TWidgetInstance = z.infer<typeof ZWidgetInstance>;

const widgetBase = {
  id: z.string(),
  realTime: z.boolean(),
  order: z.number().int(),
  hash: z.string(),
  width: z.number().int().min(1).max(GRID_COLUMNS),
  height: z.number().int().min(1).max(WIDGET_HEIGHTS.length),
  title: z.string().max(255),
  description: z.string().nullable(),
};

export const ZOrderBy = z.object({ column: z.string(), dir: z.enum(["asc", "desc"]) });
export type TOrderBy = z.infer<typeof ZOrderBy>;

/** Most goals one widget carries: one per metric and period is already more than a widget can show. */
export const MAX_WIDGET_GOALS = 10;

/** Smallest change a change goal may ask for: −100 % is nothing left, below it means nothing. */
export const MIN_GOAL_CHANGE_PERCENT = -100;

export const WIDGET_GOAL_MESSAGES = {
  metricRequired: "The metric field is required.",
  metricUnknown: "The selected metric is not one of this widget's metrics.",
  targetNumber: "The target must be a number.",
  targetNegative: "The target may not be negative.",
  changeTooLow: "The change must be more than −100 %.",
  period: "The period must be month, week, range or change.",
  duplicate: "This metric already has a goal for this period.",
  tooMany: `A widget may have at most ${MAX_WIDGET_GOALS} goals.`,
} as const;

/**
 * A target on one metric of an interactive widget (docs/product.md §3, "Goals"): a value per month, per week,
 * per the dashboard's range, or a percent change against the comparison period ("change": 10 is +10 %).
 * `metric` is the column key of the widget's table (`<prefix>.<metric>`, as widget alerts name it). A
 * lower-is-better metric's target is one to stay under. Negative targets only make sense as a change.
 */
export const ZWidgetGoal = z
  .object({
    metric: z
      .string({ error: WIDGET_GOAL_MESSAGES.metricRequired })
      .trim()
      .min(1, WIDGET_GOAL_MESSAGES.metricRequired)
      .max(200, WIDGET_GOAL_MESSAGES.metricUnknown),
    target: z
      .number({ error: WIDGET_GOAL_MESSAGES.targetNumber })
      .refine(Number.isFinite, WIDGET_GOAL_MESSAGES.targetNumber),
    period: z.enum(GOAL_PERIODS, { error: WIDGET_GOAL_MESSAGES.period }),
  })
  .superRefine((goal, ctx) => {
    if (goal.period !== "change" && goal.target < 0) {
      ctx.addIssue({ code: "custom", path: ["target"], message: WIDGET_GOAL_MESSAGES.targetNegative });
    }
    if (goal.period === "change" && goal.target <= MIN_GOAL_CHANGE_PERCENT) {
      ctx.addIssue({ code: "custom", path: ["target"], message: WIDGET_GOAL_MESSAGES.changeTooLow });
    }
  });
export type TWidgetGoal = z.infer<typeof ZWidgetGoal>;

export const ZWidgetGoals = z.array(ZWidgetGoal).max(MAX_WIDGET_GOALS, WIDGET_GOAL_MESSAGES.tooMany);

/**
 * Goals checked against the widget they sit on, each error under its own field (`goals.1.metric`): a
 * metric the widget does not show, and a second goal for the same metric and period.
 */
export function widgetGoalIssues(
  instances: TWidgetInstance[],
  goals: readonly TWidgetGoal[],
): { path: (string | number)[]; message: string }[] {
  const shown = new Set(
    widgetAlertMetrics({ nature: "interactive", instances } as TInteractiveWidget).map((metric) => metric.key),
  );
  const seen = new Set<string>();
  const issues: { path: (string | number)[]; message: string }[] = [];
  goals.forEach((goal, index) => {
    // A missing metric already has its own message ("required").
    if (typeof goal !== "object" || goal === null || typeof goal.metric !== "string" || goal.metric.trim() === "")
      return;
    if (!shown.has(goal.metric)) {
      issues.push({ path: ["goals", index, "metric"], message: WIDGET_GOAL_MESSAGES.metricUnknown });
      return;
    }
    const key = `${goal.metric}\u0000${goal.period}`;
    if (seen.has(key)) issues.push({ path: ["goals", index, "period"], message: WIDGET_GOAL_MESSAGES.duplicate });
    seen.add(key);
  });
  return issues;
}

/**
 * The goals' check against the instances, run even when another field of the widget failed (a bad
 * target must not hide an unknown metric: every field gets its 422 at once), but only over instances
 * and goals that are themselves well formed.
 */
function goalsAgainstInstances() {
  return z.superRefine(
    (value: { instances: TWidgetInstance[]; goals?: TWidgetGoal[] }, ctx) => {
      if (!Array.isArray(value.goals)) return;
      for (const issue of widgetGoalIssues(value.instances, value.goals)) ctx.addIssue({ code: "custom", ...issue });
    },
    {
      when: (payload) =>
        !payload.issues.some((issue) => issue.path?.[0] === "instances") &&
        Array.isArray((payload.value as { instances?: unknown }).instances),
    },
  );
}

export const ZInteractiveWidget = z
  .object({
    ...widgetBase,
    nature: z.literal("interactive"),
    format: ZWidgetFormat,
    percent: z.boolean(),
    hiddenChange: z.boolean(),
    hiddenHighlight: z.boolean(),
    /** The owner hid this widget's insights line (absent on widgets saved before: shown). */
    hiddenInsights: z.boolean().optional(),
    rowsLimit: z.number().int().min(1).max(1000),
    orderBy: ZOrderBy,
    formatOptions: ZFormatOptions,
    instances: z.array(ZWidgetInstance).min(1),
    /** Targets on the widget's metrics (absent on widgets saved before goals: none). */
    goals: ZWidgetGoals.optional(),
  })
  .check(goalsAgainstInstances());
export type TInteractiveWidget = z.infer<typeof ZInteractiveWidget>;

export const PASSIVE_WIDGET_TYPES = ["plain", "upload", "historic"] as const;

/** Passive inputs of docs/product.md §3: plain uses description; upload file/headers/contents; historic articles. */
export const ZPassiveInputs = z.object({
  description: z.string().optional(),
  file: z.string().nullable().optional(),
  headers: z.array(z.string()).optional(),
  contents: z.array(z.string()).optional(),
  articles: z
    .array(
      z.object({
        file: z.string().nullable(),
        header: z.string(),
        content: z.string(),
        description: z.string(),
        range: z.object({ startDate: ZDay, endDate: ZDay }),
      }),
    )
    .optional(),
});
export type TPassiveInputs = z.infer<typeof ZPassiveInputs>;

export const ZPassiveWidget = z.object({
  ...widgetBase,
  nature: z.literal("passive"),
  format: z.enum(PASSIVE_FORMATS),
  type: z.enum(PASSIVE_WIDGET_TYPES),
  inputs: ZPassiveInputs,
});
export type TPassiveWidget = z.infer<typeof ZPassiveWidget>;

export const ZWidget = z.discriminatedUnion("nature", [ZInteractiveWidget, ZPassiveWidget]);
export type TWidget = z.infer<typeof ZWidget>;

/**
 * GET /api/dashboards/{permalink} data (docs/product.md §7). `locked` is the id of the user holding the edit lock,
 * for members only: a public viewer gets no user ids.
 */
export const ZDashboard = z.object({
  id: z.string(),
  permalink: z.string(),
  name: z.string(),
  active: z.boolean(),
  rangeType: ZRangeType,
  startDate: ZDay,
  endDate: ZDay,
  compareStartDate: ZDay.nullable(),
  compareEndDate: ZDay.nullable(),
  defaults: z.record(z.string(), z.unknown()),
  widgets: z.array(ZWidget),
  /** The dashboard's automatic reports, for members only (a public viewer gets none: recipients are personal). */
  automaticReports: z.array(ZAutomaticReport),
  styles: ZDashboardStyles,
  passwordProtected: z.boolean(),
  locked: z.string().nullable(),
  hiddenDateSelector: z.boolean(),
  footer: z.string().nullable(),
  /** The language of its public, embedded, password and print views, its PDF and its e-mails. */
  language: ZLanguage,
  /** Public viewers only: the owning company's site title for the tab (white label; members use page data). */
  siteTitle: z.string().optional(),
});
export type TDashboard = z.infer<typeof ZDashboard>;
export const ZDashboardResponse = dataEnvelope(ZDashboard);

/** GET /api/dashboards/{permalink} query. */
export const ZDashboardShowQuery = z.object({ timezone: z.string().max(64).optional() });

export const ZDashboardListItem = z.object({
  id: z.string(),
  permalink: z.string(),
  name: z.string(),
  active: z.boolean(),
  passwordProtected: z.boolean(),
  widgetsCount: z.number().int(),
  updatedAt: z.string(),
});
export type TDashboardListItem = z.infer<typeof ZDashboardListItem>;

/** GET /api/dashboards query: `active` is the text 'true' or 'false' as it travels in the URL. */
export const ZDashboardListQuery = z.object({
  search: z
    .string()
    .trim()
    .max(120)
    .refine((value) => !value.includes("\u0000"), "The search may not contain NUL characters.")
    .optional(),
  active: z.enum(["true", "false"]).optional(),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
});
export type TDashboardListQuery = z.infer<typeof ZDashboardListQuery>;
export const ZDashboardListResponse = z.object({ data: z.array(ZDashboardListItem), meta: ZPageMeta });

/** POST /api/dashboards and POST /api/dashboards/{id}/clone answer with the new permalink. */
export const ZDashboardCreate = z.strictObject({
  name: z.string().trim().min(1, "The name field is required.").max(120),
  template: z.string().optional(),
});
export type TDashboardCreate = z.infer<typeof ZDashboardCreate>;
export const ZPermalinkResponse = dataEnvelope(z.object({ permalink: z.string() }));

/** A multipart field holding JSON, validated with `schema` after parsing. */
function zJsonField<T extends z.ZodTypeAny>(schema: T, label: string) {
  return z.preprocess((value, ctx) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      ctx.addIssue({ code: "custom", message: `The ${label} field must be valid JSON.` });
      return z.NEVER;
    }
  }, schema);
}

const zOptionalDay = z.preprocess((value) => (value === "" ? null : value), ZDay.nullable().optional());

/** POST /api/dashboards/{id} multipart save (docs/product.md §7); image files arrive as separate parts. */
export const ZDashboardSave = z
  .strictObject({
    // Strict like the form around it: a misspelt style ("bakgroundColor") is a 422, not silently lost.
    styles: zJsonField(z.strictObject(ZDashboardStyles.shape).partial(), "styles").optional(),
    widgets: zJsonField(z.array(ZWidget), "widgets").optional(),
    name: z.string().trim().min(1, "The name field is required.").max(120).optional(),
    hidden_date_selector: zFormBoolean.optional(),
    domain: z.string().trim().max(253).optional(),
    footer: z.string().max(10_000).optional(),
    range_type: ZRangeType.optional(),
    start: ZDay.optional(),
    end: ZDay.optional(),
    compare_start: zOptionalDay,
    compare_end: zOptionalDay,
    category: z.literal("files").optional(),
    language: ZLanguage.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.start === undefined) !== (value.end === undefined)) {
      ctx.addIssue({ code: "custom", path: ["end"], message: "The start and end dates must be sent together." });
    }
    if (!value.compare_start !== !value.compare_end) {
      ctx.addIssue({ code: "custom", path: ["compare_end"], message: "Both compare dates are required." });
    }
  });
export type TDashboardSave = z.infer<typeof ZDashboardSave>;
export const ZDashboardSaveResponse = dataEnvelope(
  z.object({
    styles: ZDashboardStyles,
    /** What the save did besides, for its user to hear ("The alert “Sessions goal is off pace” was removed with its goal."). */
    notices: z.array(z.string()).optional(),
  }),
);

/**
 * A query result (docs/decisions.md, the widget data path): one dimension column or none, then metric columns. Values are
 * null where a number cannot be shown (NaN and Infinity do not survive JSON); they display as N/A.
 * Time columns hold seconds.
 */
export const ZTableDimension = z.object({ key: z.string(), label: z.string(), kind: z.enum(["date", "string"]) });
export const ZTableMetric = z.object({
  key: z.string(),
  label: z.string(),
  format: z.enum(["number", "money", "percent", "time"]),
  currency: z.string().nullable().optional(),
  /** Declared by the connector: a fall is good news (average position, bounce rate, cost per click). */
  lowerIsBetter: z.boolean().optional(),
});
export const ZTableRow = z.object({ dimension: z.string().nullable(), values: z.array(z.number().nullable()) });
export const ZTable = z.object({
  dimension: ZTableDimension.nullable(),
  metrics: z.array(ZTableMetric),
  rows: z.array(ZTableRow),
  totals: z.array(z.number().nullable()),
  /** Set on a stored result served because the provider failed for now (the answer lists it in `notices`). */
  notice: z.object({ asOf: z.string(), message: z.string() }).optional(),
  /**
   * Why there are no rows, when the provider said it has nothing (SEMrush's "nothing found" for a new or
   * small domain): an answer like any other, kept and stored as such; the widget's "No data" says it
   * (the answer lists it in `noData`).
   */
  emptyReason: z.string().optional(),
});
export type TTable = z.infer<typeof ZTable>;
export type TTableMetric = z.infer<typeof ZTableMetric>;

export const ZWidgetData = z.object({ current: ZTable, previous: ZTable.nullable() });
/**
 * A stored result served instead of a fresh one because the provider failed for now (quota, throttling,
 * an outage): the widget shows "Data as of {asOf} — {message}" (docs/decisions.md, "Persistent results").
 */
export const ZWidgetDataNotice = z.object({
  instanceId: z.string(),
  /** When the stored result was fetched (ISO instant). */
  asOf: z.string(),
  /** Why it is not fresh, naming the provider ("Google Analytics quota reached"). */
  message: z.string(),
});
export type TWidgetDataNotice = z.infer<typeof ZWidgetDataNotice>;
export type TWidgetData = z.infer<typeof ZWidgetData>;

/** Widget-data request: the widget's instances, the range, an optional custom compare range and the zone. */
export const ZWidgetDataRequest = z
  .strictObject({
    widgetId: z.string().optional(),
    instances: z.array(ZWidgetInstance).min(1),
    startDate: ZDay,
    endDate: ZDay,
    /** Both absent means the default compare range; `comparison: false` skips the previous table. */
    compareStartDate: ZDay.nullable().optional(),
    compareEndDate: ZDay.nullable().optional(),
    comparison: z.boolean().default(true),
    timezone: z.string().max(64).default("UTC"),
    /** The widget's goals, answered in `goals` (checked against the instances' metrics: 422 under `goals.N`). */
    goals: ZWidgetGoals.optional(),
  })
  .refine((value) => value.startDate <= value.endDate, {
    path: ["endDate"],
    message: "The end date is before the start.",
  })
  .refine((value) => !value.compareStartDate === !value.compareEndDate, {
    path: ["compareEndDate"],
    message: "Both compare dates are required.",
  })
  .check(goalsAgainstInstances());
export type TWidgetDataRequest = z.infer<typeof ZWidgetDataRequest>;

/** Instances whose source failed; the widget shows 'Data Error' for them (docs/decisions.md, the widget data path). */
export const ZWidgetDataError = z.object({ instanceId: z.string(), message: z.string() });
/** A filter an instance's inputs apply, in words: the widget says it under its content. */
export const ZWidgetDataFilter = z.object({ instanceId: z.string(), text: z.string() });
/** An instance whose provider has no data for its inputs, and why: the widget's "No data" state says it. */
export const ZWidgetDataNoData = z.object({ instanceId: z.string(), reason: z.string() });
/**
 * One goal of the widget-data answer (docs/decisions.md, "Goals: periods, pace and lagging days"):
 * everything a view draws without re-deriving a rule. `value`, `projected` and `threshold` are in the
 * metric's own unit (its column's format); `progress` is value / threshold (0.83 = 83 %).
 */
export const ZWidgetGoalResult = z.object({
  metric: z.string(),
  target: z.number(),
  period: z.enum(GOAL_PERIODS),
  /** The days the goal measures: the month or week holding the range's last day, or the range. */
  startDate: ZDay,
  endDate: ZDay,
  /** The last day with numbers shown (yesterday or the period's end); null before the period starts. */
  dataThrough: ZDay.nullable(),
  /** The last day the provider has finished; later days are projected from their usual values. */
  settledThrough: ZDay,
  daysTotal: z.number().int(),
  /** Days still to come, today included; 0 once the period is over. */
  daysLeft: z.number().int(),
  /** 'sum' adds up over days; 'average' is a rate or a mean (bounce rate, position). */
  aggregation: z.enum(["sum", "average"]),
  /** A target to stay under. */
  lowerIsBetter: z.boolean(),
  /** What the value must reach (or stay under): the target, or baseline × (1 + target %) for a change goal. */
  threshold: z.number().nullable(),
  /** A change goal's comparison-period value. */
  baseline: z.number().nullable(),
  value: z.number().nullable(),
  progress: z.number().nullable(),
  projected: z.number().nullable(),
  onTrack: z.boolean().nullable(),
  status: z.enum(["met", "ahead", "short", "under", "over", "unknown"]),
  /** (projected − threshold) / threshold, in percent. */
  gapPercent: z.number().nullable(),
  /**
   * The goal's line in English words, and its parts (core goals/sentence.ts), for the answer's readers
   * (the owner's alerts quote it); a dashboard's views word the figures above in its language themselves.
   */
  line: z.string(),
  /** `period` names what the goal counts ("November", "This week"; null for a range goal). */
  parts: z.object({
    period: z.string().nullable(),
    progress: z.string(),
    time: z.string(),
    pace: z.string().nullable(),
  }),
});
export type TWidgetGoalResult = z.infer<typeof ZWidgetGoalResult>;

export const ZWidgetDataResponse = dataEnvelope(
  ZWidgetData.extend({
    /** The request's goals, in its order; absent when it had none. A goal whose metric failed to load is left out. */
    goals: z.array(ZWidgetGoalResult).optional(),
    errors: z.array(ZWidgetDataError),
    notices: z.array(ZWidgetDataNotice).optional(),
    filters: z.array(ZWidgetDataFilter).optional(),
    noData: z.array(ZWidgetDataNoData).optional(),
  }),
);
export type TWidgetDataResponse = z.infer<typeof ZWidgetDataResponse>;
