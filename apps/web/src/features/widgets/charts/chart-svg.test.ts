import type { TInteractiveWidget, TTable } from "@app/core";
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { install as SVGRenderer } from "echarts/lib/renderer/installSVGRenderer";
import { describe, expect, it } from "vitest";
import type { ChartInput } from "./chart-common";
import { chartSvg } from "./chart-svg";

// The worker's set-up (chart-svg.worker.ts), in Node: ECharts' server-side rendering needs no DOM.
echarts.use(SVGRenderer);
echarts.use([LegendComponent, TooltipComponent]);

const COLOURS = {
  palette: ["#5b5bd6", "#12a594"],
  text: "#1c2024",
  muted: "#60646c",
  line: "#e0e1e6",
  surface: "#fff",
};
const DAYS = Array.from({ length: 14 }, (_, i) => `2026-11-${String(i + 1).padStart(2, "0")}`);

function table(dimension: TTable["dimension"], rows: Array<[string, number, number]>): TTable {
  return {
    dimension,
    metrics: [
      { key: "ga4.sessions", label: "Sessions", format: "number" },
      { key: "ga4.totalUsers", label: "Users", format: "number" },
    ],
    rows: rows.map(([name, a, b]) => ({ dimension: name, values: [a, b] })),
    totals: [rows.reduce((sum, row) => sum + row[1], 0), rows.reduce((sum, row) => sum + row[2], 0)],
  };
}

function input(format: string, current: TTable, previous: TTable | null = null): ChartInput {
  const widget = { format, title: "Traffic", instances: [], percent: false, formatOptions: {} };
  return {
    widget: widget as unknown as TInteractiveWidget,
    current,
    previous,
    colours: COLOURS,
    compact: false,
    comparison: "Previous period",
  };
}

