import { endOfMonth } from "date-fns/endOfMonth";
import { startOfMonth } from "date-fns/startOfMonth";
import { startOfWeek } from "date-fns/startOfWeek";
import { subMonths } from "date-fns/subMonths";
import { clampDay, daysBetween, formatDay, isValidDay, minDay, parseDay, shiftDay } from "./day";

/** Range types of the date-range picker dropdown, in the product's order (docs/product.md §2). */
export const RANGE_TYPES = [
  { key: "monthly", label: "Monthly" },
  { key: "weekly", label: "Weekly" },
  { key: "last_30_days", label: "Last 30 Days" },
  { key: "last_7_days", label: "Last 7 Days" },
  { key: "last_month", label: "Last Month" },
  { key: "mid_monthly", label: "Mid-Monthly" },
  { key: "daily", label: "Daily" },
  { key: "custom", label: "Custom" },
] as const;

export type RangeType = (typeof RANGE_TYPES)[number]["key"];
export type PresetRangeType = Exclude<RangeType, "custom">;
export const RANGE_TYPE_KEYS = RANGE_TYPES.map((type) => type.key) as [RangeType, ...RangeType[]];

/** The day the mid-monthly period starts on (docs/product.md §9: 15th to 14th of next month). */
export const MID_MONTH_START_DAY = 15;

/** A main range: both ends inclusive, `yyyy-MM-dd`. */
export interface DayRange {
  startDate: string;
  endDate: string;
}

/** The date state of a dashboard (docs/product.md §3/§4); dates may be unset while a user is picking. */
export interface DashboardDateRange {
  rangeType: RangeType;
  startDate: string | null;
  endDate: string | null;
  compareStartDate: string | null;
  compareEndDate: string | null;
  customCompare: boolean;
}

export interface RangeLimits {
  /** Today in the viewer's time zone, `yyyy-MM-dd`. */
  today: string;
  /** docs/product.md §5: pickers are past-only up to yesterday unless today is allowed. */
  allowToday?: boolean;
  minDate?: string | null;
  /** Overrides the yesterday/today default when given. */
  maxDate?: string | null;
}

/** The latest selectable day: maxDate if given, else today or yesterday (docs/product.md §5). */
export function latestAllowedDay(limits: RangeLimits): string {
  if (limits.maxDate) return limits.maxDate;
  return limits.allowToday ? limits.today : shiftDay(limits.today, -1);
}

/** Label of a range type key, e.g. 'last_30_days' → 'Last 30 Days'. */
export function rangeTypeLabel(type: RangeType): string {
  return RANGE_TYPES.find((entry) => entry.key === type)?.label ?? type;
}

/** True when `value` is one of the RANGE_TYPES keys. */
export function isRangeType(value: unknown): value is RangeType {
  return typeof value === "string" && (RANGE_TYPE_KEYS as readonly string[]).includes(value);
}

/**
 * Dates of a preset range type. Every preset ends at the latest allowed day (yesterday by default),
 * so 'Last 30 Days' is that day plus the 29 before it; the month- and week-based presets are the
 * period that contains that day, cut at it. 'Last Month' is the calendar month before today's.
 */
export function rangeForType(type: PresetRangeType, limits: RangeLimits): DayRange {
  const end = latestAllowedDay(limits);
  const endDate = parseDay(end);
  switch (type) {
    case "monthly":
      return { startDate: formatDay(startOfMonth(endDate)), endDate: end };
    case "weekly":
      return { startDate: formatDay(startOfWeek(endDate, { weekStartsOn: 1 })), endDate: end };
    case "last_30_days":
      return { startDate: shiftDay(end, -29), endDate: end };
    case "last_7_days":
      return { startDate: shiftDay(end, -6), endDate: end };
    case "last_month": {
      const previous = subMonths(startOfMonth(parseDay(limits.today)), 1);
      return { startDate: formatDay(previous), endDate: formatDay(endOfMonth(previous)) };
    }
    case "mid_monthly":
      return midMonthlyRange(end);
    case "daily":
      return { startDate: end, endDate: end };
  }
}

/** The most recent 15th-to-14th period that has started by `end`, cut at `end`. */
function midMonthlyRange(end: string): DayRange {
  const endDate = parseDay(end);
  const monthStart = startOfMonth(endDate);
  const periodMonth = endDate.getDate() >= MID_MONTH_START_DAY ? monthStart : subMonths(monthStart, 1);
  const startDate = shiftDay(formatDay(periodMonth), MID_MONTH_START_DAY - 1);
  const periodEnd = shiftDay(formatDay(subMonths(parseDay(startDate), -1)), -1);
  return { startDate, endDate: minDay(periodEnd, end) };
}

