import { describe, expect, it } from "vitest";
import { parseDay, shiftDay } from "../dates/day";
import type { DailyValue } from "../mission-control/change";
import { describeWidgetAlertRule, evaluateWidgetAlert, type WidgetAlertRule } from "./evaluate";

const rule = (
  condition: WidgetAlertRule["condition"],
  value: number | null,
  direction: WidgetAlertRule["direction"] = "either",
) => ({
  condition,
  value,
  direction,
});

describe("evaluateWidgetAlert: thresholds and changes", () => {
  it.each([
    ["below, under the threshold", rule("below", 1500), 1204, null, "failing", "Sessions fell to 1,204, below 1,500"],
    ["below, exactly at it (strict)", rule("below", 1500), 1500, null, "passing", "Sessions is 1,500, not below 1,500"],
    ["below, over it", rule("below", 1500), 1800, null, "passing", "Sessions is 1,800, not below 1,500"],
    ["above, over the threshold", rule("above", 2000), 2304, null, "failing", "Sessions rose to 2,304, above 2,000"],
    ["above, under it", rule("above", 2000), 1999, null, "passing", "Sessions is 1,999, not above 2,000"],
    ["no value for the period", rule("below", 1500), null, null, "unknown", "Sessions has no value for the period."],
    [
      "a fall beyond 20 %, either way",
      rule("changeBy", 20),
      750,
      1000,
      "failing",
      "Sessions fell 25 % to 750, against 1,000 in the comparison period",
    ],
    [
      "a rise beyond 20 %, either way",
      rule("changeBy", 20),
      1300,
      1000,
      "failing",
      "Sessions rose 30 % to 1,300, against 1,000 in the comparison period",
    ],
    [
      "a rise, only falls count",
      rule("changeBy", 20, "down"),
      1300,
      1000,
      "passing",
      "Sessions changed +30 % to 1,300, against 1,000 in the comparison period",
    ],
    [
      "a fall, only rises count",
      rule("changeBy", 20, "up"),
      700,
      1000,
      "passing",
      "Sessions changed −30 % to 700, against 1,000 in the comparison period",
    ],
    [
      "a fall within the limit",
      rule("changeBy", 20, "down"),
      850,
      1000,
      "passing",
      "Sessions changed −15 % to 850, against 1,000 in the comparison period",
    ],
    [
      "exactly 20 % (strict)",
      rule("changeBy", 20),
      800,
      1000,
      "passing",
      "Sessions changed −20 % to 800, against 1,000 in the comparison period",
    ],
    [
      "a small fall, one decimal",
      rule("changeBy", 5, "down"),
      945,
      1000,
      "failing",
      "Sessions fell 5.5 % to 945, against 1,000 in the comparison period",
    ],
    [
      "no comparison value",
      rule("changeBy", 20),
      800,
      null,
      "unknown",
      "Sessions has no value for the comparison period to compare 800 with.",
    ],
    [
      "a zero comparison value",
      rule("changeBy", 20),
      800,
      0,
      "unknown",
      "Sessions has no value for the comparison period to compare 800 with.",
    ],
  ] as const)("%s", (_name, alertRule, current, previous, outcome, message) => {
    const verdict = evaluateWidgetAlert(alertRule, { label: "Sessions", current, previous });
    expect(verdict).toEqual({ outcome, value: current, message });
  });

  it.each([
    [
      "money",
      { format: "money", currency: "EUR" },
      rule("below", 500),
      420.5,
      "Revenue fell to €420.50, below €500.00",
    ],
    ["percent", { format: "percent" }, rule("above", 60), 64.2, "Revenue rose to 64.2%, above 60%"],
  ] as const)("formats %s values as the widget does", (_name, format, alertRule, current, message) => {
    expect(evaluateWidgetAlert(alertRule, { label: "Revenue", current, ...format }).message).toBe(message);
  });
});

// A Monday, so weekday arithmetic in the generator is easy to follow.
const FIRST = "2026-08-03";
const isWeekend = (day: string) => [0, 6].includes(parseDay(day).getDay());
// Deterministic noise of about ±4 %, so the test never depends on a random seed.
const noise = (index: number) => 1 + 0.04 * Math.sin(index * 2.3) * Math.cos(index * 0.7);

/** Ten weeks of a business site (weekdays ~1000, weekends ~350, growing ~0.4 % a day), ending at `days`. */
function site(days: number, change: (index: number, usual: number) => number = (_index, usual) => usual): DailyValue[] {
  return Array.from({ length: days }, (_, index) => {
    const day = shiftDay(FIRST, index);
    const usual = (isWeekend(day) ? 350 : 1000) * (1 + 0.004 * index) * noise(index);
    return { day, value: Math.round(change(index, usual)) };
  });
}

