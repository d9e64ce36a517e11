import { DEFAULT_ALERT_RULES, type TAlertRule } from "@app/core";
import { describe, expect, it } from "vitest";
import { describeRule, overridesFrom, thresholdUnit } from "./rules-view";

const byId = (id: string): TAlertRule => {
  const rule = DEFAULT_ALERT_RULES.find((entry) => entry.id === id);
  if (!rule) throw new Error(id);
  return rule;
};

describe("describeRule", () => {
  it.each([
    ["domain-rating-drop", "Domain rating: down 1 or more over 7 days"],
    ["referring-domains-drop", "Referring domains: down 5% or more over 7 days"],
    [
      "clicks-drop",
      "Clicks: down 20% or more in 7 days against the 7 before (when the earlier period had 100 clicks or more)",
    ],
    ["average-position-worse", "Average position: worse by 3 positions or more over 7 days"],
    ["clicks-no-data", "Clicks: no data for 4 days"],
  ])("%s", (id, sentence) => {
    expect(describeRule(byId(id))).toBe(sentence);
  });

  it("one position and one day are singular", () => {
    expect(describeRule({ ...byId("average-position-worse"), threshold: 1, window: 30 })).toBe(
      "Average position: worse by 1 position or more over 30 days",
    );
    expect(describeRule({ ...byId("clicks-no-data"), threshold: 1 })).toBe("Clicks: no data for 1 day");
  });
});

describe("thresholdUnit", () => {
  it.each([
    ["clicks-drop", "%"],
    ["average-position-worse", "positions"],
    ["domain-rating-drop", ""],
    ["clicks-no-data", "days"],
  ])("%s → %s", (id, unit) => {
    expect(thresholdUnit(byId(id))).toBe(unit);
  });
});

describe("overridesFrom", () => {
  it("keeps only what the group changed, per rule", () => {
    const edited = DEFAULT_ALERT_RULES.map((rule) =>
      rule.id === "clicks-drop"
        ? { ...rule, threshold: 30, minBaseline: null }
        : rule.id === "domain-rating-drop"
          ? { ...rule, enabled: false }
          : rule,
    );
    expect(overridesFrom(DEFAULT_ALERT_RULES, edited)).toEqual([
      { id: "domain-rating-drop", enabled: false },
      { id: "clicks-drop", threshold: 30, minBaseline: null },
    ]);
  });

  it("an unchanged copy gives no overrides (the group follows the company)", () => {
    expect(
      overridesFrom(
        DEFAULT_ALERT_RULES,
        DEFAULT_ALERT_RULES.map((rule) => ({ ...rule })),
      ),
    ).toEqual([]);
  });
});
