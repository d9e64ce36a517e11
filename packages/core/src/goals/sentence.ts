import type { TTableMetric } from "../contract/dashboards";
import { formatNumber, numberFormatter } from "../format/number";
import type { Translator } from "../i18n/translator";
import { ENGLISH_GOALS } from "./english";
import type { GoalProgress, GoalStatus } from "./pace";
import type { GoalPeriod } from "./period";

type MetricDisplay = Pick<TTableMetric, "format" | "currency">;

/** What a goal's line is said with: the dashboard's translator (its messages and its locale's numbers). */
export type GoalWords = Pick<Translator, "t" | "locale">;

/**
 * A goal's figures and, when known, what it measures: the period names the line ("November: …"), since
 * a key figure shows the dashboard's range while a month's goal counts the month so far.
 */
export type GoalLineInput = GoalProgress & { period?: GoalPeriod; startDate?: string };

/** The parts of a goal's line, each already in words, for a view that lays them out itself. */
export interface GoalLineParts {
  /** "November", "This week", "vs previous period"; null for a range goal (it measures what the card shows). */
  period: string | null;
  /** "58,439 of 70,000 (83 %)" */
  progress: string;
  /** "3 days left" or "ended". */
  time: string;
  /** "on pace for 64,100, 8 % short", "target met", …; null when there is nothing to say. */
  pace: string | null;
}

/** Between the parts of a line: a sign, not a word, the same in every language. */
export const GOAL_SEPARATOR = " · ";

/**
 * A percent of the line: whole numbers, "83 %" in English as it always read (a gap under 1 % says
 * "<1 %", never "0 % short"); other languages as their locale writes a percent ("83 %", "83 %").
 */
function percentText(share: number, locale: string): string {
  const rounded = Math.round(Math.abs(share));
  const below = rounded === 0 && share !== 0;
  if (locale === "en-US") return below ? "<1 %" : `${rounded} %`;
  const shown = numberFormatter(locale, { style: "percent", maximumFractionDigits: 0 }).format(
    (below ? 1 : rounded) / 100,
  );
  return below ? `<${shown}` : shown;
}

/** A projection is an estimate: three significant digits from the thousands up (64,100, not 64,087.3). */
function roughly(value: number): number {
  if (Math.abs(value) < 1000) return value;
  const scale = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 2);
  return Math.round(value / scale) * scale;
}

const capitalised = (text: string, locale: string) => text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);

/** A day (`yyyy-MM-dd`) as a date of its own calendar, whatever the clock's zone. */
const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The period a goal measures, in words: its month's name ("November", capitalised as a line's first
 * word: "Novembre"), "This week" while the week runs and "Week of Nov 24" once it has ended, "vs previous
 * period" for a change; a range goal measures the range the card shows, so it needs no name.
 */
function periodText(goal: GoalLineInput, words: GoalWords): string | null {
  if (!goal.period || !goal.startDate) return null;
  switch (goal.period) {
    case "month": {
      const month = new Intl.DateTimeFormat(words.locale, { month: "long", timeZone: "UTC" });
      return capitalised(month.format(utcDay(goal.startDate)), words.locale);
    }
    case "week": {
      if (goal.daysLeft > 0) return words.t("goals.periodWeek");
      const day = new Intl.DateTimeFormat(words.locale, { month: "short", day: "numeric", timeZone: "UTC" });
      return words.t("goals.periodWeekOf", { start: day.format(utcDay(goal.startDate)) });
    }
    case "change":
      return words.t("goals.periodChange");
    case "range":
      return null;
  }
}

/**
 * The parts of a goal's line, numbers shown as the widget shows its metric (format, currency) in the
 * translator's locale; English (goals/english.ts) unless a dashboard's translator is given.
 */
export function goalLineParts(
  goal: GoalLineInput,
  metric: MetricDisplay,
  words: GoalWords = ENGLISH_GOALS,
): GoalLineParts {
  const { t, locale } = words;
  const show = (value: number) =>
    formatNumber(value, { format: metric.format, currency: metric.currency ?? null, locale });
  const threshold = goal.threshold === null ? null : show(goal.threshold);
  const progress =
    threshold === null
      ? goal.value === null
        ? t("goals.noBaseline")
        : show(goal.value)
      : goal.value === null
        ? t("goals.noData", { threshold })
        : goal.progress === null
          ? t("goals.progress", { value: show(goal.value), threshold })
          : t("goals.progressPercent", {
              value: show(goal.value),
              threshold,
              percent: percentText(goal.progress * 100, locale),
            });
  const time = goal.daysLeft > 0 ? t("goals.daysLeft", { days: goal.daysLeft }) : t("goals.ended");
  let pace: string | null = null;
  const gap = goal.gapPercent === null ? null : percentText(goal.gapPercent, locale);
  if (goal.status === "met") pace = t("goals.met");
  else if (goal.status === "unknown") pace = goal.threshold === null ? null : t("goals.noPace");
  else if (gap !== null && (goal.daysLeft === 0 || goal.projected === null))
    pace = t("goals.gap", { gap, side: goal.status });
  else if (gap !== null && goal.projected !== null)
    pace = t("goals.onPace", { projected: show(roughly(goal.projected)), gap, side: goal.status });
  return { period: periodText(goal, words), progress, time, pace };
}

/** The line's words after its period: "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short". */
export function goalLineBody(parts: GoalLineParts): string {
  return [parts.progress, parts.time, parts.pace].filter((part) => part !== null).join(GOAL_SEPARATOR);
}

/** "November: 58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short" */
export function goalLine(goal: GoalLineInput, metric: MetricDisplay, words: GoalWords = ENGLISH_GOALS): string {
  const parts = goalLineParts(goal, metric, words);
  const line = goalLineBody(parts);
  return parts.period === null ? line : words.t("goals.withPeriod", { period: parts.period, line });
}

/** One goal as the summary counts it. */
export interface GoalSummaryItem {
  label: string;
  status: GoalStatus;
  gapPercent: number | null;
}

/**
 * The goals' line of the insights summary: "2 of 5 goals on track; Revenue 12 % short", naming the goal
 * furthest off; goals without a verdict ('unknown') are not counted. Null when no goal has a verdict.
 * Said in the dashboard's language when its translator is given.
 */
export function goalsSummary(goals: readonly GoalSummaryItem[], words: GoalWords = ENGLISH_GOALS): string | null {
  const judged = goals.filter((goal) => goal.status !== "unknown");
  if (judged.length === 0) return null;
  const onTrack = judged.filter((goal) => goal.status === "met" || goal.status === "ahead" || goal.status === "under");
  const count = words.t("goals.summaryCount", { onTrack: onTrack.length, total: judged.length });
  const off = judged
    .filter((goal) => (goal.status === "short" || goal.status === "over") && goal.gapPercent !== null)
    .sort((a, b) => Math.abs(b.gapPercent as number) - Math.abs(a.gapPercent as number))[0];
  if (!off) return count;
  const worst = words.t("goals.summaryWorst", {
    label: off.label,
    gap: percentText(off.gapPercent as number, words.locale),
    side: off.status,
  });
  return words.t("goals.summary", { count, worst });
}