describe("evaluateWidgetAlert: anomaly (core detectAnomalies, same weekday seasonality)", () => {
  // Day 70 is a Monday; 68 and 69 are the weekend before it.
  const dropped = (index: number, usual: number) => (index === 70 ? usual * 0.5 : usual);

  it.each([
    [
      "the real drop on the latest day",
      site(71, dropped),
      0,
      "either",
      "failing",
      /^Sessions fell to \d[\d,]* on Oct 12, 2026, outside the expected [\d,]+–[\d,]+$/,
    ],
    [
      "a drop watched for rises only",
      site(71, dropped),
      0,
      "up",
      "passing",
      /^Sessions was .* on Oct 12, 2026, within the expected/,
    ],
    [
      "a Saturday, low against the week but usual for a Saturday",
      site(69, dropped),
      0,
      "either",
      "passing",
      /on Oct 10, 2026, within the expected/,
    ],
    ["a Sunday", site(70, dropped), 0, "down", "passing", /on Oct 11, 2026, within the expected/],
    [
      "the drop on a lagging day is not judged: the day before is",
      site(71, dropped),
      1,
      "either",
      "passing",
      /on Oct 11, 2026, within the expected/,
    ],
    ["too little history", site(20), 0, "either", "unknown", /^Sessions has too little history/],
  ] as const)("%s", (_name, series, lagDays, direction, outcome, message) => {
    const verdict = evaluateWidgetAlert(rule("anomaly", null, direction), {
      label: "Sessions",
      current: null,
      series,
      lagDays,
    });
    expect(verdict.outcome).toBe(outcome);
    expect(verdict.message).toMatch(message);
  });

  it("flags the drop and none of the weekends when evaluated day by day over the whole series", () => {
    const series = site(71, dropped);
    const failing: string[] = [];
    for (let end = 29; end <= series.length; end += 1) {
      const verdict = evaluateWidgetAlert(rule("anomaly", null), {
        label: "Sessions",
        current: null,
        series: series.slice(0, end),
      });
      if (verdict.outcome === "failing") failing.push(series[end - 1].day);
    }
    expect(failing).toEqual([shiftDay(FIRST, 70)]);
  });
});

describe("evaluateWidgetAlert: off pace (the goal's verdict from the widget-data answer)", () => {
  const figures = "2,100 of 4,000 (53 %) · 3 days left · on pace for 3,500, 12 % short";
  const parts = (period: string | null) => ({
    period,
    progress: "2,100 of 4,000 (53 %)",
    time: "3 days left",
    pace: "on pace for 3,500, 12 % short",
  });
  // One sentence with one colon: the period is named in brackets, never a second "November:" lead.
  it.each([
    [
      "a month goal not on track",
      { onTrack: false, parts: parts("November") },
      "failing",
      `Sessions goal (November) is off pace: ${figures}`,
    ],
    [
      "a month goal on track",
      { onTrack: true, parts: parts("November") },
      "passing",
      `Sessions goal (November) is on track: ${figures}`,
    ],
    [
      "a week goal not on track",
      { onTrack: false, parts: parts("This week") },
      "failing",
      `Sessions goal (This week) is off pace: ${figures}`,
    ],
    [
      "a range goal (no period)",
      { onTrack: false, parts: parts(null) },
      "failing",
      `Sessions goal is off pace: ${figures}`,
    ],
    [
      "a goal without a verdict",
      { onTrack: null, parts: parts("November") },
      "unknown",
      `Sessions goal (November) has no verdict yet: ${figures}`,
    ],
    ["no goal in the answer", null, "unknown", "Sessions has no goal verdict yet."],
  ] as const)("%s", (_name, goal, outcome, message) => {
    const verdict = evaluateWidgetAlert(rule("offPace", null), { label: "Sessions", current: 2100, goal });
    expect(verdict).toMatchObject({ outcome, message });
    expect(message.split(":").length, "one colon").toBeLessThanOrEqual(2);
  });
});

describe("describeWidgetAlertRule", () => {
  it.each([
    [rule("below", 1500), "Sessions below 1,500"],
    [rule("above", 2000), "Sessions above 2,000"],
    [rule("changeBy", 20, "down"), "Sessions falls by more than 20 % against the comparison period"],
    [rule("changeBy", 20), "Sessions changes by more than 20 % against the comparison period"],
    [rule("anomaly", null), "Sessions leaves its usual range"],
    [rule("anomaly", null, "down"), "Sessions falls below its usual range"],
    [rule("offPace", null), "Sessions goal is off pace"],
  ] as const)("%j", (alertRule, text) => {
    expect(describeWidgetAlertRule(alertRule, "Sessions")).toBe(text);
  });
});
