import { format } from "date-fns/format";
import { parseDay, shiftDay } from "./day";
import { DISPLAY_DATE_FORMAT } from "./display";
import { type DayRange, rangeForType } from "./ranges";
import {
  addCalendarDays,
  daysInMonth,
  instantOfWallTime,
  normaliseTimeZone,
  type WallTime,
  wallTimeAt,
  weekdayOf,
} from "./zone";

/** How often an automatic report goes out (docs/product.md §3). */
export const REPORT_PERIODS = ["MONTH", "WEEK"] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** The day of the month a MONTH report goes out on (docs/product.md §3). */
export const MONTH_DETAILS = ["FIRST_DAY", "LAST_DAY", "FIRST_WORK_DAY"] as const;
export type MonthDetail = (typeof MONTH_DETAILS)[number];

/** A WEEK report's day: 0 = Sunday … 6 = Saturday, Sunday listed first (docs/product.md §3). */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** The period a report covers, resolved when it is sent (docs/product.md §3). */
export const REPORT_DATE_RANGES = ["LAST_7_DAYS", "LAST_30_DAYS", "LAST_MONTH", "LAST_WEEK"] as const;
export type ReportDateRange = (typeof REPORT_DATE_RANGES)[number];

/** docs/product.md §9: a new report is sent at 08:00 on the first day of the month, about last month. */
export const REPORT_DEFAULTS = {
  period: "MONTH",
  detail: "FIRST_DAY",
  hour: 8,
  minute: 0,
  date_range: "LAST_MONTH",
  with_preview: true,
  with_pdf: false,
} as const satisfies {
  period: ReportPeriod;
  detail: MonthDetail;
  hour: number;
  minute: number;
  date_range: ReportDateRange;
  with_preview: boolean;
  with_pdf: boolean;
};

/** docs/product.md §9: at most 5 reports per dashboard and 5 recipients per report. */
export const MAX_REPORTS_PER_DASHBOARD = 5;
export const MAX_REPORT_RECIPIENTS = 5;

export interface ScheduleTime {
  hour: number;
  minute: number;
  /** IANA zone the hour and minute are read in. */
  timezone: string;
}
export type MonthlySchedule = ScheduleTime & { period: "MONTH"; detail: MonthDetail };
export type WeeklySchedule = ScheduleTime & { period: "WEEK"; detail: Weekday };
/**
 * When a report goes out, with the field names of docs/product.md §3 so a stored report or a payload can be
 * passed as it is. `detail` depends on `period`: a MonthDetail for MONTH, a Weekday for WEEK.
 */
export type ReportSchedule = MonthlySchedule | WeeklySchedule;

export function isMonthDetail(value: unknown): value is MonthDetail {
  return typeof value === "string" && (MONTH_DETAILS as readonly string[]).includes(value);
}

export function isWeekday(value: unknown): value is Weekday {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 6;
}

/** Rejects a schedule that cannot be computed, so a bad stored row fails loudly instead of looping. */
function checkSchedule(schedule: ReportSchedule): void {
  const { hour, minute, period, detail } = schedule;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`Invalid hour: ${hour}`);
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw new RangeError(`Invalid minute: ${minute}`);
  if (period === "MONTH" ? !isMonthDetail(detail) : !isWeekday(detail)) {
    throw new RangeError(`Invalid detail for ${period}: ${String(detail)}`);
  }
  if (!normaliseTimeZone(schedule.timezone)) throw new RangeError(`Unknown time zone: ${schedule.timezone}`);
}

/** The day of a month a MONTH report is sent on; working days are Monday–Friday (no holidays). */
export function monthSendDay(detail: MonthDetail, year: number, month: number): number {
  switch (detail) {
    case "FIRST_DAY":
      return 1;
    case "LAST_DAY":
      return daysInMonth(year, month);
    case "FIRST_WORK_DAY": {
      const weekday = weekdayOf(year, month, 1);
      // Saturday → Monday the 3rd, Sunday → Monday the 2nd, any weekday → the 1st itself.
      return weekday === 6 ? 3 : weekday === 0 ? 2 : 1;
    }
  }
}

/** The send instant of the slot on a given calendar day, at the schedule's time in its zone. */
function slotOn(schedule: ReportSchedule, day: { year: number; month: number; day: number }): Date {
  const wall: WallTime = { ...day, hour: schedule.hour, minute: schedule.minute };
  return instantOfWallTime(wall, schedule.timezone);
}

/**
 * The next instant the report is due strictly after `instant`. The calendar is read in the report's zone,
 * so 'the 1st at 08:00' is the zone's 1st whatever the server's clock says; daylight saving is resolved
 * by `instantOfWallTime` (a skipped time fires when the clocks jump, a repeated one fires once).
 */
