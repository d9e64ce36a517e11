import { describe, expect, it } from "vitest";
import type { TTableMetric } from "../contract/dashboards";
import { DEFAULT_SUMMARY_SIZE, dashboardInsights, rankInsights } from "./rank";
import { COMPARISON, RANGE, totalsTable } from "./test-series";
import type { Insight, InsightWidget } from "./widget";

/** Test builder: an insight with only what ranking reads set meaningfully. */
function insight(overrides: Partial<Insight> & { explained?: number }): Insight {
  const { explained, ...rest } = overrides;
  const base: Insight = {
    widgetId: "w1",
    order: 0,
    metricKey: "a.sessions",
    metricLabel: "Sessions",
    metricIndex: 0,
    currency: null,
    aggregation: "sum",
    direction: "up",
    tone: "good",
    current: 110,
    previous: 100,
    delta: 10,
    percentChange: 10,
    unusualness: 1,
    basis: "band",
    contribution: explained === undefined ? null : { contributors: [], other: 0, explainedShare: explained },
    sentence: "s",
  };
  const merged = { ...base, ...rest };
  return { ...merged, sentence: rest.sentence ?? `${merged.metricLabel} in ${merged.widgetId}` };
}

const ids = (list: Insight[]) => list.map((entry) => `${entry.widgetId}:${entry.metricLabel}`);

describe("rankInsights", () => {
  it.each<[string, Insight[], string[]]>([
    [
      "most unusual first",
      [
        insight({ widgetId: "w1", metricLabel: "Sessions", unusualness: 1.2 }),
        insight({ widgetId: "w2", metricLabel: "Revenue", unusualness: 3 }),
        insight({ widgetId: "w3", metricLabel: "Clicks", unusualness: 2 }),
      ],
      ["w2:Revenue", "w3:Clicks", "w1:Sessions"],
    ],
    [
      "one statement per metric: the one that explains most of the change speaks",
      [
        insight({ widgetId: "total", metricLabel: "Sessions", unusualness: 3 }),
        insight({ widgetId: "by-channel", order: 1, metricLabel: "Sessions", unusualness: 1.1, explained: 0.9 }),
        insight({ widgetId: "by-device", order: 2, metricLabel: "sessions", unusualness: 1.1, explained: 0.5 }),
      ],
      ["by-channel:Sessions"],
    ],
    [
      "a metric ranks by the most unusual of its widgets, not by the one chosen to speak",
      [
        insight({ widgetId: "w1", metricLabel: "Clicks", unusualness: 2 }),
        insight({ widgetId: "total", metricLabel: "Sessions", unusualness: 3 }),
        insight({ widgetId: "by-channel", order: 1, metricLabel: "Sessions", unusualness: 1.1, explained: 0.9 }),
      ],
      ["by-channel:Sessions", "w1:Clicks"],
    ],
    [
      "the same name in two currencies is two metrics",
      [
        insight({ widgetId: "eu", metricLabel: "Revenue", currency: "EUR", unusualness: 2 }),
        insight({ widgetId: "us", metricLabel: "Revenue", currency: "USD", unusualness: 1.5 }),
      ],
      ["eu:Revenue", "us:Revenue"],
    ],
    [
      "ties: the larger explained share, then the dashboard's order, then the column",
      [
        insight({ widgetId: "w3", order: 3, metricLabel: "C", unusualness: 2 }),
        insight({ widgetId: "w2", order: 2, metricLabel: "B", unusualness: 2 }),
        insight({ widgetId: "w2", order: 2, metricLabel: "A", metricIndex: 1, unusualness: 2 }),
        insight({ widgetId: "w9", order: 9, metricLabel: "D", unusualness: 2, explained: 0.4 }),
      ],
      ["w9:D", "w2:B", "w2:A", "w3:C"],
    ],
  ])("%s", (_name, input, expected) => {
    expect(ids(rankInsights(input))).toEqual(expected);
    // Same inputs in any order, same summary.
    expect(ids(rankInsights([...input].reverse()))).toEqual(expected);
  });

  it("keeps the top five, or as many as asked", () => {
    const many = Array.from({ length: 8 }, (_, index) =>
      insight({ widgetId: `w${index}`, order: index, metricLabel: `M${index}`, unusualness: 1 + index }),
    );
    expect(rankInsights(many)).toHaveLength(DEFAULT_SUMMARY_SIZE);
    expect(ids(rankInsights(many, 3))).toEqual(["w7:M7", "w6:M6", "w5:M5"]);
    expect(rankInsights([])).toEqual([]);
  });
});

describe("dashboardInsights", () => {
  const metric = (key: string, label: string, format: TTableMetric["format"] = "number"): TTableMetric => ({
    key,
    label,
    format,
  });
  const widget = (
    id: string,
    order: number,
    metrics: TTableMetric[],
    now: number[],
    before: number[],
  ): InsightWidget => ({
    widgetId: id,
    order,
    data: { current: totalsTable(metrics, now), previous: totalsTable(metrics, before) },
    range: RANGE,
    comparison: COMPARISON,
  });

  it("ranks the movements of every widget, one per metric, and drops what is not worth saying", () => {
    const widgets = [
      widget(
        "w-traffic",
        0,
        [metric("a.sessions", "Sessions"), metric("a.users", "Users")],
        [13_000, 9_100],
        [10_000, 9_000],
      ),
      widget("w-sessions", 1, [metric("b.sessions", "Sessions")], [13_000], [10_000]),
      widget("w-ads", 2, [metric("c.cost", "Cost", "money")], [5_000], [10_000]),
      widget("w-none", 3, [metric("d.leads", "Leads")], [12], [10]),
    ];
    expect(dashboardInsights(widgets).map((entry) => entry.sentence)).toEqual([
      "Cost down 50% (−$5,000.00) vs Oct 1 – Oct 30.",
      "Sessions up 30% (+3,000) vs Oct 1 – Oct 30.",
    ]);
    expect(dashboardInsights(widgets)[1].widgetId).toBe("w-traffic");
    expect(dashboardInsights(widgets, { limit: 1 })).toHaveLength(1);
  });

  it("money with no currency is the widget's USD: one metric with an explicit 'usd', another in EUR", () => {
    const revenue = (currency: string | null): TTableMetric => ({
      ...metric("a.revenue", "Revenue", "money"),
      currency,
    });
    const widgets = [
      widget("w-default", 0, [revenue(null)], [2_000], [1_000]),
      widget("w-usd", 1, [revenue("usd")], [2_000], [1_000]),
      widget("w-eur", 2, [revenue("EUR")], [1_500], [1_000]),
    ];
    expect(dashboardInsights(widgets).map((entry) => [entry.widgetId, entry.currency, entry.sentence])).toEqual([
      ["w-default", "USD", "Revenue up 100% (+$1,000.00) vs Oct 1 – Oct 30."],
      ["w-eur", "EUR", "Revenue up 50% (+€500.00) vs Oct 1 – Oct 30."],
    ]);
  });
});
