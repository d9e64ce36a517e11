import { describe, expect, it } from "vitest";
import type { TTableMetric, TWidgetData } from "../contract/dashboards";
import { buildInstance, buildWidget } from "../widgets/test-fixtures";
import {
  addSeries,
  type ChannelShape,
  COMPARISON,
  channelSeries,
  channelTable,
  dailySeries,
  dayTable,
  isWeekend,
  RANGE,
  SESSIONS,
  seeded,
  totalsTable,
} from "./test-series";
import { type InsightWidget, insightWidgetSettings, widgetInsights } from "./widget";

// A business site: weekdays busier than weekends, organic and paid traffic growing about 3 % a month.
const SITE: ChannelShape[] = [
  { name: "Organic Search", weekday: 900, weekend: 400, growthPerDay: 0.001 },
  { name: "Paid Search", weekday: 400, weekend: 150, growthPerDay: 0.001 },
  { name: "Email", weekday: 120, weekend: 40 },
  { name: "Referral", weekday: 60, weekend: 30 },
];

const withEvent = (channel: string, from: string, factor: number): ChannelShape[] =>
  SITE.map((shape) => (shape.name === channel ? { ...shape, event: { from, factor } } : shape));

/** The channel widget of a site, with the site's daily sessions as its history. */
function channelWidget(shapes: readonly ChannelShape[], seed: number, withHistory = true): InsightWidget {
  const channels = channelSeries(shapes, seed);
  return {
    widgetId: "w-channels",
    order: 0,
    data: { current: channelTable(channels, RANGE), previous: channelTable(channels, COMPARISON) },
    range: RANGE,
    comparison: COMPARISON,
    series: withHistory ? { [SESSIONS.key]: addSeries([...channels.values()]) } : undefined,
  };
}

const SEEDS = Array.from({ length: 20 }, (_, index) => index + 1);

