import { describe, expect, it } from "vitest";
import type { TTableMetric } from "../contract/dashboards";
import {
  addSeries,
  type ChannelShape,
  COMPARISON,
  channelSeries,
  channelTable,
  dayTable,
  RANGE,
  SESSIONS,
  sumOver,
  totalsTable,
} from "./test-series";
import { type InsightWidget, widgetInsights } from "./widget";

const SITE: ChannelShape[] = [
  { name: "Organic Search", weekday: 900, weekend: 400, event: { from: "2026-11-16", factor: 0.3 } },
  { name: "Paid Search", weekday: 400, weekend: 150 },
  { name: "Email", weekday: 120, weekend: 40 },
];
const BOUNCE: TTableMetric = { key: "a.bounce_rate", label: "Bounce Rate", format: "percent", lowerIsBetter: true };

/** A single-number widget of the site's sessions, with (or without) its breakdown by channel. */
function numberWidget(options: { breakdown?: boolean; lagDays?: number } = {}): InsightWidget {
  const channels = channelSeries(SITE, 7);
  const total = addSeries([...channels.values()]);
  return {
    widgetId: "w-number",
    order: 0,
    data: {
      current: totalsTable([SESSIONS], [sumOver(total, RANGE)]),
      previous: totalsTable([SESSIONS], [sumOver(total, COMPARISON)]),
    },
    range: RANGE,
    comparison: COMPARISON,
    series: { [SESSIONS.key]: total },
    ...(options.breakdown && {
      breakdown: { current: channelTable(channels, RANGE), previous: channelTable(channels, COMPARISON) },
    }),
    ...(options.lagDays !== undefined && { lagDays: options.lagDays }),
  };
}

describe("widgetInsights with a breakdown for a widget without a dimension", () => {
  it("names the channel that explains a single number's change, in the breakdown's deltas", () => {
    const widget = numberWidget({ breakdown: true });
    const [insight] = widgetInsights(widget);
    const organic = (side: "current" | "previous") =>
      widget.breakdown?.[side]?.rows.find((row) => row.dimension === "Organic Search")?.values[0] as number;
    expect(insight.contribution?.contributors[0]).toEqual({
      dimension: "Organic Search",
      delta: organic("current") - organic("previous"),
    });
    expect(insight.sentence).toMatch(
      /^Sessions down [\d.]+% \(−[\d,]+\) vs Oct 1 – Oct 30; Organic Search contributed −/,
    );
    // The numbers said first are the widget's own total, not the breakdown's.
    expect(insight.current).toBe(widget.data.current.totals[0]);
  });

  it.each<[string, Partial<InsightWidget>]>([
    ["without a breakdown: the change alone", {}],
    [
      "a breakdown without its comparison table",
      { breakdown: { current: totalsTable([SESSIONS], [1]), previous: null } },
    ],
    [
      "a breakdown whose columns are not the widget's",
      {
        breakdown: {
          current: channelTable(channelSeries(SITE, 7), RANGE, { ...SESSIONS, key: "b.sessions" }),
          previous: channelTable(channelSeries(SITE, 7), COMPARISON, { ...SESSIONS, key: "b.sessions" }),
        },
      },
    ],
  ])("%s: no contributors", (_name, overrides) => {
    const [insight] = widgetInsights({ ...numberWidget(), ...overrides });
    expect(insight.contribution).toBeNull();
    expect(insight.sentence).toMatch(/^Sessions down [\d.]+% \(−[\d,]+\) vs Oct 1 – Oct 30\.$/);
  });

  it("a ratio never says contributed, breakdown or not", () => {
    const widget: InsightWidget = {
      ...numberWidget(),
      data: { current: totalsTable([BOUNCE], [52]), previous: totalsTable([BOUNCE], [40]) },
      series: undefined,
      breakdown: {
        current: { ...totalsTable([BOUNCE], [52]), dimension: { key: "channel", label: "Channel", kind: "string" } },
        previous: { ...totalsTable([BOUNCE], [40]), dimension: { key: "channel", label: "Channel", kind: "string" } },
      },
    };
    const [insight] = widgetInsights(widget);
    expect(insight).toMatchObject({ aggregation: "average", contribution: null });
    expect(insight.sentence).not.toContain("contributed");
  });

  it("a widget with its own dimension keeps its own rows (a breakdown is not asked for it)", () => {
    const channels = channelSeries(SITE, 7);
    const widget: InsightWidget = {
      ...numberWidget(),
      data: { current: channelTable(channels, RANGE), previous: channelTable(channels, COMPARISON) },
      breakdown: { current: dayTable(addSeries([...channels.values()]), RANGE), previous: null },
    };
    expect(widgetInsights(widget)[0].contribution?.contributors[0].dimension).toBe("Organic Search");
  });
});

describe("widgetInsights of a lagging connector (rangeSettled)", () => {
  // RANGE ends 2026-11-29.
  it.each<[string, number | undefined, string | undefined, number]>([
    ["no lag declared", undefined, "2026-11-30", 1],
    ["lag 3, the range ending inside it", 3, "2026-11-30", 0],
    ["lag 3, the range final four days later", 3, "2026-12-03", 1],
    ["lag 1, seen the day after the range", 1, "2026-11-30", 0],
    ["lag 1, seen two days after", 1, "2026-12-01", 1],
    ["no today given: not checked", 3, undefined, 1],
  ])("%s", (_name, lagDays, today, count) => {
    const widget = numberWidget({ breakdown: true, lagDays });
    expect(widgetInsights(widget, today ? { today } : {})).toHaveLength(count);
  });
});
