import type { TCampaignDomainWithMetrics, TDomainMetricChange } from "@app/core";
import { describe, expect, it } from "vitest";
import { attentionOrder, countLabel, domainAsOf, formatDay, metricCell } from "./view-model";

function change(fields: Partial<TDomainMetricChange>): TDomainMetricChange {
  return {
    metric: "clicks",
    as_of: "2026-11-25",
    current: 1200,
    baseline: 1000,
    change: 200,
    percent_change: 20,
    tone: "good",
    ...fields,
  };
}

describe("metricCell: a metric's value and change as the group table shows them", () => {
  it.each([
    ["a rise in clicks", "clicks" as const, change({}), { value: "1,200", change: "20%", arrow: "up", tone: "good" }],
    [
      "a fall in clicks",
      "clicks" as const,
      change({ current: 600, change: -400, percent_change: -40, tone: "bad" }),
      { value: "600", change: "40%", arrow: "down", tone: "bad" },
    ],
    [
      "no baseline: N/A, never 0 %",
      "sessions" as const,
      change({ metric: "sessions", baseline: null, change: null, percent_change: null, tone: "flat" }),
      { change: "N/A", arrow: null, tone: "flat" },
    ],
    [
      // 12 → 9 is 3 positions better: an up arrow although the number fell.
      "average position counted in positions",
      "averagePosition" as const,
      change({ metric: "averagePosition", current: 9, baseline: 12, change: -3, percent_change: -25, tone: "good" }),
      { value: "9", change: "3 positions", arrow: "up", tone: "good" },
    ],
    [
      "a metric the source lacks",
      "domainRating" as const,
      undefined,
      { value: "N/A", change: "N/A", tone: "flat", asOf: null },
    ],
    [
      "no Search Console for clicks: the reason names what is missing",
      "clicks" as const,
      undefined,
      { value: "N/A", notAvailable: "Clicks: N/A, no Search Console property covers this domain." },
    ],
    [
      "no analytics stream for sessions",
      "sessions" as const,
      undefined,
      { notAvailable: "Sessions: N/A, no Google Analytics 4 stream covers this domain." },
    ],
    [
      "position from Search Console or a rank tracker",
      "averagePosition" as const,
      undefined,
      { notAvailable: "Average position: N/A, no Search Console property or rank tracker covers this domain." },
    ],
    [
      "covered, but no value in the window",
      "clicks" as const,
      change({ current: null, baseline: null, change: null, percent_change: null, tone: "flat", as_of: null }),
      { value: "N/A", notAvailable: "Clicks: N/A, no value for this period yet." },
    ],
    [
      "a value with no earlier one: the change says why",
      "sessions" as const,
      change({ metric: "sessions", baseline: null, change: null, percent_change: null, tone: "flat" }),
      { value: "1,200", change: "N/A", notAvailable: "Sessions change: N/A, no earlier value to compare with." },
    ],
    [
      "a zero baseline: a percent change cannot be said",
      "clicks" as const,
      change({ baseline: 0, change: 1200, percent_change: null }),
      { change: "N/A", notAvailable: "Clicks change: N/A, the earlier value was zero." },
    ],
    ["a value and a change: nothing to explain", "clicks" as const, change({}), { notAvailable: null }],
    [
      "each cell carries its own as-of day",
      "clicks" as const,
      change({ metric: "clicks", as_of: "2026-11-22" }),
      { asOf: "2026-11-22" },
    ],
  ])("%s", (_, key, metric, expected) => {
    expect(metricCell(key, metric)).toMatchObject(expected);
  });
});

describe("domainAsOf: the latest day among a domain's metrics", () => {
  const domain = (metrics: TDomainMetricChange[]) => ({ metrics }) as TCampaignDomainWithMetrics;
  it.each([
    [[], null],
    [[change({ as_of: null })], null],
    [[change({ as_of: "2026-11-24" }), change({ as_of: "2026-11-25" }), change({ as_of: null })], "2026-11-25"],
  ])("%j → %j", (metrics, expected) => {
    expect(domainAsOf(domain(metrics))).toBe(expected);
  });
});

describe("formatting", () => {
  it.each([
    ["2026-11-25", "25 Nov 2026"],
    ["2026-01-01", "1 Jan 2026"],
    ["not a day", "not a day"],
  ])("formatDay(%j) → %j", (day, shown) => {
    expect(formatDay(day)).toBe(shown);
  });
  it.each([
    [0, "0 domains"],
    [1, "1 domain"],
    [1200, "1,200 domains"],
  ])("countLabel(%j) → %j", (count, shown) => {
    expect(countLabel(count, "domain", "domains")).toBe(shown);
  });
});

describe("attentionOrder", () => {
  it("puts domains with alerts first, most first, then the rest by name", () => {
    const domains = [
      { domain: "a.com", alerts: [] },
      { domain: "b.com", alerts: [1] },
      { domain: "c.com", alerts: [] },
      { domain: "d.com", alerts: [1, 2, 3] },
      { domain: "e.com", alerts: [1] },
    ];
    expect(attentionOrder(domains).map((entry) => entry.domain)).toEqual(["d.com", "b.com", "e.com", "a.com", "c.com"]);
    expect(domains[0].domain).toBe("a.com");
  });
});
