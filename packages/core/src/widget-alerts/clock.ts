import { shiftDay, todayInTimezone } from "../dates/day";
import { type DayRange, isRangeType, type PresetRangeType, rangeForType } from "../dates/ranges";
import { normaliseTimeZone } from "../dates/zone";

/** The range a dashboard whose dates are custom (fixed) is judged over: a fixed range would never change again. */
export const WIDGET_ALERT_FALLBACK_RANGE: PresetRangeType = "last_30_days";

/**
 * One evaluation pass's clock: the company's zone and its today. Every rule of the pass judges on it
 * (thresholds, changes and anomalies as well as off-pace), so an alert names the same "yesterday" as
 * the agency's dashboard, whose presets end at that zone's yesterday.
 */
export interface WidgetAlertClock {
  /** The company's time zone; UTC when it has none or an unknown one. */
  zone: string;
  today: string;
  /** The latest whole day in that zone (today's yesterday): where an anomaly rule's daily series ends. */
  lastDay: string;
}

/** The pass's clock at `now` for a company whose time zone is `companyZone`. */
export function widgetAlertClock(now: Date, companyZone: string | null | undefined): WidgetAlertClock {
  const zone = normaliseTimeZone(companyZone) ?? "UTC";
  const today = todayInTimezone(zone, now);
  return { zone, today, lastDay: shiftDay(today, -1) };
}

/** The period a dashboard with `rangeType` shows on `today` (a custom range: the fallback preset). */
export function widgetAlertPeriod(rangeType: string | null, today: string): DayRange {
  const type = isRangeType(rangeType) && rangeType !== "custom" ? rangeType : WIDGET_ALERT_FALLBACK_RANGE;
  return rangeForType(type, { today });
}
