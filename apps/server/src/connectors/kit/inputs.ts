import { daysBetween, shiftDay } from "@app/core";

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
