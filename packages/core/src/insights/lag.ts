import { shiftDay } from "../dates/day";
import type { DayRange } from "../dates/ranges";

/**
 * The last day whose numbers a provider has finished, seen on `today` (the dashboard's zone): a
 * connector with `lagDays` keeps filling in that many days before today (Search Console's "fresh"
 * data, GA4's processing, Ads conversions arriving late), and today is never finished.
 */
export function lastFinalDay(today: string, lagDays: number): string {
  return shiftDay(today, -1 - Math.max(0, Math.floor(lagDays)));
}

/**
 * Whether insights may judge a range of a lagging connector: false when the range (or its comparison)
 * ends after its last final day. The widget's totals include the unfinished days, so a sentence about
 * them would read a late-arriving tail as a drop; leaving those days out instead would state numbers
 * the widget does not show. A connector without a lag (0) is judged as its widgets show it.
 */
export function rangeSettled(range: DayRange, comparison: DayRange | null, lagDays: number, today: string): boolean {
  if (!(lagDays > 0)) return true;
  const last = lastFinalDay(today, lagDays);
  return range.endDate <= last && (comparison === null || comparison.endDate <= last);
}
