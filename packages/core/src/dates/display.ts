import { format } from "date-fns";
import { isValidDay, parseDay } from "./day";

/** Display format of a day in pickers and reports (docs/product.md §9: like 'Jan 05, 2026'). */
export const DISPLAY_DATE_FORMAT = "MMM dd, yyyy";

/** Picker placeholders of docs/product.md §2. */
export const DATE_PICKER_EMPTY_TEXT = { single: "Select date", range: "Set date range" } as const;

/** Separator between the two ends of a displayed range. */
export const RANGE_SEPARATOR = " - ";

/** The calendar year dropdown spans 5 years before to 6 after the current year (docs/product.md §9). */
export const YEARS_BEFORE = 5;
export const YEARS_AFTER = 6;

/** 'yyyy-MM-dd' → 'MMM dd, yyyy'; an unset or invalid day shows as an empty string. */
export function formatDisplayDate(day: string | null | undefined): string {
  return isValidDay(day) ? format(parseDay(day), DISPLAY_DATE_FORMAT) : "";
}

/** Text of a single-date picker: the date, or 'Select date' when empty. */
export function singleDateText(day: string | null | undefined): string {
  return formatDisplayDate(day) || DATE_PICKER_EMPTY_TEXT.single;
}

/** Text of a range picker: 'Jan 01, 2026 - Jan 31, 2026', or 'Set date range' until both ends are set. */
export function rangeText(startDate: string | null | undefined, endDate: string | null | undefined): string {
  const start = formatDisplayDate(startDate);
  const end = formatDisplayDate(endDate);
  if (!start || !end) return DATE_PICKER_EMPTY_TEXT.range;
  return start === end ? start : `${start}${RANGE_SEPARATOR}${end}`;
}

/** Years of the calendar dropdown for the year of `today` ('yyyy-MM-dd'), ascending. */
export function yearOptions(today: string): number[] {
  const year = Number(today.slice(0, 4));
  return Array.from({ length: YEARS_BEFORE + YEARS_AFTER + 1 }, (_, index) => year - YEARS_BEFORE + index);
}

/** Name of the default comparison, in legends and tooltips. */
export const PREVIOUS_PERIOD_LABEL = "Previous period";

/**
 * How the comparison period is named in the dashboard header and chart legends. A custom comparison
 * is named by its days, 'vs Oct 1 – Oct 14' (years shown only when the two ends differ in year or the
 * range is not in `currentYear`); the default one is 'Previous period'.
 */
export function comparisonLabel(
  compareStartDate: string | null | undefined,
  compareEndDate: string | null | undefined,
  currentYear?: number,
): string {
  if (!isValidDay(compareStartDate) || !isValidDay(compareEndDate)) return PREVIOUS_PERIOD_LABEL;
  const start = parseDay(compareStartDate);
  const end = parseDay(compareEndDate);
  const withYear =
    start.getFullYear() !== end.getFullYear() || (currentYear !== undefined && end.getFullYear() !== currentYear);
  const day = (date: Date) => format(date, withYear ? "MMM d, yyyy" : "MMM d");
  return compareStartDate === compareEndDate ? `vs ${day(start)}` : `vs ${day(start)} – ${day(end)}`;
}
