import { TZDate } from "@date-fns/tz";
import { addDays } from "date-fns/addDays";
import { differenceInCalendarDays } from "date-fns/differenceInCalendarDays";
import { format } from "date-fns/format";
import { isValid } from "date-fns/isValid";

/** The product's wire and storage format for a calendar day (docs/product.md §9). */
export const DAY_FORMAT = "yyyy-MM-dd";

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Days are `yyyy-MM-dd` strings everywhere in core. They are turned into local-midnight Date
 * objects only inside these helpers, where calendar arithmetic cannot be shifted by a time zone.
 */
export function parseDay(day: string): Date {
  // By hand rather than date-fns' `parse`: its format-string parser is ~6 KB gzip of every page's first
  // load (the public view's budget, apps/web/src/bundle-budget.test.ts) for the one fixed format we read. Strict as `parse` is:
  // anything but `yyyy-MM-dd` naming a real day is an Invalid Date.
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return new Date(Number.NaN);
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const result = new Date(2000, 0, 1);
  // setFullYear, not the constructor: years 0–99 would become 1900–1999 there.
  result.setFullYear(year, month, date);
  return result.getFullYear() === year && result.getMonth() === month && result.getDate() === date
    ? result
    : new Date(Number.NaN);
}

/** Formats a Date as a `yyyy-MM-dd` day in the Date's own (local) calendar. */
export function formatDay(date: Date): string {
  return format(date, DAY_FORMAT);
}

/** True for a real calendar day in `yyyy-MM-dd` form ('2026-02-30' is not one). */
export function isValidDay(value: unknown): value is string {
  if (typeof value !== "string" || !DAY_PATTERN.test(value)) return false;
  const date = parseDay(value);
  return isValid(date) && formatDay(date) === value;
}

/** The day `amount` days after `day` (negative goes back). */
export function shiftDay(day: string, amount: number): string {
  return formatDay(addDays(parseDay(day), amount));
}

/** Whole calendar days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return differenceInCalendarDays(parseDay(to), parseDay(from));
}

/** The earlier of two days (ISO day strings order lexically). */
export function minDay(a: string, b: string): string {
  return a <= b ? a : b;
}

/** The later of two days. */
export function maxDay(a: string, b: string): string {
  return a >= b ? a : b;
}

/** Keeps `day` within [min, max]; either bound may be absent. */
export function clampDay(day: string, min: string | null | undefined, max: string | null | undefined): string {
  let result = day;
  if (min && result < min) result = min;
  if (max && result > max) result = max;
  return result;
}

/**
 * Today's day in an IANA time zone. Ranges are computed from this string (never from `new Date()`
 * deep inside the logic) so the server can use the dashboard's zone and tests can pin the day.
 * An unknown zone falls back to UTC rather than failing the whole request.
 */
export function todayInTimezone(timezone: string, now: Date = new Date()): string {
  try {
    const zoned = new TZDate(now.getTime(), timezone);
    if (isValid(zoned)) return format(zoned, DAY_FORMAT);
  } catch {
    // RangeError from Intl for an unknown zone: use UTC below.
  }
  return now.toISOString().slice(0, 10);
}