describe("widgetInsights on synthetic series (weekly pattern, trend, one real event)", () => {
  it.each(SEEDS)("seed %i: Paid Search collapsing in the last 10 days is flagged, Paid Search first", (seed) => {
    const [insight, ...rest] = widgetInsights(channelWidget(withEvent("Paid Search", "2026-11-20", 0.05), seed));
    expect(rest).toEqual([]);
    expect(insight).toMatchObject({ direction: "down", tone: "bad", basis: "band" });
    expect(insight.unusualness).toBeGreaterThan(1.5);
    expect(insight.contribution?.contributors[0].dimension).toBe("Paid Search");
    expect(insight.contribution?.contributors[0].delta).toBeLessThan(0);
    expect(insight.sentence).toMatch(/^Sessions down [\d.]+% \(−[\d,]+\) vs Oct 1 – Oct 30; Paid Search contributed −/);
  });

  it.each(SEEDS)("seed %i: an e-mail campaign quadrupling Email for two weeks is flagged, Email first", (seed) => {
    const [insight, ...rest] = widgetInsights(channelWidget(withEvent("Email", "2026-11-16", 4), seed));
    expect(rest).toEqual([]);
    expect(insight).toMatchObject({ direction: "up", tone: "good", basis: "band" });
    expect(insight.contribution?.contributors[0]).toMatchObject({ dimension: "Email" });
    expect(insight.sentence).toMatch(/^Sessions up [\d.]+% \(\+[\d,]+\) vs Oct 1 – Oct 30; Email contributed \+/);
  });

  it.each(SEEDS)("seed %i: the weekly pattern and the trend alone say nothing", (seed) => {
    // The range has ten weekend days against eight in the comparison: sessions fall ~3 % by the
    // calendar alone, which the weekday-seasonal band predicts.
    expect(widgetInsights(channelWidget(SITE, seed))).toEqual([]);
  });

  it.each(SEEDS)("seed %i: pure noise (±8 %, no trend) says nothing", (seed) => {
    const flat = SITE.map((shape) => ({ ...shape, growthPerDay: 0, noise: 0.08 }));
    expect(widgetInsights(channelWidget(flat, seed))).toEqual([]);
  });

  it.each(SEEDS)("seed %i: pure Gaussian-like noise (σ 10 %) on a total says nothing", (seed) => {
    const random = seeded(seed);
    // Sum of four uniforms: close enough to a normal, with σ ≈ 10 % of the level.
    const series = dailySeries(() => Math.round(1_000 + 173 * (random() + random() + random() + random() - 2)));
    const widget: InsightWidget = {
      widgetId: "w-total",
      order: 0,
      data: { current: dayTable(series, RANGE), previous: dayTable(series, COMPARISON) },
      range: RANGE,
      comparison: COMPARISON,
      series: { [SESSIONS.key]: series },
    };
    expect(widgetInsights(widget)).toEqual([]);
  });

  it.each(SEEDS)("seed %i: noise on small numbers (a few conversions a day) says nothing", (seed) => {
    const random = seeded(seed);
    const conversions: TTableMetric = { key: "a.conversions", label: "Conversions", format: "number" };
    const series = dailySeries(() => Math.floor(random() * 7));
    const widget: InsightWidget = {
      widgetId: "w-conversions",
      order: 0,
      data: { current: dayTable(series, RANGE, conversions), previous: dayTable(series, COMPARISON, conversions) },
      range: RANGE,
      comparison: COMPARISON,
      series: { [conversions.key]: series },
    };
    expect(widgetInsights(widget)).toEqual([]);
  });

  it("days a lagging connector is still filling in are not read as a drop (Mission Control's lagDays)", () => {
    const filling = withEvent("Organic Search", "2026-11-27", 0.1).map((shape) =>
      shape.name === "Paid Search" ? { ...shape, event: { from: "2026-11-27", factor: 0.1 } } : shape,
    );
    const widget = channelWidget(filling, 4);
    expect(widgetInsights(widget)[0]).toMatchObject({ direction: "down", basis: "band" });
    expect(widgetInsights(widget, { anomaly: { lagDays: 3 } })).toEqual([]);
  });

  it("without history the same drop is judged on the fixed percent, and still explained", () => {
    const [insight] = widgetInsights(channelWidget(withEvent("Paid Search", "2026-11-20", 0.05), 1, false));
    expect(insight).toMatchObject({ basis: "fixed", direction: "down" });
    expect(insight.contribution?.contributors[0].dimension).toBe("Paid Search");
  });

  it("a line chart's own days are its history", () => {
    const channels = channelSeries(withEvent("Organic Search", "2026-11-09", 1.5), 3);
    const total = addSeries([...channels.values()]);
    const widget: InsightWidget = {
      widgetId: "w-line",
      order: 0,
      data: { current: dayTable(total, RANGE), previous: dayTable(total, COMPARISON) },
      range: RANGE,
      comparison: COMPARISON,
    };
    const [insight] = widgetInsights(widget);
    expect(insight).toMatchObject({ basis: "band", direction: "up", contribution: null });
    expect(insight.sentence).toMatch(/^Sessions up [\d.]+% \(\+[\d,]+\) vs Oct 1 – Oct 30\.$/);
  });

  it("same inputs, same sentences", () => {
    const shapes = withEvent("Paid Search", "2026-11-20", 0.05);
    expect(widgetInsights(channelWidget(shapes, 7))).toEqual(widgetInsights(channelWidget(shapes, 7)));
  });
});

const TOTALS_WIDGET = { widgetId: "w", order: 0, range: RANGE, comparison: COMPARISON };

function totalsWidget(metrics: TTableMetric[], now: (number | null)[], before: (number | null)[]): InsightWidget {
  return { ...TOTALS_WIDGET, data: { current: totalsTable(metrics, now), previous: totalsTable(metrics, before) } };
}

