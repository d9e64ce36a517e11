import {
  ENGLISH_GOALS,
  formatNumber,
  GOAL_SEPARATOR,
  type GoalWords,
  goalLineParts,
  type TTable,
  type TTableMetric,
  type TWidgetGoalResult,
} from "@app/core";
import type { Translator } from "@app/core/i18n/translator";
import type { ChartTarget } from "../charts/chart-common";

/** One goal as a widget shows it, all from the widget-data answer (its words and figures). */
export interface GoalView {
  /** The table column it is on. */
  metricKey: string;
  /** One goal per metric and period (the contract refuses a second): with the metric, the goal's key. */
  period: TWidgetGoalResult["period"];
  name: string;
  /** Bar fill, 0 to 100: how far along the value is to the target (or, under a ceiling, how much is used). */
  fill: number;
  /** The line before its verdict: 'November: 58,439 of 70,000 (83 %) · 3 days left · '. */
  lead: string;
  /** 'on pace for 64,100, 8 % short', 'target met'…; '' when the answer has no verdict. */
  status: string;
  tone: "good" | "bad" | "unknown";
  /** The whole line, named by its metric when the widget shows several. */
  text: string;
  /** How far along, in words, for the bar: '58,439 of 70,000 (83 %)'. */
  progressText: string;
  /** Named in the line when the widget shows several metrics. */
  showName: boolean;
  /** The name as the line starts with it: 'Sessions: ', or 'Sessions · ' before a period's 'November: '. */
  nameText: string;
  /** The bar's name for a screen reader: 'Sessions towards its goal'. */
  barLabel: string;
}

/**
 * The words of a goal's line: the dashboard's translator, or core's English without the ICU library
 * where the page shows plain English (i18n.tsx's fallback cannot say a plural; both say the same English).
 */
function goalWords(i18n: Translator): GoalWords {
  return i18n.language === "en" ? ENGLISH_GOALS : i18n;
}

/** The table column a goal is on (goals name their column key, `<prefix>.<metric>`). */
export function goalColumn(table: TTable, metric: string): TTableMetric | null {
  return table.metrics.find((column) => column.key === metric) ?? null;
}

/**
 * A goal's bar and line from the answer's figures, worded by core's goals/sentence.ts in the dashboard's
 * language (the server's own English line is for the owner's alerts): nothing is computed again here,
 * so the dashboard, its public and print views and the PDF say what the report e-mail's figures say.
 */
export function goalView(goal: TWidgetGoalResult, metric: TTableMetric, showName: boolean, i18n: Translator): GoalView {
  const words = goalWords(i18n);
  const parts = goalLineParts(goal, metric, words);
  const body = [parts.progress, parts.time].join(GOAL_SEPARATOR);
  const lead = parts.period === null ? body : words.t("goals.withPeriod", { period: parts.period, line: body });
  const status = parts.pace ?? "";
  const line = status ? `${lead}${GOAL_SEPARATOR}${status}` : lead;
  const progress = goal.progress === null || !Number.isFinite(goal.progress) ? 0 : goal.progress * 100;
  const nameText = parts.period === null ? `${metric.label}: ` : `${metric.label}${GOAL_SEPARATOR}`;
  return {
    metricKey: goal.metric,
    period: goal.period,
    name: metric.label,
    fill: Math.max(0, Math.min(100, Math.round(progress))),
    lead: status ? `${lead}${GOAL_SEPARATOR}` : lead,
    status,
    tone: goal.onTrack === null ? "unknown" : goal.onTrack ? "good" : "bad",
    text: `${showName ? nameText : ""}${line}`,
    progressText: parts.progress,
    showName,
    nameText,
    barLabel: i18n.t("goalMarks.bar", { metric: metric.label }),
  };
}

/** The goals a widget shows: those on a column of its table, in the answer's order. */
export function goalViews(
  goals: readonly TWidgetGoalResult[] | undefined,
  table: TTable,
  i18n: Translator,
): GoalView[] {
  const shown = (goals ?? []).flatMap((goal) => {
    const metric = goalColumn(table, goal.metric);
    return metric ? [{ goal, metric }] : [];
  });
  const named = new Set(shown.map(({ goal }) => goal.metric)).size > 1 || table.metrics.length > 1;
  return shown.map(({ goal, metric }) => goalView(goal, metric, named, i18n));
}

/**
 * The goals as a chart draws them: on a chart over days a day's share of a goal that adds up over days
 * (threshold ÷ the period's days: 'Target 2,258 a day'), the threshold itself for a rate or an average;
 * on a gauge the threshold. Goals without a threshold (a change goal with nothing to compare) draw nothing.
 */
export function chartTargets(
  goals: readonly TWidgetGoalResult[] | undefined,
  table: TTable,
  i18n: Translator,
): ChartTarget[] {
  const daily = table.dimension?.kind === "date";
  return (goals ?? []).flatMap((goal) => {
    const metric = goalColumn(table, goal.metric);
    if (!metric || goal.threshold === null || !Number.isFinite(goal.threshold)) return [];
    const perDay = daily && goal.aggregation === "sum" && goal.daysTotal > 0;
    // A day's share of a count reads as a whole number (167 sessions a day, not 166.67).
    const share = goal.threshold / goal.daysTotal;
    const value = perDay ? (metric.format === "number" ? Math.round(share) : share) : goal.threshold;
    const shown = formatNumber(value, {
      format: metric.format,
      currency: metric.currency ?? null,
      locale: i18n.locale,
    });
    const key = goal.lowerIsBetter
      ? perDay
        ? "goalMarks.stayUnderPerDay"
        : "goalMarks.stayUnder"
      : perDay
        ? "goalMarks.targetPerDay"
        : "goalMarks.target";
    return [{ metricKey: goal.metric, value, label: i18n.t(key, { value: shown }), onTrack: goal.onTrack }];
  });
}