export function nextRunAfter(schedule: ReportSchedule, instant: Date): Date {
  checkSchedule(schedule);
  const after = instant.getTime();
  if (Number.isNaN(after)) throw new RangeError("Invalid instant");
  const here = wallTimeAt(instant, schedule.timezone);
  if (schedule.period === "MONTH") {
    // Starting a month early covers a slot whose wall time is read before `instant`'s own wall date.
    for (let step = -1; step <= 2; step++) {
      const first = addMonths(here.year, here.month, step);
      const day = monthSendDay(schedule.detail, first.year, first.month);
      const slot = slotOn(schedule, { ...first, day });
      if (slot.getTime() > after) return slot;
    }
  } else {
    for (let step = -1; step <= 8; step++) {
      const day = addCalendarDays(here.year, here.month, here.day, step);
      if (weekdayOf(day.year, day.month, day.day) !== schedule.detail) continue;
      const slot = slotOn(schedule, day);
      if (slot.getTime() > after) return slot;
    }
  }
  // Unreachable for a checked schedule: every month and week has a slot.
  throw new Error("No report slot found");
}

function addMonths(year: number, month: number, amount: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + amount;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/**
 * Every slot in (from, to], oldest first: what a scheduler that was down from `from` to `to` missed.
 * The caller sends only the latest, once, marked late; the list is there so it can say how many were missed.
 */
export function dueRuns(schedule: ReportSchedule, from: Date, to: Date): Date[] {
  const runs: Date[] = [];
  let next = nextRunAfter(schedule, from);
  while (next.getTime() <= to.getTime()) {
    runs.push(next);
    next = nextRunAfter(schedule, next);
  }
  return runs;
}

/**
 * The dates a report sent at `sendInstant` covers, read in the report's zone (the day the recipient is
 * in, not the server's). LAST_7_DAYS and LAST_30_DAYS end yesterday and LAST_MONTH is the previous
 * calendar month, exactly as the dashboard's own presets (ranges.ts); LAST_WEEK is the previous
 * Monday–Sunday week (docs/product.md §9: weeks start Monday).
 */
export function reportRange(dateRange: ReportDateRange, sendInstant: Date, timeZone: string): DayRange {
  const today = dayOf(wallTimeAt(sendInstant, timeZone));
  switch (dateRange) {
    case "LAST_7_DAYS":
      return rangeForType("last_7_days", { today });
    case "LAST_30_DAYS":
      return rangeForType("last_30_days", { today });
    case "LAST_MONTH":
      return rangeForType("last_month", { today });
    case "LAST_WEEK": {
      // getDay: 0 = Sunday, so the Monday of this week is (weekday + 6) % 7 days back.
      const mondayThisWeek = shiftDay(today, -((parseDay(today).getDay() + 6) % 7));
      return { startDate: shiftDay(mondayThisWeek, -7), endDate: shiftDay(mondayThisWeek, -1) };
    }
  }
}

const MONTH_DETAIL_WORDS: Record<MonthDetail, string> = {
  FIRST_DAY: "the first day",
  LAST_DAY: "the last day",
  FIRST_WORK_DAY: "the first working day",
};

/** Labels of the date_range options, for the report form and the e-mail. */
export const REPORT_DATE_RANGE_LABELS: Record<ReportDateRange, string> = {
  LAST_7_DAYS: "Last 7 Days",
  LAST_30_DAYS: "Last 30 Days",
  LAST_MONTH: "Last Month",
  LAST_WEEK: "Last Week",
};

function dayOf(wall: WallTime): string {
  return `${String(wall.year).padStart(4, "0")}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}`;
}

function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** The schedule in words for the reports list: 'Monthly on the first working day at 08:00 (Europe/Berlin)'. */
export function describeSchedule(schedule: ReportSchedule): string {
  const when =
    schedule.period === "MONTH"
      ? `Monthly on ${MONTH_DETAIL_WORDS[schedule.detail]}`
      : `Weekly on ${WEEKDAY_NAMES[schedule.detail]}`;
  return `${when} at ${clock(schedule.hour, schedule.minute)} (${schedule.timezone})`;
}

/** An instant as the report's zone shows it, for 'next run' and 'last sent': 'Dec 01, 2026 08:00'. */
export function formatInstantInZone(instant: Date, timeZone: string): string {
  const wall = wallTimeAt(instant, timeZone);
  const day = format(parseDay(dayOf(wall)), DISPLAY_DATE_FORMAT);
  return `${day} ${clock(wall.hour, wall.minute)}`;
}