/** docs/product.md §4: the comparison period is the same number of days immediately before the main range. */
export function defaultCompareRange(startDate: string, endDate: string): DayRange {
  const compareEnd = shiftDay(startDate, -1);
  return { startDate: shiftDay(compareEnd, -daysBetween(startDate, endDate)), endDate: compareEnd };
}

/** True when the compare dates are absent or equal the default period directly before the range. */
export function isDefaultCompare(
  range: DayRange,
  compareStartDate: string | null | undefined,
  compareEndDate: string | null | undefined,
): boolean {
  if (!compareStartDate || !compareEndDate) return true;
  const fallback = defaultCompareRange(range.startDate, range.endDate);
  return fallback.startDate === compareStartDate && fallback.endDate === compareEndDate;
}

export interface PickedRange {
  startDate: string | null;
  endDate: string | null;
  compareStartDate?: string | null;
  compareEndDate?: string | null;
}

function orderPair(start: string | null, end: string | null): [string | null, string | null] {
  return start && end && end < start ? [end, start] : [start, end];
}

/**
 * docs/product.md §5 picker rules: an end before its start swaps; every date is clamped to [min, max];
 * the compare range is then clamped so it never extends beyond the main range's end.
 * Unset dates stay unset so a half-picked range survives normalising.
 */
export function normaliseRange<T extends PickedRange>(range: T, limits: RangeLimits): T & Required<PickedRange> {
  const max = latestAllowedDay(limits);
  const clamp = (day: string | null | undefined) => (day ? clampDay(day, limits.minDate, max) : null);
  const [startDate, endDate] = orderPair(clamp(range.startDate), clamp(range.endDate));
  let [compareStartDate, compareEndDate] = orderPair(clamp(range.compareStartDate), clamp(range.compareEndDate));
  if (endDate) {
    compareStartDate = compareStartDate ? minDay(compareStartDate, endDate) : compareStartDate;
    compareEndDate = compareEndDate ? minDay(compareEndDate, endDate) : compareEndDate;
  }
  return { ...range, startDate, endDate, compareStartDate, compareEndDate };
}

/** docs/product.md §5: Apply is enabled only when every required date is set (compare dates only with custom compare). */
export function canApply(range: PickedRange & { customCompare?: boolean }): boolean {
  const required = [range.startDate, range.endDate];
  if (range.customCompare) required.push(range.compareStartDate ?? null, range.compareEndDate ?? null);
  return required.every((day) => isValidDay(day));
}

/** The comparison range actually used: the custom one when switched on and set, else the default. */
export function effectiveCompareRange(range: DashboardDateRange): DayRange | null {
  if (!range.startDate || !range.endDate) return null;
  if (range.customCompare && range.compareStartDate && range.compareEndDate) {
    return { startDate: range.compareStartDate, endDate: range.compareEndDate };
  }
  return defaultCompareRange(range.startDate, range.endDate);
}

/**
 * docs/product.md §4: switching to a non-custom type recomputes the dates (and the default compare range)
 * and turns custom compare off; switching to Custom keeps the dates the user sees.
 */
export function switchRangeType(range: DashboardDateRange, type: RangeType, limits: RangeLimits): DashboardDateRange {
  if (type === "custom") return { ...range, rangeType: type };
  const main = rangeForType(type, limits);
  const compare = defaultCompareRange(main.startDate, main.endDate);
  return {
    rangeType: type,
    startDate: main.startDate,
    endDate: main.endDate,
    compareStartDate: compare.startDate,
    compareEndDate: compare.endDate,
    customCompare: false,
  };
}

/** A dashboard's dates for a range type, e.g. when a new dashboard is created or loaded with a preset. */
export function dashboardRangeFor(type: PresetRangeType, limits: RangeLimits): DashboardDateRange {
  const seed: DashboardDateRange = {
    rangeType: type,
    startDate: null,
    endDate: null,
    compareStartDate: null,
    compareEndDate: null,
    customCompare: false,
  };
  return switchRangeType(seed, type, limits);
}

/** Number of days in an inclusive range. */
export function rangeLength(range: DayRange): number {
  return daysBetween(range.startDate, range.endDate) + 1;
}