describe("widgetInsights wording and thresholds (no history: the fixed 10 % threshold)", () => {
  const CPC: TTableMetric = {
    key: "a.cpc",
    label: "Cost per click",
    format: "money",
    currency: "GBP",
    lowerIsBetter: true,
  };
  const POSITION: TTableMetric = {
    key: "a.position",
    label: "Average Position",
    format: "number",
    lowerIsBetter: true,
  };
  const BOUNCE: TTableMetric = { key: "a.bounce", label: "Bounce Rate", format: "percent", lowerIsBetter: true };
  const CTR: TTableMetric = { key: "a.ctr", label: "CTR", format: "percent" };
  const REVENUE: TTableMetric = { key: "a.revenue", label: "Revenue", format: "money", currency: "EUR" };
  const CONVERSIONS: TTableMetric = { key: "a.conversions", label: "Conversions", format: "number" };
  const DURATION: TTableMetric = { key: "a.duration", label: "Avg. Session Duration", format: "time" };

  it.each<[string, TTableMetric, number | null, number | null, string[]]>([
    [
      "a lower-is-better cost falls",
      CPC,
      1.2,
      1.5,
      ["Cost per click improved 20% (from £1.50 to £1.20) vs Oct 1 – Oct 30."],
    ],
    [
      "a lower-is-better cost rises",
      CPC,
      1.8,
      1.5,
      ["Cost per click worsened 20% (from £1.50 to £1.80) vs Oct 1 – Oct 30."],
    ],
    [
      "a better position",
      POSITION,
      4.2,
      6.3,
      ["Average Position improved 33.33% (from 6.3 to 4.2) vs Oct 1 – Oct 30."],
    ],
    ["a ratio", CTR, 3.1, 2.4, ["CTR up 29.17% (from 2.4% to 3.1%) vs Oct 1 – Oct 30."]],
    ["a rate rising by 0.4 points is below the minimum", BOUNCE, 4.4, 4, []],
    ["a rate in points", BOUNCE, 44, 40, ["Bounce Rate worsened 10% (from 40% to 44%) vs Oct 1 – Oct 30."]],
    ["money in euros", REVENUE, 12_500, 10_000, ["Revenue up 25% (+€2,500.00) vs Oct 1 – Oct 30."]],
    ["a time average", DURATION, 100, 80, ["Avg. Session Duration up 25% (from 1m 20s to 1m 40s) vs Oct 1 – Oct 30."]],
    ["3 → 7 conversions is +133 % and noise", CONVERSIONS, 7, 3, []],
    ["from zero", CONVERSIONS, 40, 0, ["Conversions up from 0 to 40 vs Oct 1 – Oct 30."]],
    ["a 9 % move is below the fixed threshold", CONVERSIONS, 1_090, 1_000, []],
    ["no change", CONVERSIONS, 1_000, 1_000, []],
    ["no current value", CONVERSIONS, null, 1_000, []],
    ["no previous value", CONVERSIONS, 1_000, null, []],
  ])("%s", (_name, metric, now, before, sentences) => {
    expect(widgetInsights(totalsWidget([metric], [now], [before])).map((insight) => insight.sentence)).toEqual(
      sentences,
    );
  });

  it("a ratio by channel never says contributed", () => {
    const table = (values: number[]) => ({
      ...totalsTable([BOUNCE], [values.reduce((sum, value) => sum + value, 0) / values.length]),
      dimension: { key: "channel", label: "Channel", kind: "string" as const },
      rows: values.map((value, index) => ({ dimension: `C${index}`, values: [value] })),
    });
    const [insight] = widgetInsights({
      ...TOTALS_WIDGET,
      data: { current: table([60, 40]), previous: table([30, 40]) },
    });
    expect(insight.contribution).toBeNull();
    expect(insight.sentence).toBe("Bounce Rate worsened 42.86% (from 35% to 50%) vs Oct 1 – Oct 30.");
  });

  it.each<[string, Partial<InsightWidget>]>([
    ["no comparison table", { data: { current: totalsTable([CONVERSIONS], [2_000]), previous: null } }],
    ["no comparison range", { comparison: null }],
    [
      "the metric is missing from the comparison",
      { data: { current: totalsTable([CONVERSIONS], [2_000]), previous: totalsTable([], []) } },
    ],
    ["the metric is silenced", { silentMetrics: [CONVERSIONS.key] }],
  ])("missing comparison: %s says nothing", (_name, overrides) => {
    const widget = { ...totalsWidget([CONVERSIONS], [2_000], [1_000]), ...overrides };
    expect(widgetInsights(widget)).toEqual([]);
  });

  it("names the comparison with its year when it is not the viewer's", () => {
    const widget = totalsWidget([CONVERSIONS], [2_000], [1_000]);
    expect(widgetInsights(widget, { currentYear: 2027 })[0].sentence).toBe(
      "Conversions up 100% (+1,000) vs Oct 1, 2026 – Oct 30, 2026.",
    );
  });

  it("one statement per metric, the most unusual first, the thresholds configurable", () => {
    const data: TWidgetData = {
      current: totalsTable([SESSIONS, CONVERSIONS], [1_150, 300]),
      previous: totalsTable([SESSIONS, CONVERSIONS], [1_000, 200]),
    };
    const widget = { ...TOTALS_WIDGET, data };
    expect(widgetInsights(widget).map((insight) => insight.metricKey)).toEqual(["a.conversions", "a.sessions"]);
    const strict = { thresholds: { minAbsolute: { sum: { number: 200 } } } };
    expect(widgetInsights(widget, strict).map((insight) => insight.metricKey)).toEqual([]);
  });

  it("a calculated average (declared) is not additive even with an additive-looking name", () => {
    const metric: TTableMetric = { key: "a.c1", label: "Leads", format: "number" };
    const widget = { ...totalsWidget([metric], [30], [20]), aggregations: { "a.c1": "average" as const } };
    expect(widgetInsights(widget)[0].sentence).toBe("Leads up 50% (from 20 to 30) vs Oct 1 – Oct 30.");
  });
});

