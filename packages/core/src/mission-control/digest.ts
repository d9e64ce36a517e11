import { addCalendarDays, wallTimeAt, weekdayOf } from "../dates/zone";

/** Local hour from which a day's (or a Monday's) alert digest goes out: before the agency's working day. */
export const DIGEST_HOUR = 8;

export type DigestFrequency = "daily" | "weekly" | "off";

function dayText(date: { year: number; month: number; day: number }): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/**
 * The digest period due at `now` in the company's zone, or null when none is: "daily:2026-11-26" from
 * 08:00 local time that day, "weekly:2026-11-23" (the Monday) from Monday 08:00. A period is mailed at
 * most once (its key is stored), so a server down at 08:00 sends the day's digest when it is back, and a
 * company switching to weekly mid-week gets that week's digest at once rather than waiting.
 */
export function dueDigestPeriod(frequency: DigestFrequency, now: Date, timeZone: string): string | null {
  if (frequency === "off") return null;
  const wall = wallTimeAt(now, timeZone);
  // Monday = 0 … Sunday = 6.
  const sinceMonday = (weekdayOf(wall.year, wall.month, wall.day) + 6) % 7;
  if (frequency === "daily") return wall.hour < DIGEST_HOUR ? null : `daily:${dayText(wall)}`;
  if (sinceMonday === 0 && wall.hour < DIGEST_HOUR) return null;
  return `weekly:${dayText(addCalendarDays(wall.year, wall.month, wall.day, -sinceMonday))}`;
}
