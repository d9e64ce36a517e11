import type { TTable } from "@app/core";
import { describe, expect, it } from "vitest";
import { visibleMetrics } from "../data/view-model";
import { radarData } from "./radar-data";

const widget = { instances: [] } as unknown as Parameters<typeof visibleMetrics>[1];

function table(dimension: boolean, rows: Array<[string, number, number]>, totals: [number, number]): TTable {
  return {
    dimension: dimension ? { key: "channel", label: "Channel", kind: "string" } : null,
    metrics: [
      { key: "a.sessions", label: "Sessions", format: "number" },
      { key: "a.conversions", label: "Conversions", format: "number" },
    ],
    rows: dimension ? rows.map(([name, s, c]) => ({ dimension: name, values: [s, c] })) : [],
    totals,
  };
}

const NOW = table(
  true,
  [
    ["Direct", 200, 10],
    ["Organic", 400, 8],
    ["Email", 100, 20],
  ],
  [700, 38],
);
const BEFORE = table(
  true,
  [
    ["Organic", 300, 4],
    ["Direct", 250, 5],
    ["Email", 50, 40],
  ],
  [600, 49],
);
const options = { compact: false, comparison: "Previous period" };

describe("radarData", () => {
  it.each([
    {
      name: "one spoke per dimension value, largest first by the first metric",
      current: NOW,
      previous: null,
      spokes: ["Organic", "Direct", "Email"],
      polygons: ["Sessions", "Conversions"],
    },
    {
      name: "one polygon per metric and period",
      current: NOW,
      previous: BEFORE,
      spokes: ["Organic", "Direct", "Email"],
      polygons: ["Sessions", "Sessions (previous)", "Conversions", "Conversions (previous)"],
    },
    {
      name: "without a dimension: one spoke per metric, one polygon per period",
      current: table(false, [], [700, 38]),
      previous: table(false, [], [600, 49]),
      spokes: ["Sessions", "Conversions"],
      polygons: ["Current period", "Previous period"],
    },
  ])("$name", ({ current, previous, spokes, polygons }) => {
    const data = radarData(current, previous, visibleMetrics(current, widget), options);
    expect(data.spokes.map((spoke) => spoke.name)).toEqual(spokes);
    expect(data.polygons.map((polygon) => polygon.name)).toEqual(polygons);
  });

  it("scales each metric to its own largest value across both periods, keeping the real values as text", () => {
    const data = radarData(NOW, BEFORE, visibleMetrics(NOW, widget), options);
    const [sessions, sessionsBefore, conversions, conversionsBefore] = data.polygons;
    expect(data.spokes.every((spoke) => spoke.max === 1.1)).toBe(true);
    expect(sessions.values).toEqual([1, 0.5, 0.25]);
    expect(sessionsBefore.values).toEqual([0.75, 0.625, 0.125]);
    expect(conversions.values).toEqual([0.2, 0.25, 0.5]);
    expect(conversionsBefore.values).toEqual([0.1, 0.125, 1]);
    expect(conversions.texts).toEqual(["8", "10", "20"]);
    expect(sessionsBefore.previous).toBe(true);
  });

  it("one metric keeps its real values and names the periods; a custom comparison is named by its days", () => {
    const one = {
      ...NOW,
      metrics: NOW.metrics.slice(0, 1),
      rows: NOW.rows.map((row) => ({ ...row, values: row.values.slice(0, 1) })),
    };
    const before = {
      ...BEFORE,
      metrics: BEFORE.metrics.slice(0, 1),
      rows: BEFORE.rows.map((row) => ({ ...row, values: row.values.slice(0, 1) })),
    };
    const data = radarData(one, before, visibleMetrics(one, widget), {
      compact: false,
      comparison: "vs Oct 1 – Oct 14",
    });
    expect(data.polygons.map((polygon) => polygon.name)).toEqual(["Current period", "vs Oct 1 – Oct 14"]);
    expect(data.polygons[0].values).toEqual([400, 200, 100]);
    expect(data.spokes[0].max).toBeCloseTo(440, 6);
    const several = radarData(NOW, BEFORE, visibleMetrics(NOW, widget), {
      compact: false,
      comparison: "vs Oct 1 – Oct 14",
    });
    expect(several.polygons[1].name).toBe("Sessions (vs Oct 1 – Oct 14)");
  });

  it("keeps at most eight spokes", () => {
    const many = table(
      true,
      Array.from({ length: 12 }, (_, index) => [`c${index}`, 100 - index, index] as [string, number, number]),
      [0, 0],
    );
    expect(radarData(many, null, visibleMetrics(many, widget), options).spokes).toHaveLength(8);
  });
});
