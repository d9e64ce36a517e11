import { describe, expect, it } from "vitest";
import type { TTableMetric } from "../contract/dashboards";
import { INSIGHT_DEFAULTS, insightThresholds, metricAggregation } from "./kind";

describe("metricAggregation", () => {
  it.each<[string, string, TTableMetric["format"], "sum" | "average"]>([
    ["a.sessions", "Sessions", "number", "sum"],
    ["a.clicks", "Clicks", "number", "sum"],
    ["a.cost", "Cost", "money", "sum"],
    ["a.revenue", "Revenue", "money", "sum"],
    ["a.shares", "Shares", "number", "sum"],
    ["a.posts", "Posts", "number", "sum"],
    ["a.bounceRate", "Bounce Rate", "percent", "average"],
    ["a.ctr", "CTR", "percent", "average"],
    ["a.avgSessionDuration", "Avg. Session Duration", "time", "average"],
    ["a.timeOnPage", "Time on Page", "time", "average"],
    ["a.cpc", "CPC", "money", "average"],
    ["a.cost_per_conversion", "Cost per conversion", "money", "average"],
    ["a.position", "Position", "number", "average"],
    ["a.average_position", "Average Position", "number", "average"],
    ["a.pages_per_session", "Pages / Session", "number", "average"],
    ["a.engagement_rate", "Engagement", "number", "average"],
    ["a.roas", "ROAS", "number", "average"],
  ])("%s (%s, %s) → %s", (key, label, format, expected) => {
    expect(metricAggregation({ key, label, format })).toBe(expected);
  });

  it("a declared aggregation wins over the guess", () => {
    expect(metricAggregation({ key: "a.c1", label: "Leads per day", format: "number" }, "sum")).toBe("sum");
    expect(metricAggregation({ key: "a.c2", label: "Total", format: "number" }, "average")).toBe("average");
  });
});

describe("insightThresholds", () => {
  it("overrides one kind's minimum and keeps the others", () => {
    const thresholds = insightThresholds({ minAbsolute: { sum: { number: 100 } }, maxContributors: 2 });
    expect(thresholds.minAbsolute).toEqual({
      sum: { ...INSIGHT_DEFAULTS.minAbsolute.sum, number: 100 },
      average: INSIGHT_DEFAULTS.minAbsolute.average,
    });
    expect(thresholds.fallbackPercent).toBe(INSIGHT_DEFAULTS.fallbackPercent);
    expect(thresholds.maxContributors).toBe(2);
  });
});
