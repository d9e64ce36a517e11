import { describe, expect, it } from "vitest";
import { shiftDay } from "../dates/day";
import {
  ALERT_RULE_MESSAGES,
  DEFAULT_ALERT_RULES,
  effectiveRules,
  evaluateRule,
  type TAlertRule,
  ZAlertRule,
  ZAlertRuleOverride,
} from "./alert-rules";
import type { DailyValue } from "./change";

const AS_OF = "2026-11-25";

function defaultRule(id: string): TAlertRule {
  const found = DEFAULT_ALERT_RULES.find((rule) => rule.id === id);
  if (!found) throw new Error(`no default rule ${id}`);
  return found;
}

/** Stock points by days back from AS_OF. */
function stock(points: Record<number, number>): DailyValue[] {
  return Object.entries(points).map(([back, value]) => ({ day: shiftDay(AS_OF, -Number(back)), value }));
}

/** A flow with `previous` per day for the 7 days before and `current` per day for the last 7. */
function flow(previous: number, current: number): DailyValue[] {
  return Array.from({ length: 14 }, (_, index) => ({
    day: shiftDay(AS_OF, index - 13),
    value: index < 7 ? previous : current,
  }));
}

describe("evaluateRule", () => {
  it.each<{ name: string; rule: string; series: DailyValue[]; failing: boolean; reason?: string }>([
    {
      name: "domain rating down 2 fails",
      rule: "domain-rating-drop",
      series: stock({ 0: 52, 7: 54 }),
      failing: true,
      reason: "Domain rating fell from 54 to 52 (−2) over 7 days",
    },
    {
      name: "domain rating down exactly 1 fails (≥)",
      rule: "domain-rating-drop",
      series: stock({ 0: 53, 7: 54 }),
      failing: true,
      reason: "Domain rating fell from 54 to 53 (−1) over 7 days",
    },
    {
      name: "domain rating down 0.5 passes",
      rule: "domain-rating-drop",
      series: stock({ 0: 53.5, 7: 54 }),
      failing: false,
    },
    { name: "domain rating up passes", rule: "domain-rating-drop", series: stock({ 0: 56, 7: 54 }), failing: false },
    { name: "no baseline passes", rule: "domain-rating-drop", series: stock({ 0: 20 }), failing: false },
    {
      name: "referring domains −5 % fails",
      rule: "referring-domains-drop",
      series: stock({ 0: 190, 7: 200 }),
      failing: true,
      reason: "Referring domains fell from 200 to 190 (−5%) over 7 days",
    },
    {
      name: "referring domains −4 % passes",
      rule: "referring-domains-drop",
      series: stock({ 0: 192, 7: 200 }),
      failing: false,
    },
    {
      name: "clicks −20 % on a big enough baseline fails",
      rule: "clicks-drop",
      series: flow(100, 80),
      failing: true,
      reason: "Clicks fell from 700 to 560 (−20%) in the last 7 days compared with the 7 days before",
    },
    { name: "clicks −50 % under the minimum baseline passes", rule: "clicks-drop", series: flow(2, 1), failing: false },
    { name: "clicks −10 % passes", rule: "clicks-drop", series: flow(100, 90), failing: false },
    { name: "sessions from 0 pass (no percent)", rule: "sessions-drop", series: flow(0, 50), failing: false },
    {
      name: "sessions −30 % fails",
      rule: "sessions-drop",
      series: flow(1000, 700),
      failing: true,
      reason: "Sessions fell from 7,000 to 4,900 (−30%) in the last 7 days compared with the 7 days before",
    },
    {
      name: "average position 9 → 12 fails (worse by 3)",
      rule: "average-position-worse",
      series: stock({ 0: 12, 7: 9 }),
      failing: true,
      reason: "Average position worsened from 9 to 12 (3 positions) over 7 days",
    },
    {
      name: "average position 12 → 9 passes (better)",
      rule: "average-position-worse",
      series: stock({ 0: 9, 7: 12 }),
      failing: false,
    },
    {
      name: "average position 9 → 11 passes",
      rule: "average-position-worse",
      series: stock({ 0: 11, 7: 9 }),
      failing: false,
    },
    {
      name: "no clicks for 4 days fails",
      rule: "clicks-no-data",
      series: stock({ 4: 10, 5: 12 }),
      failing: true,
      reason: "No clicks data for 4 days (last value on Nov 21, 2026)",
    },
    { name: "clicks 3 days old pass (provider lag)", rule: "clicks-no-data", series: stock({ 3: 10 }), failing: false },
    { name: "a metric never delivered is not a no-data alert", rule: "clicks-no-data", series: [], failing: false },
    {
      name: "null values count as no data",
      rule: "clicks-no-data",
      series: [...stock({ 6: 10 }), { day: AS_OF, value: null }],
      failing: true,
      reason: "No clicks data for 6 days (last value on Nov 19, 2026)",
    },
  ])("$name", ({ rule, series, failing, reason }) => {
    const result = evaluateRule(defaultRule(rule), series, AS_OF);
    expect(result.failing).toBe(failing);
    expect(result.reason).toBe(failing ? reason : null);
  });

  it("reports what it observed, so the alert row can keep the values", () => {
    expect(evaluateRule(defaultRule("domain-rating-drop"), stock({ 0: 52, 7: 54 }), AS_OF).observed).toMatchObject({
      kind: "change",
      current: 52,
      baseline: 54,
      change: -2,
      asOf: AS_OF,
    });
    expect(evaluateRule(defaultRule("clicks-no-data"), stock({ 5: 1 }), AS_OF).observed).toEqual({
      kind: "noData",
      lastDay: "2026-11-20",
      daysWithoutData: 5,
    });
  });

  it("uses the rule's window", () => {
    const rule = { ...defaultRule("domain-rating-drop"), window: 30 as const };
    const series = stock({ 0: 50, 7: 50, 30: 53 });
    expect(evaluateRule(rule, series, AS_OF)).toMatchObject({
      failing: true,
      reason: "Domain rating fell from 53 to 50 (−3) over 30 days",
    });
    expect(evaluateRule(defaultRule("domain-rating-drop"), series, AS_OF).failing).toBe(false);
  });

  it("never fails a disabled rule", () => {
    const rule = { ...defaultRule("domain-rating-drop"), enabled: false };
    expect(evaluateRule(rule, stock({ 0: 40, 7: 54 }), AS_OF)).toMatchObject({ failing: false, reason: null });
  });
});

