import { daysBetween, todayInTimezone } from "@app/core";

/**
 * When a stored provider result may be served without asking the provider again (docs/decisions.md,
 * "Persistent results"): by the data's age, not a flat time to live.
 * - A result fetched after its range had settled (the provider no longer revises those days: GA4 and
 *   Search Console about 3 days, Meta up to 28) is final: served for good.
 * - Any other result is served for a short while (RECENT_RESULT_TTL_MS), then fetched again.
 */
export const RECENT_RESULT_TTL_MS = 15 * 60_000;

/** The calendar day of an instant in a zone (yyyy-mm-dd). */
export function dayIn(instant: number, timezone: string): string {
  return todayInTimezone(timezone, new Date(instant));
}

export interface StoredResultAge {
  /** Last day of the range (yyyy-mm-dd). */
  rangeEnd: string;
  /** When it was fetched (epoch ms). */
  fetchedAt: number;
}

/** True when the stored result may be served as it is. */
export function storedResultFresh(
  stored: StoredResultAge,
  settlingDays: number,
  now: number,
  timezone: string,
): boolean {
  if (daysBetween(stored.rangeEnd, dayIn(stored.fetchedAt, timezone)) > settlingDays) return true;
  return now - stored.fetchedAt < RECENT_RESULT_TTL_MS;
}
