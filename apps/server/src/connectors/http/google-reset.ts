/**
 * When Google's quotas refresh: hourly ones at the top of the hour, daily ones (GA4 tokens, Google Ads
 * operations) at midnight Pacific time, whatever the property's or account's own zone.
 */

const HOUR_MS = 3_600_000;

const pacific = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  hourCycle: "h23",
});

/** The Pacific calendar day (yyyy-mm-dd) of an instant and the milliseconds since its midnight. */
export function pacificDay(at: number): { day: string; elapsedMs: number } {
  const parts = pacific.formatToParts(new Date(at));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "0";
  const elapsedMs =
    (Number(get("hour")) * 3600 + Number(get("minute")) * 60 + Number(get("second"))) * 1000 + (at % 1000);
  return { day: `${get("year")}-${get("month")}-${get("day")}`, elapsedMs };
}

/** The next midnight in Los Angeles after `now`, exact on the 23- and 25-hour days of a clock change. */
export function nextPacificMidnight(now: number): number {
  const guess = now + 24 * HOUR_MS - pacificDay(now).elapsedMs;
  // A day with a clock change is an hour short or long: the guess lands at 01:00 or 23:00 and is moved.
  const off = pacificDay(guess).elapsedMs;
  if (off === 0) return guess;
  return off < 12 * HOUR_MS ? guess - off : guess + 24 * HOUR_MS - off;
}

/** Milliseconds until Google's daily quotas refresh. */
export function untilPacificMidnight(now: number): number {
  return nextPacificMidnight(now) - now;
}

/** Milliseconds until the next full hour, when Google's hourly quotas refresh. */
export function untilNextHour(now: number): number {
  return HOUR_MS - (now % HOUR_MS);
}
