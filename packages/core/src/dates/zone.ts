import { tzOffset } from "@date-fns/tz";

/**
 * Wall-clock arithmetic in IANA time zones for schedules. Calendar fields are handled as plain numbers
 * (through `Date.UTC`, which has no daylight saving) and the zone is consulted only to turn a wall time
 * into an instant and back, so the result never depends on the time zone of the process running it.
 */

/** A wall-clock time in some zone: month is 1–12, like the `yyyy-MM-dd` strings of core. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

let zoneNames: Map<string, string> | null = null;

/** Canonical spellings by lower case, so 'europe/berlin' is stored and shown as 'Europe/Berlin'. */
function knownZones(): Map<string, string> {
  if (!zoneNames) {
    zoneNames = new Map(Intl.supportedValuesOf("timeZone").map((zone) => [zone.toLowerCase(), zone]));
  }
  return zoneNames;
}

/**
 * The zone's usual spelling, or null when it is not an IANA zone this runtime knows. Aliases Intl accepts
 * ('UTC', 'US/Eastern') are kept as written rather than canonicalised, because ICU's canonical names lag
 * behind (Node 20 turns 'Asia/Kolkata' into 'Asia/Calcutta') and users recognise what they chose.
 * Offsets such as '+05:00' are refused: a fixed offset would silently ignore daylight saving.
 */
export function normaliseTimeZone(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const zone = value.trim();
  if (zone === "" || zone.length > 64 || !/^[A-Za-z]/.test(zone)) return null;
  const known = knownZones().get(zone.toLowerCase());
  if (known) return known;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

/** True for an IANA zone name the runtime can compute offsets for. */
export function isValidTimeZone(value: unknown): value is string {
  return normaliseTimeZone(value) !== null;
}

function assertZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown time zone: ${timeZone}`);
}

/** Offset of the zone from UTC at `instant`, in milliseconds (positive east of Greenwich). */
function offsetMs(timeZone: string, instant: number): number {
  return tzOffset(timeZone, new Date(instant)) * MINUTE_MS;
}

/** The wall time an `instant` shows in `timeZone` (seconds are dropped). */
export function wallTimeAt(instant: Date, timeZone: string): WallTime {
  assertZone(timeZone);
  const shifted = new Date(instant.getTime() + offsetMs(timeZone, instant.getTime()));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

/**
 * The instant a wall time happens in `timeZone`, with daylight saving resolved the way a person
 * expects of an alarm:
 * - a time that happens twice (the hour repeated when clocks go back) means its first occurrence, so
 *   a schedule fires once, not twice;
 * - a time that never happens (skipped when clocks go forward) means the moment the clocks jump over
 *   it, i.e. the first valid instant after the gap, so a schedule still fires once that day.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): Date {
  assertZone(timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // Transitions are hours apart in every zone, so the offsets a day either side are the only two
  // the wall time can be read with.
  const before = offsetMs(timeZone, asUtc - DAY_MS);
  const after = offsetMs(timeZone, asUtc + DAY_MS);
  const readings = [asUtc - before, asUtc - after].filter((instant) => instant + offsetMs(timeZone, instant) === asUtc);
  if (readings.length > 0) return new Date(Math.min(...readings));
  // In the gap: the instant read with the earlier offset lies after the jump and the one read with the
  // later offset before it; the first instant that already has the later offset is the jump itself.
  let low = asUtc - after;
  let high = asUtc - before;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetMs(timeZone, middle) === after) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/** Day of the week of a calendar day, 0 = Sunday (as `Date#getDay`). */
export function weekdayOf(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** Number of days in a month (month 1–12), leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The calendar day `amount` days after the given one. */
export function addCalendarDays(
  year: number,
  month: number,
  day: number,
  amount: number,
): { year: number; month: number; day: number } {
  const date = new Date(Date.UTC(year, month - 1, day + amount));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
