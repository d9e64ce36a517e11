import { daysBetween, instantOfWallTime, shiftDay } from "@app/core";

/** A widget input read as text: anything that is not a string is "" (the field's "required" follows). */
export const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** As `text`, without the spaces around it. */
export const trimmedText = (value: unknown): string => text(value).trim();

/**
 * Every day of a range, yyyy-mm-dd, first and last included: providers leave out days without
 * activity, the chart must show them as 0 or N/A, not as a gap.
 */
export const daysOf = (start: string, end: string): string[] =>
  start > end ? [] : Array.from({ length: daysBetween(start, end) + 1 }, (_, index) => shiftDay(start, index));

/**
 * The instant a day starts in a zone, ISO 8601 with a "+00:00" offset (as Mailchimp's and Klaviyo's
 * filters take instants): a range of the viewer's days is [start of its first day, start of the day after
 * its last), so a provider counting events by instant counts the viewer's days, not UTC's.
 */
export function startOfDayIn(day: string, timezone: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return instantOfWallTime({ year: year ?? 1970, month: month ?? 1, day: date ?? 1, hour: 0, minute: 0 }, timezone)
    .toISOString()
    .replace(/\.\d{3}Z$/, "+00:00");
}
