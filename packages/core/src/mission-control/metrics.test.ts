import { describe, expect, it } from "vitest";
import { DOMAIN_METRIC_KEYS, DOMAIN_METRICS, type DomainMetricKey, describeChange, isDomainMetricKey } from "./metrics";

describe("DOMAIN_METRICS", () => {
  it("defines every key under its own name", () => {
    for (const key of DOMAIN_METRIC_KEYS) expect(DOMAIN_METRICS[key].key).toBe(key);
  });

  it.each<[DomainMetricKey, "stock" | "flow", boolean]>([
    ["domainRating", "stock", false],
    ["referringDomains", "stock", false],
    ["rankedKeywords", "stock", false],
    ["averagePosition", "stock", true],
    ["keywordsTop3", "stock", false],
    ["keywordsTop10", "stock", false],
    ["clicks", "flow", false],
    ["impressions", "flow", false],
    ["sessions", "flow", false],
    ["users", "flow", false],
    ["conversions", "flow", false],
    ["organicTraffic", "flow", false],
  ])("%s is a %s, lowerIsBetter=%s", (key, kind, lowerIsBetter) => {
    expect(DOMAIN_METRICS[key]).toMatchObject({ kind, lowerIsBetter });
  });

  it("formats CTR as a percent and counts position changes in positions", () => {
    expect(DOMAIN_METRICS.ctr).toMatchObject({ format: "percent", changeUnit: "points", aggregate: "mean" });
    expect(DOMAIN_METRICS.averagePosition.changeUnit).toBe("positions");
  });

  it.each([
    ["clicks", true],
    ["averagePosition", true],
    ["toString", false],
    ["", false],
    [3, false],
  ])("isDomainMetricKey(%s) = %s", (value, expected) => {
    expect(isDomainMetricKey(value)).toBe(expected);
  });
});

describe("describeChange", () => {
  it.each<[DomainMetricKey, number | null, number | null, string, "up" | "down" | null]>([
    ["clicks", -140, -20, "20%", "down"],
    ["clicks", 150, 12.345, "12.35%", "up"],
    ["clicks", 7, null, "N/A", null],
    ["clicks", null, null, "N/A", null],
    ["clicks", 0, 0, "0%", null],
    ["clicks", 1, 0.0001, "0%", null],
    ["averagePosition", -3, -25, "3 positions", "up"],
    ["averagePosition", 3, 33, "3 positions", "down"],
    ["averagePosition", -1, -10, "1 position", "up"],
    ["averagePosition", 0.5, 5, "0.5 positions", "down"],
    ["averagePosition", null, null, "N/A", null],
    ["ctr", 1, 50, "1 pt", "up"],
    ["ctr", -0.25, -10, "0.25 pts", "down"],
    ["domainRating", -2, -3.7037, "3.7%", "down"],
  ])("%s change %s (%s %%) reads %s %s", (key, change, percentChange, text, arrow) => {
    expect(describeChange(DOMAIN_METRICS[key], { change, percentChange })).toEqual({ text, arrow });
  });
});
