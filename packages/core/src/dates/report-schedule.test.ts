import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  describeSchedule,
  dueRuns,
  formatInstantInZone,
  type MonthDetail,
  type MonthlySchedule,
  monthSendDay,
  nextRunAfter,
  type ReportDateRange,
  reportRange,
  type Weekday,
  type WeeklySchedule,
} from "./report-schedule";
import { type WallTime, wallTimeAt } from "./zone";

const monthly = (detail: MonthDetail, hour: number, minute: number, timezone: string): MonthlySchedule => ({
  period: "MONTH",
  detail,
  hour,
  minute,
  timezone,
});
const weekly = (detail: Weekday, hour: number, minute: number, timezone: string): WeeklySchedule => ({
  period: "WEEK",
  detail,
  hour,
  minute,
  timezone,
});
const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

// Expected instants are worked out by hand from the zones' rules: New York EST −5 / EDT −4 (2026: Mar 8,
// Nov 1; 2027: Mar 14, Nov 7), Auckland NZST +12 / NZDT +13 (back Apr 5 2026 / Apr 4 2027, forward
// Sep 27 2026 / Sep 26 2027), London GMT / BST +1 (Mar 29 & Oct 25 2026, Mar 28 & Oct 31 2027),
// Berlin CET +1 / CEST +2.
describe("nextRunAfter", () => {
  it.each([
    // Plain months, strictly after.
    ["UTC 1st 08:00, mid-month", monthly("FIRST_DAY", 8, 0, "UTC"), "2026-11-23T22:15:00Z", "2026-12-01T08:00:00Z"],
    [
      "UTC 1st 08:00, at the slot itself",
      monthly("FIRST_DAY", 8, 0, "UTC"),
      "2026-12-01T08:00:00Z",
      "2027-01-01T08:00:00Z",
    ],
    [
      "UTC 1st 08:00, 1 ms before",
      monthly("FIRST_DAY", 8, 0, "UTC"),
      "2026-12-01T07:59:59.999Z",
      "2026-12-01T08:00:00Z",
    ],
    [
      "UTC 1st 08:00, across the year",
      monthly("FIRST_DAY", 8, 0, "UTC"),
      "2026-12-15T00:00:00Z",
      "2027-01-01T08:00:00Z",
    ],
    [
      "New York 1st 23:00 is the 2nd in UTC",
      monthly("FIRST_DAY", 23, 0, "America/New_York"),
      "2026-11-20T00:00:00Z",
      "2026-12-02T04:00:00Z",
    ],
    [
      "New York 1st 23:00, after the UTC 1st but before the local slot",
      monthly("FIRST_DAY", 23, 0, "America/New_York"),
      "2026-12-02T03:59:00Z",
      "2026-12-02T04:00:00Z",
    ],
    // Auckland is ahead: its 1st starts on the 31st in UTC.
    [
      "Auckland 1st 08:00 is Dec 31 in UTC",
      monthly("FIRST_DAY", 8, 0, "Pacific/Auckland"),
      "2026-12-31T18:00:00Z",
      "2026-12-31T19:00:00Z",
    ],
    [
      "Auckland, already Jan 1 09:00 locally",
      monthly("FIRST_DAY", 8, 0, "Pacific/Auckland"),
      "2026-12-31T20:00:00Z",
      "2027-01-31T19:00:00Z",
    ],
    // Month ends and leap years.
    ["last day of April (30)", monthly("LAST_DAY", 23, 30, "UTC"), "2026-04-15T00:00:00Z", "2026-04-30T23:30:00Z"],
    [
      "last day after April's slot is May 31",
      monthly("LAST_DAY", 23, 30, "UTC"),
      "2026-04-30T23:30:00Z",
      "2026-05-31T23:30:00Z",
    ],
    ["last day of Feb 2027 (28)", monthly("LAST_DAY", 8, 0, "UTC"), "2027-01-31T08:00:00Z", "2027-02-28T08:00:00Z"],
    [
      "last day of Feb 2028 (leap, 29)",
      monthly("LAST_DAY", 8, 0, "UTC"),
      "2028-01-31T08:00:00Z",
      "2028-02-29T08:00:00Z",
    ],
    [
      "after Feb 29 2028 comes Mar 31",
      monthly("LAST_DAY", 8, 0, "UTC"),
      "2028-02-29T08:00:00Z",
      "2028-03-31T08:00:00Z",
    ],
    [
      "Auckland Feb 29 2028 08:00 NZDT",
      monthly("LAST_DAY", 8, 0, "Pacific/Auckland"),
      "2028-02-01T00:00:00Z",
      "2028-02-28T19:00:00Z",
    ],
    [
      "New York Dec 31 23:59 EST is Jan 1 in UTC",
      monthly("LAST_DAY", 23, 59, "America/New_York"),
      "2026-12-20T00:00:00Z",
      "2027-01-01T04:59:00Z",
    ],
    // First working day: Aug 1 2026 is a Saturday, Nov 1 2026 and Feb 1 2026 Sundays, Dec 1 2026 a Tuesday.
    [
      "first working day, 1st is Saturday → Mon 3rd",
      monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin"),
      "2026-07-15T00:00:00Z",
      "2026-08-03T06:00:00Z",
    ],
    [
      "first working day, 1st is Sunday → Mon 2nd",
      monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin"),
      "2026-10-15T00:00:00Z",
      "2026-11-02T07:00:00Z",
    ],
    [
      "first working day, Feb 1 2026 is Sunday",
      monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin"),
      "2026-01-10T00:00:00Z",
      "2026-02-02T07:00:00Z",
    ],
    [
      "first working day, 1st is Tuesday",
      monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin"),
      "2026-11-02T07:00:00Z",
      "2026-12-01T07:00:00Z",
    ],
    [
      "first working day, on the 1st and 2nd of Nov it is still ahead",
      monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin"),
      "2026-11-01T12:00:00Z",
      "2026-11-02T07:00:00Z",
    ],
    // Weeks (0 = Sunday).
    ["Monday 07:30 UTC, on Monday before", weekly(1, 7, 30, "UTC"), "2026-11-23T07:29:00Z", "2026-11-23T07:30:00Z"],
    ["Monday 07:30 UTC, at the slot", weekly(1, 7, 30, "UTC"), "2026-11-23T07:30:00Z", "2026-11-30T07:30:00Z"],
    ["Saturday", weekly(6, 12, 0, "UTC"), "2026-11-23T00:00:00Z", "2026-11-28T12:00:00Z"],
    ["Sunday", weekly(0, 12, 0, "UTC"), "2026-11-23T00:00:00Z", "2026-11-29T12:00:00Z"],
    [
      "Auckland Monday 08:00 is Sunday in UTC",
      weekly(1, 8, 0, "Pacific/Auckland"),
      "2026-11-22T00:00:00Z",
      "2026-11-22T19:00:00Z",
    ],
    // New York, spring forward: 02:00–02:59 never happens; the slot fires once when clocks jump (03:00 EDT).
    [
      "NY 2026 spring, 02:30 in the gap",
      weekly(0, 2, 30, "America/New_York"),
      "2026-03-07T12:00:00Z",
      "2026-03-08T07:00:00Z",
    ],
    [
      "NY 2026 spring, the week after",
      weekly(0, 2, 30, "America/New_York"),
      "2026-03-08T07:00:00Z",
      "2026-03-15T06:30:00Z",
    ],
    [
      "NY 2026 spring, 01:30 before the gap is EST",
      weekly(0, 1, 30, "America/New_York"),
      "2026-03-07T12:00:00Z",
      "2026-03-08T06:30:00Z",
    ],
    [
      "NY 2026 spring, 03:30 after the gap is EDT",
      weekly(0, 3, 30, "America/New_York"),
      "2026-03-07T12:00:00Z",
      "2026-03-08T07:30:00Z",
    ],
    [
      "NY 2027 spring, 02:30 in the gap",
      weekly(0, 2, 30, "America/New_York"),
      "2027-03-13T12:00:00Z",
      "2027-03-14T07:00:00Z",
    ],
    // New York, fall back: 01:00–01:59 happens twice; the slot fires at the first (EDT) only.
    [
      "NY 2026 fall, 01:30 first occurrence",
      weekly(0, 1, 30, "America/New_York"),
      "2026-10-31T12:00:00Z",
      "2026-11-01T05:30:00Z",
    ],
    [
      "NY 2026 fall, not again at the second 01:30",
      weekly(0, 1, 30, "America/New_York"),
      "2026-11-01T05:30:00Z",
      "2026-11-08T06:30:00Z",
    ],
    [
      "NY 2026 fall, asked during the repeated hour",
      weekly(0, 1, 30, "America/New_York"),
      "2026-11-01T06:00:00Z",
      "2026-11-08T06:30:00Z",
    ],
    [
      "NY 2027 fall, 01:30 first occurrence",
      weekly(0, 1, 30, "America/New_York"),
      "2027-11-06T12:00:00Z",
      "2027-11-07T05:30:00Z",
    ],
    // Auckland, spring forward (02:00 NZST → 03:00 NZDT) and fall back (03:00 NZDT → 02:00 NZST).
    [
      "Auckland 2026 spring, 02:30 in the gap",
      weekly(0, 2, 30, "Pacific/Auckland"),
      "2026-09-26T00:00:00Z",
      "2026-09-26T14:00:00Z",
    ],
    [
      "Auckland 2026 spring, the week after",
      weekly(0, 2, 30, "Pacific/Auckland"),
      "2026-09-26T14:00:00Z",
      "2026-10-03T13:30:00Z",
    ],
    [
      "Auckland 2027 spring, 02:30 in the gap",
      weekly(0, 2, 30, "Pacific/Auckland"),
      "2027-09-25T00:00:00Z",
      "2027-09-25T14:00:00Z",
    ],
    [
      "Auckland 2026 fall, 02:30 first (NZDT)",
      weekly(0, 2, 30, "Pacific/Auckland"),
      "2026-04-04T00:00:00Z",
      "2026-04-04T13:30:00Z",
    ],
    [
      "Auckland 2026 fall, not again at 02:30 NZST",
      weekly(0, 2, 30, "Pacific/Auckland"),
      "2026-04-04T13:30:00Z",
      "2026-04-11T14:30:00Z",
    ],
    [
      "Auckland 2027 fall, 02:30 first (NZDT)",
      weekly(0, 2, 30, "Pacific/Auckland"),
      "2027-04-03T00:00:00Z",
      "2027-04-03T13:30:00Z",
    ],
    // London: 01:00–01:59 is skipped in March and repeated in October.
    [
      "London 2026 spring, 01:30 in the gap",
      weekly(0, 1, 30, "Europe/London"),
      "2026-03-28T00:00:00Z",
      "2026-03-29T01:00:00Z",
    ],
    [
      "London 2026 fall, 01:30 first (BST)",
      weekly(0, 1, 30, "Europe/London"),
      "2026-10-24T00:00:00Z",
      "2026-10-25T00:30:00Z",
    ],
    [
      "London 2026 fall, not again in GMT",
      weekly(0, 1, 30, "Europe/London"),
      "2026-10-25T00:30:00Z",
      "2026-11-01T01:30:00Z",
    ],
    [
      "London 2027 spring, 01:30 in the gap",
      weekly(0, 1, 30, "Europe/London"),
      "2027-03-27T00:00:00Z",
      "2027-03-28T01:00:00Z",
    ],
    [
      "London 2027 fall, 01:30 first (BST)",
      weekly(0, 1, 30, "Europe/London"),
      "2027-10-30T00:00:00Z",
      "2027-10-31T00:30:00Z",
    ],
    [
      "London summer 08:00 is 07:00 UTC",
      monthly("FIRST_DAY", 8, 0, "Europe/London"),
      "2026-06-15T00:00:00Z",
      "2026-07-01T07:00:00Z",
    ],
  ] as const)("%s", (_name, schedule, after, expected) => {
    expect(nextRunAfter(schedule, new Date(after)).toISOString()).toBe(new Date(expected).toISOString());
  });

  it("rejects what it cannot compute instead of looping", () => {
    const good = monthly("FIRST_DAY", 8, 0, "UTC");
    const at = new Date("2026-01-01T00:00:00Z");
    expect(() => nextRunAfter({ ...good, hour: 24 }, at)).toThrow(RangeError);
    expect(() => nextRunAfter({ ...good, minute: 7.5 }, at)).toThrow(RangeError);
    expect(() => nextRunAfter({ ...good, timezone: "Mars/Olympus" }, at)).toThrow(RangeError);
    expect(() => nextRunAfter({ ...good, detail: "SECOND_DAY" as MonthDetail }, at)).toThrow(RangeError);
    expect(() => nextRunAfter(weekly(7 as Weekday, 8, 0, "UTC"), at)).toThrow(RangeError);
    expect(() => nextRunAfter(good, new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("monthSendDay", () => {
  it.each([
    ["FIRST_DAY", 2026, 8, 1],
    ["LAST_DAY", 2026, 1, 31],
    ["LAST_DAY", 2026, 4, 30],
    ["LAST_DAY", 2026, 2, 28],
    ["LAST_DAY", 2028, 2, 29],
    ["LAST_DAY", 2100, 2, 28], // divisible by 100, not by 400: not a leap year
    ["LAST_DAY", 2000, 2, 29],
    ["FIRST_WORK_DAY", 2026, 8, 3], // Saturday 1st
    ["FIRST_WORK_DAY", 2026, 11, 2], // Sunday 1st
    ["FIRST_WORK_DAY", 2027, 5, 3], // Saturday 1st
    ["FIRST_WORK_DAY", 2026, 6, 1], // Monday 1st
    ["FIRST_WORK_DAY", 2026, 5, 1], // Friday 1st
  ] as const)("%s of %i-%i is the %i", (detail, year, month, day) => {
    expect(monthSendDay(detail, year, month)).toBe(day);
  });
});

describe("dueRuns", () => {
  it("lists the three first working days of a three-month outage, in order", () => {
    const schedule = monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin");
    const runs = dueRuns(schedule, new Date("2026-07-15T00:00:00Z"), new Date("2026-10-15T00:00:00Z"));
    // Aug 1 is a Saturday; Sep 1 a Tuesday; Oct 1 a Thursday (still CEST).
    expect(iso(runs)).toEqual(["2026-08-03T06:00:00.000Z", "2026-09-01T06:00:00.000Z", "2026-10-01T06:00:00.000Z"]);
  });

  it("lists every Monday of three months, keeping 09:00 local across the March change", () => {
    const runs = dueRuns(
      weekly(1, 9, 0, "America/New_York"),
      new Date("2026-02-01T00:00:00Z"),
      new Date("2026-05-01T00:00:00Z"),
    );
    expect(runs).toHaveLength(13);
    expect(runs.map((run) => formatInstantInZone(run, "America/New_York").slice(-5))).toEqual(Array(13).fill("09:00"));
    expect(iso(runs.slice(3, 6))).toEqual([
      "2026-02-23T14:00:00.000Z",
      "2026-03-02T14:00:00.000Z",
      "2026-03-09T13:00:00.000Z",
    ]);
    expect(runs.at(-1)?.toISOString()).toBe("2026-04-27T13:00:00.000Z");
  });

  it("includes a slot at `to` and excludes one at `from`", () => {
    const schedule = monthly("FIRST_DAY", 8, 0, "UTC");
    expect(iso(dueRuns(schedule, new Date("2026-01-01T08:00:00Z"), new Date("2026-03-01T08:00:00Z")))).toEqual([
      "2026-02-01T08:00:00.000Z",
      "2026-03-01T08:00:00.000Z",
    ]);
  });

  it("is empty when nothing fell due or the window is backwards", () => {
    const schedule = monthly("FIRST_DAY", 8, 0, "UTC");
    expect(dueRuns(schedule, new Date("2026-01-02T00:00:00Z"), new Date("2026-01-31T00:00:00Z"))).toEqual([]);
    expect(dueRuns(schedule, new Date("2026-06-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"))).toEqual([]);
  });

  it("fires once on the spring-forward Sunday and once on the fall-back Sunday", () => {
    const spring = dueRuns(
      weekly(0, 2, 30, "America/New_York"),
      new Date("2026-03-08T00:00:00Z"),
      new Date("2026-03-09T00:00:00Z"),
    );
    expect(iso(spring)).toEqual(["2026-03-08T07:00:00.000Z"]);
    const fall = dueRuns(
      weekly(0, 1, 30, "America/New_York"),
      new Date("2026-11-01T00:00:00Z"),
      new Date("2026-11-02T00:00:00Z"),
    );
    expect(iso(fall)).toEqual(["2026-11-01T05:30:00.000Z"]);
  });

  it("counts 52 or 53 weekly slots in a year across both changes of Auckland", () => {
    const runs = dueRuns(
      weekly(0, 2, 30, "Pacific/Auckland"),
      new Date("2026-01-01T00:00:00Z"),
      new Date("2027-01-01T00:00:00Z"),
    );
    // 2026 has 52 Sundays; in Auckland the year starts 13 h earlier, which adds none.
    expect(runs).toHaveLength(52);
    for (let index = 1; index < runs.length; index++) {
      const gapHours = (runs[index].getTime() - runs[index - 1].getTime()) / 3_600_000;
      // A normal week, the week that gains the repeated hour, or the two weeks around the spring jump
      // (02:30 NZST → 03:00 NZDT → 02:30 NZDT: 30 min short each).
      expect([168, 169, 167.5]).toContain(gapHours);
    }
  });
});

/** Zones exercised by the property test, with and without daylight saving, both hemispheres, a :45 offset. */
const ZONES = [
  "UTC",
  "America/New_York",
  "Pacific/Auckland",
  "Europe/London",
  "Europe/Berlin",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "America/Sao_Paulo",
  // Jumps at midnight: 00:00 → 01:00 in March, 01:00 → 00:00 in November.
  "America/Havana",
];

describe("nextRunAfter, properties over random schedules and instants", () => {
  const schedules = fc.oneof(
    fc.record({
      period: fc.constant("MONTH" as const),
      detail: fc.constantFrom<MonthDetail>("FIRST_DAY", "LAST_DAY", "FIRST_WORK_DAY"),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      timezone: fc.constantFrom(...ZONES),
    }),
    fc.record({
      period: fc.constant("WEEK" as const),
      detail: fc.constantFrom<Weekday>(0, 1, 2, 3, 4, 5, 6),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      timezone: fc.constantFrom(...ZONES),
    }),
  );
  const instants = fc.date({
    min: new Date("2020-01-01T00:00:00Z"),
    max: new Date("2035-01-01T00:00:00Z"),
    noInvalidDate: true,
  });

  it("lands on the right day at the right wall time (or the jump over it), after the instant", () => {
    fc.assert(
      fc.property(schedules, instants, (schedule, instant) => {
        const next = nextRunAfter(schedule, instant);
        expect(next.getTime()).toBeGreaterThan(instant.getTime());
        const wall = wallTimeAt(next, schedule.timezone);
        if (wall.hour !== schedule.hour || wall.minute !== schedule.minute) {
          // Only when the wall time does not exist that day: then the clocks jumped at `next`.
          const asNumber = (time: WallTime) => Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute);
          const before = asNumber(wallTimeAt(new Date(next.getTime() - 60_000), schedule.timezone));
          const slot = asNumber({ ...wall, hour: schedule.hour, minute: schedule.minute });
          expect(before).toBeLessThan(slot);
          expect(asNumber(wall)).toBeGreaterThan(slot);
        }
        // The day follows the rule: the local day of `next` (a skipped time moves later on the same day).
        if (schedule.period === "MONTH") {
          expect(wall.day).toBe(monthSendDay(schedule.detail, wall.year, wall.month));
        } else {
          expect(new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()).toBe(schedule.detail);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("skips no slot: asking again from any moment before the answer gives the same answer", () => {
    fc.assert(
      fc.property(schedules, instants, fc.double({ min: 0, max: 1, noNaN: true }), (schedule, instant, fraction) => {
        const next = nextRunAfter(schedule, instant);
        const between = new Date(instant.getTime() + Math.floor((next.getTime() - instant.getTime() - 1) * fraction));
        expect(nextRunAfter(schedule, between).toISOString()).toBe(next.toISOString());
        // And the slot before `next` is at or before `instant`.
        const previous = dueRuns(schedule, new Date(instant.getTime() - 40 * 86_400_000), instant).at(-1);
        if (previous) expect(nextRunAfter(schedule, previous).toISOString()).toBe(next.toISOString());
      }),
      { numRuns: 300 },
    );
  });
});

describe("reportRange", () => {
  it.each<[string, ReportDateRange, string, string, string, string]>([
    // Sent Jan 1 2027 08:00 in London (a Friday): everything points into 2026.
    ["year boundary, last month", "LAST_MONTH", "2027-01-01T08:00:00Z", "Europe/London", "2026-12-01", "2026-12-31"],
    ["year boundary, last 7 days", "LAST_7_DAYS", "2027-01-01T08:00:00Z", "Europe/London", "2026-12-25", "2026-12-31"],
    [
      "year boundary, last 30 days",
      "LAST_30_DAYS",
      "2027-01-01T08:00:00Z",
      "Europe/London",
      "2026-12-02",
      "2026-12-31",
    ],
    [
      "year boundary, last week (Friday)",
      "LAST_WEEK",
      "2027-01-01T08:00:00Z",
      "Europe/London",
      "2026-12-21",
      "2026-12-27",
    ],
    ["last week spanning the new year", "LAST_WEEK", "2027-01-04T08:00:00Z", "UTC", "2026-12-28", "2027-01-03"],
    ["last week sent on a Monday", "LAST_WEEK", "2026-11-23T07:30:00Z", "UTC", "2026-11-16", "2026-11-22"],
    ["last week sent on a Sunday", "LAST_WEEK", "2026-11-29T07:30:00Z", "UTC", "2026-11-16", "2026-11-22"],
    // Auckland: 2026-12-31T19:00Z is Jan 1 08:00 there; UTC's Dec 31 would give November and Dec 24–30.
    [
      "Auckland ahead of UTC, last month",
      "LAST_MONTH",
      "2026-12-31T19:00:00Z",
      "Pacific/Auckland",
      "2026-12-01",
      "2026-12-31",
    ],
    [
      "Auckland ahead of UTC, last 7 days",
      "LAST_7_DAYS",
      "2026-12-31T19:00:00Z",
      "Pacific/Auckland",
      "2026-12-25",
      "2026-12-31",
    ],
    [
      "Auckland ahead of UTC, last week",
      "LAST_WEEK",
      "2026-12-31T19:00:00Z",
      "Pacific/Auckland",
      "2026-12-21",
      "2026-12-27",
    ],
    ["same instant in UTC, last month", "LAST_MONTH", "2026-12-31T19:00:00Z", "UTC", "2026-11-01", "2026-11-30"],
    // New York: 2027-01-01T03:00Z is still Dec 31 22:00 there.
    [
      "New York behind UTC, last month",
      "LAST_MONTH",
      "2027-01-01T03:00:00Z",
      "America/New_York",
      "2026-11-01",
      "2026-11-30",
    ],
    [
      "New York behind UTC, last 7 days",
      "LAST_7_DAYS",
      "2027-01-01T03:00:00Z",
      "America/New_York",
      "2026-12-24",
      "2026-12-30",
    ],
    // Leap February.
    ["leap February, last month", "LAST_MONTH", "2028-03-01T08:00:00Z", "UTC", "2028-02-01", "2028-02-29"],
    ["leap February, last 30 days", "LAST_30_DAYS", "2028-03-01T08:00:00Z", "UTC", "2028-01-31", "2028-02-29"],
    ["plain February, last month", "LAST_MONTH", "2027-03-01T08:00:00Z", "UTC", "2027-02-01", "2027-02-28"],
    // A send that was moved to the end of a spring-forward gap still reads that day.
    [
      "sent at the NY spring jump",
      "LAST_7_DAYS",
      "2026-03-08T07:00:00Z",
      "America/New_York",
      "2026-03-01",
      "2026-03-07",
    ],
  ])("%s", (_name, dateRange, sent, zone, startDate, endDate) => {
    expect(reportRange(dateRange, new Date(sent), zone)).toEqual({ startDate, endDate });
  });

  it("refuses an unknown zone rather than silently using UTC", () => {
    expect(() => reportRange("LAST_MONTH", new Date("2026-01-01T00:00:00Z"), "Nowhere/Place")).toThrow(RangeError);
  });
});

describe("describeSchedule", () => {
  it.each([
    [monthly("FIRST_WORK_DAY", 8, 0, "Europe/Berlin"), "Monthly on the first working day at 08:00 (Europe/Berlin)"],
    [monthly("FIRST_DAY", 8, 0, "UTC"), "Monthly on the first day at 08:00 (UTC)"],
    [monthly("LAST_DAY", 23, 5, "Pacific/Auckland"), "Monthly on the last day at 23:05 (Pacific/Auckland)"],
    [weekly(1, 7, 30, "UTC"), "Weekly on Monday at 07:30 (UTC)"],
    [weekly(0, 0, 0, "America/New_York"), "Weekly on Sunday at 00:00 (America/New_York)"],
    [weekly(6, 18, 45, "Europe/London"), "Weekly on Saturday at 18:45 (Europe/London)"],
  ])("%o → %s", (schedule, words) => {
    expect(describeSchedule(schedule)).toBe(words);
  });
});

describe("formatInstantInZone", () => {
  it.each([
    ["2026-12-31T19:00:00Z", "Pacific/Auckland", "Jan 01, 2027 08:00"],
    ["2026-12-31T19:00:00Z", "UTC", "Dec 31, 2026 19:00"],
    ["2027-01-01T03:00:00Z", "America/New_York", "Dec 31, 2026 22:00"],
    ["2026-11-01T05:30:00Z", "America/New_York", "Nov 01, 2026 01:30"],
  ])("%s in %s", (instant, zone, text) => {
    expect(formatInstantInZone(new Date(instant), zone)).toBe(text);
  });
});