/** The texts an SVG shows, in document order. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
}

const daily = table(
  { key: "date", label: "Date", kind: "date" },
  DAYS.map((day, i) => [day, 4000 + i * 100, 3000 + i * 50]),
);

describe("chartSvg", () => {
  it("a line chart: one path per series and period, the legend's names and readable axis labels", async () => {
    const before = table(
      { key: "date", label: "Date", kind: "date" },
      DAYS.map((day, i) => [day, 3500 + i * 10, 2500 + i * 10]),
    );
    const svg = await chartSvg(echarts, input("chart:line", daily, before), { width: 600, height: 300 });
    expect(svg).toMatch(/^<svg width="600" height="300"/);
    const shown = texts(svg);
    expect(shown).toEqual(expect.arrayContaining(["Sessions", "Users", "Nov 01", "5K", "0"]));
    // Drawn in the series' colours: two lines now, two (dashed) for the previous period.
    expect(svg.match(/stroke="#5b5bd6"/g)?.length).toBeGreaterThanOrEqual(1);
    expect(svg.match(/stroke="#12a594"/g)?.length).toBeGreaterThanOrEqual(1);
    expect(svg).toContain("stroke-dasharray");
  });

  it("a pie chart: one slice per dimension value with its name in the legend", async () => {
    const devices = table({ key: "device", label: "Device", kind: "string" }, [
      ["desktop", 500, 400],
      ["mobile", 300, 250],
      ["tablet", 50, 40],
    ]);
    const svg = await chartSvg(echarts, input("chart:pie", devices), { width: 400, height: 300 });
    expect(texts(svg)).toEqual(expect.arrayContaining(["desktop", "mobile", "tablet"]));
    expect(svg.match(/<path d="M/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it("draws at the size asked (a snapshot is redrawn when its card changes size)", async () => {
    const small = await chartSvg(echarts, input("chart:bar", daily), { width: 320, height: 180 });
    const large = await chartSvg(echarts, input("chart:bar", daily), { width: 900, height: 400 });
    expect(small).toMatch(/viewBox="0 0 320 180"/);
    expect(large).toMatch(/viewBox="0 0 900 400"/);
  });

  it("a goal on a chart over days: a dashed line at its daily share, named on the chart", async () => {
    const withTarget: ChartInput = {
      ...input("chart:line", daily),
      targets: [{ metricKey: "ga4.sessions", value: 4500, label: "Target 4,500 a day", onTrack: true }],
    };
    const svg = await chartSvg(echarts, withTarget, { width: 600, height: 300 });
    if (process.env.CHART_SVG_OUT)
      (await import("node:fs")).writeFileSync(`${process.env.CHART_SVG_OUT}/line.svg`, svg);
    // Its end label and the legend both name it.
    expect(texts(svg).filter((text) => text === "Target 4,500 a day")).toHaveLength(2);
    // The line is flat: every point of its path at one height.
    const dashed = [...svg.matchAll(/<path d="M([^"]+)"[^>]*stroke="#1c2024"[^>]*stroke-dasharray/g)].map((m) => m[1]);
    expect(dashed.length).toBeGreaterThanOrEqual(1);
    const heights = new Set(dashed[0].match(/[-\d.]+ ([-\d.]+)/g)?.map((pair) => pair.split(" ")[1]));
    expect(heights.size).toBe(1);
  });

  it("a goal on a gauge: a notch across the arc at the target", async () => {
    const one: TTable = { dimension: null, metrics: [daily.metrics[0]], rows: [], totals: [60] };
    const gauge = { ...input("chart:gauge", one), size: { width: 300, height: 240 } };
    gauge.widget = { ...gauge.widget, formatOptions: { minValue: 0, maxValue: 100 } };
    const plain = await chartSvg(echarts, gauge, { width: 300, height: 240 });
    const marked = await chartSvg(
      echarts,
      { ...gauge, targets: [{ metricKey: "ga4.sessions", value: 80, label: "Target 80", onTrack: false }] },
      { width: 300, height: 240 },
    );
    if (process.env.CHART_SVG_OUT)
      (await import("node:fs")).writeFileSync(`${process.env.CHART_SVG_OUT}/gauge.svg`, marked);
    // One shape more, in the text colour: the notch.
    const shapes = (svg: string) => svg.match(/fill="#1c2024"/g)?.length ?? 0;
    expect(shapes(marked)).toBe(shapes(plain) + 1);
  });

  it("bars by campaign in a card one row high: every name level and inside the chart, the bars keep their height", async () => {
    const campaigns = table({ key: "campaign", label: "Campaign", kind: "string" }, [
      ["Brand - Search", 4000, 300],
      ["Competitors - Search", 7000, 120],
      ["Generic - Search", 14000, 420],
      ["Prospecting - Video", 4200, 60],
      ["Remarketing - Display", 3800, 250],
    ]);
    const bars = input("chart:bar", campaigns);
    const widget = { ...bars.widget, width: 2, height: 1 } as TInteractiveWidget;
    const size = { width: 426, height: 118 };
    const svg = await chartSvg(echarts, { ...bars, widget }, size);
    // Each name under its bar: level (not turned), its line inside the chart's box, cut short at most.
    const names = [...svg.matchAll(/<text[^>]*transform="([^"]*)"[^>]*>([^<]*)<\/text>/g)].filter(([, , text]) =>
      campaigns.rows.some((row) => String(row.dimension).startsWith(text.replace(/(\.\.\.|…)$/, ""))),
    );
    expect(names.length).toBe(5);
    for (const [, transform] of names) {
      expect(transform).not.toContain("rotate");
      const y = Number(/translate\([\d.]+ ([\d.]+)\)/.exec(transform)?.[1]);
      expect(y + 11).toBeLessThanOrEqual(size.height);
    }
    // The value axis's numbers span most of the chart's height (turned names had squeezed it to ~15 px).
    const ticks = [
      ...svg.matchAll(/text-anchor="end"[^>]*transform="translate\([\d.]+ ([\d.]+)\)"[^>]*>\$?[\d.]+K?</g),
    ].map(([, y]) => Number(y));
    expect(Math.max(...ticks) - Math.min(...ticks)).toBeGreaterThan(size.height / 3);
  });
});
