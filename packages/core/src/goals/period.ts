import { endOfMonth } from "date-fns/endOfMonth";
import { endOfWeek } from "date-fns/endOfWeek";
import { startOfMonth } from "date-fns/startOfMonth";
import { startOfWeek } from "date-fns/startOfWeek";
import { daysBetween, formatDay, maxDay, minDay, parseDay, shiftDay } from "../dates/day";
import type { DayRange } from "../dates/ranges";

/**
 * What a goal measures (docs/decisions.md, "Goals: periods, pace and lagging days"): a calendar month,
 * a Monday-to-Sunday week, the dashboard's range, or the range's change against its comparison period.
 */
export const GOAL_PERIODS = ["month", "week", "range", "change"] as const;
export type GoalPeriod = (typeof GOAL_PERIODS)[number];

/**
 * The days a goal measures, for a dashboard showing `range`. A month or a week is the one holding the
 * range's last day, so a dashboard looking at last month shows last month's goal, and one on "Monthly"
 * (which ends yesterday) shows this month's, days still to come included. Days are calendar days of the
 * dashboard's zone (`yyyy-MM-dd`), so a clock change inside the period changes no count.
 */
export function goalPeriodRange(period: GoalPeriod, range: DayRange): DayRange {
  const end = parseDay(range.endDate);
  switch (period) {
    case "month":
      return { startDate: formatDay(startOfMonth(end)), endDate: formatDay(endOfMonth(end)) };
    case "week":
      // The product's weeks start on Monday (the "Weekly" preset, dates/ranges.ts).
      return {
        startDate: formatDay(startOfWeek(end, { weekStartsOn: 1 })),
        endDate: formatDay(endOfWeek(end, { weekStartsOn: 1 })),
      };
    case "range":
    case "change":
      return { startDate: range.startDate, endDate: range.endDate };
  }
}

/** Where "today" (the viewer's, in the dashboard's zone) stands in a goal's period. */
export interface GoalClock {
  /** Days in the period, both ends counted. */
  daysTotal: number;
  /** The last day with numbers to show: yesterday (today is never finished) or the period's end; null before it starts. */
  dataThrough: string | null;
  /** Days after `dataThrough` to the period's end, today included: what is still to come. */
  daysLeft: number;
}

/** The period against today: how many days it has, which of them have numbers, how many are left. */
export function goalClock(period: DayRange, today: string): GoalClock {
  const daysTotal = daysBetween(period.startDate, period.endDate) + 1;
  const yesterday = shiftDay(today, -1);
  const dataThrough = period.startDate > yesterday ? null : minDay(period.endDate, yesterday);
  const daysLeft =
    dataThrough === null ? daysTotal : Math.max(0, daysBetween(maxDay(dataThrough, period.startDate), period.endDate));
  return { daysTotal, dataThrough, daysLeft };
}