describe("insightWidgetSettings", () => {
  const table = {
    metrics: [
      SESSIONS,
      { key: "a.bounce", label: "Bounce", format: "percent" as const },
      { key: "a.calc1", label: "Avg leads", format: "number" as const },
    ],
  };
  const instance = buildInstance({
    inputs: {
      calculatedMetrics: [{ id: "calc1", name: "Avg leads", type: "average", expression: "leads / 2" }],
    },
    metricsOptions: { bounce: { format: null, cloaked: false, cloakedChange: true } },
  });

  it.each<[string, Parameters<typeof buildWidget>[0], string[]]>([
    ["a metric whose change is cloaked", {}, ["a.bounce"]],
    ["a hidden change silences every metric", { hiddenChange: true }, ["a.sessions", "a.bounce", "a.calc1"]],
    ["a share-of-total view silences every metric", { percent: true }, ["a.sessions", "a.bounce", "a.calc1"]],
  ])("%s", (_name, overrides, silent) => {
    const settings = insightWidgetSettings(buildWidget({ instances: [instance], ...overrides }), table);
    expect(settings.silentMetrics).toEqual(silent);
    expect(settings.aggregations).toEqual({ "a.calc1": "average" });
  });
});

// Keeps the weekday helper honest: the range really has more weekend days than its comparison.
it("the scenario's calendar: ten weekend days against eight", () => {
  const weekendDays = (start: string, count: number) =>
    dailySeries(() => 0)
      .filter((point) => point.day >= start)
      .slice(0, count)
      .filter((point) => isWeekend(point.day)).length;
  expect([weekendDays(RANGE.startDate, 30), weekendDays(COMPARISON.startDate, 30)]).toEqual([10, 8]);
});