describe("effectiveRules", () => {
  it("patches the company's rules with a group's overrides, field by field", () => {
    const rules = effectiveRules(DEFAULT_ALERT_RULES, [
      { id: "clicks-drop", threshold: 30, minBaseline: null },
      { id: "domain-rating-drop", enabled: false, window: 30 },
      { id: "gone-rule", threshold: 5 },
    ]);
    expect(rules.map((rule) => rule.id)).toEqual(DEFAULT_ALERT_RULES.map((rule) => rule.id));
    expect(rules.find((rule) => rule.id === "clicks-drop")).toMatchObject({
      metric: "clicks",
      threshold: 30,
      minBaseline: null,
      window: 7,
      enabled: true,
    });
    expect(rules.find((rule) => rule.id === "domain-rating-drop")).toMatchObject({
      enabled: false,
      window: 30,
      threshold: 1,
    });
    expect(rules.find((rule) => rule.id === "average-position-worse")).toEqual(defaultRule("average-position-worse"));
  });

  it("gives the defaults without overrides", () => {
    expect(effectiveRules(DEFAULT_ALERT_RULES, [])).toEqual(DEFAULT_ALERT_RULES);
  });
});

describe("ZAlertRule", () => {
  it("accepts every default rule", () => {
    for (const rule of DEFAULT_ALERT_RULES) expect(ZAlertRule.safeParse(rule).success).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["a negative threshold", { threshold: -1 }, "threshold", ALERT_RULE_MESSAGES.threshold],
    ["a window of 14", { window: 14 }, "window", ALERT_RULE_MESSAGES.window],
    ["an unknown metric", { metric: "bounces" }, "metric", ALERT_RULE_MESSAGES.metric],
    ["an unknown condition", { condition: "above" }, "condition", ALERT_RULE_MESSAGES.condition],
    ["a negative minimum baseline", { minBaseline: -5 }, "minBaseline", ALERT_RULE_MESSAGES.minBaseline],
    ["an id with spaces", { id: "my rule" }, "id", ALERT_RULE_MESSAGES.id],
    [
      "half a day without data",
      { condition: "noDataFor", threshold: 2.5 },
      "threshold",
      ALERT_RULE_MESSAGES.noDataDays,
    ],
    ["a year without data", { condition: "noDataFor", threshold: 365 }, "threshold", ALERT_RULE_MESSAGES.noDataDays],
  ])("rejects %s with a clear message", (_name, change, field, message) => {
    const result = ZAlertRule.safeParse({ ...defaultRule("clicks-drop"), ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toContainEqual(expect.objectContaining({ path: [field], message }));
  });

  it("validates overrides", () => {
    expect(ZAlertRuleOverride.safeParse({ id: "clicks-drop", threshold: 10 }).success).toBe(true);
    expect(ZAlertRuleOverride.safeParse({ id: "clicks-drop", window: 3 }).success).toBe(false);
  });
});
