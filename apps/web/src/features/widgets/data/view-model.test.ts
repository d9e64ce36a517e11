import type { TMetricOption, TTable, TTableMetric } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import {
  asShareOfTotal,
  changeOf,
  compareRows,
  formatAxisValue,
  formatChangeText,
  formatDimension,
  formatMetric,
  isEmptyTable,
  metricOptionFor,
  sortRows,
  visibleMetrics,
} from "./view-model";

const option = (overrides: Partial<TMetricOption> = {}): TMetricOption => ({
  format: null,
  cloaked: false,
  cloakedChange: false,
  ...overrides,
});

const SESSIONS: TTableMetric = { key: "a.sessions", label: "Sessions", format: "number" };
const REVENUE: TTableMetric = { key: "a.revenue", label: "Revenue", format: "money", currency: "EUR" };
const BOUNCE: TTableMetric = { key: "a.bounce_rate", label: "Bounce rate", format: "percent" };

function byChannel(rows: Array<[string | null, ...(number | null)[]]>, totals: (number | null)[]): TTable {
  return {
    dimension: { key: "channel", label: "Channel", kind: "string" },
    metrics: [SESSIONS, REVENUE, BOUNCE],
    rows: rows.map(([dimension, ...values]) => ({ dimension, values })),
    totals,
  };
}

function byDate(rows: Array<[string, number | null]>): TTable {
  return {
    dimension: { key: "date", label: "Date", kind: "date" },
    metrics: [SESSIONS],
    rows: rows.map(([dimension, value]) => ({ dimension, values: [value] })),
    totals: [rows.reduce((sum, [, value]) => sum + (value ?? 0), 0)],
  };
}

describe("metricOptionFor: a column's options from the instance of its prefix", () => {
  const widget = buildWidget({
    instances: [
      buildInstance({ id: "i1", prefix: "a", metricsOptions: { sessions: option({ format: "bar" as never }) } }),
      buildInstance({
        id: "i2",
        prefix: "b",
        metricsOptions: { sessions: option({ cloaked: true }), "b.clicks": option({ cloakedChange: true }) },
      }),
    ],
  });
  it.each<[string, Partial<TMetricOption> | null]>([
    ["a.sessions", { format: "bar" as never }],
    ["b.sessions", { cloaked: true }],
    ["b.clicks", { cloakedChange: true }],
    ["b.users", null],
    // No such prefix: the first instance answers.
    ["z.sessions", { format: "bar" as never }],
    // A key without a prefix is looked up in the first instance.
    ["sessions", { format: "bar" as never }],
  ])("%s", (column, expected) => {
    const found = metricOptionFor(widget, column);
    if (expected === null) expect(found).toBeNull();
    else expect(found).toMatchObject(expected);
  });

  it("a widget without instances has no options", () => {
    expect(metricOptionFor(buildWidget({ instances: [] }), "a.sessions")).toBeNull();
  });
});

describe("visibleMetrics", () => {
  it("hides cloaked columns and keeps each column's index in the table", () => {
    const widget = buildWidget({
      instances: [buildInstance({ metricsOptions: { revenue: option({ cloaked: true }) } })],
    });
    const columns = visibleMetrics(byChannel([], [null, null, null]), widget);
    expect(columns.map((c) => [c.metric.key, c.index])).toEqual([
      ["a.sessions", 0],
      ["a.bounce_rate", 2],
    ]);
  });
});

describe("asShareOfTotal (the 'percent' option)", () => {
  it("turns additive columns into shares of their total and leaves rates alone", () => {
    const table = byChannel(
      [
        ["Direct", 25, 50, 40],
        ["Organic", 75, 150, 60],
      ],
      [100, 200, 55],
    );
    const shares = asShareOfTotal(table);
    expect(shares.rows.map((r) => r.values)).toEqual([
      [25, 25, 40],
      [75, 75, 60],
    ]);
    expect(shares.totals).toEqual([100, 100, 55]);
    expect(shares.metrics.map((m) => [m.format, m.currency ?? null])).toEqual([
      ["percent", null],
      ["percent", null],
      ["percent", null],
    ]);
    // The input is not changed.
    expect(table.rows[0].values).toEqual([25, 50, 40]);
  });

  it.each<[string, number | null, number | null, number | null, number | null]>([
    ["a zero total: N/A", 5, 0, null, null],
    ["no total: N/A", 5, null, null, null],
    ["an N/A value stays N/A", null, 10, null, 100],
  ])("%s", (_name, value, total, expectedShare, expectedTotal) => {
    const shares = asShareOfTotal(byChannel([["Direct", value, 0, 0]], [total, 0, 0]));
    expect(shares.rows[0].values[0]).toBe(expectedShare);
    expect(shares.totals[0]).toBe(expectedTotal);
  });
});

describe("compareRows", () => {
  it("pairs dates by position (day 1 with day 1 of the previous period)", () => {
    const current = byDate([
      ["2026-10-01", 10],
      ["2026-10-02", 20],
      ["2026-10-03", 30],
    ]);
    const previous = byDate([
      ["2026-09-01", 1],
      ["2026-09-02", 2],
    ]);
    expect(compareRows(current, previous).map((r) => [r.dimension, r.previous])).toEqual([
      ["2026-10-01", [1]],
      ["2026-10-02", [2]],
      ["2026-10-03", null],
    ]);
  });

  it("pairs other dimensions by value, whatever the order", () => {
    const current = byChannel(
      [
        ["Direct", 1, 0, 0],
        ["Email", 2, 0, 0],
        [null, 3, 0, 0],
      ],
      [6, 0, 0],
    );
    const previous = byChannel(
      [
        ["Email", 20, 0, 0],
        [null, 30, 0, 0],
        ["Paid", 40, 0, 0],
      ],
      [90, 0, 0],
    );
    expect(compareRows(current, previous).map((r) => [r.dimension, r.previous?.[0] ?? null])).toEqual([
      ["Direct", null],
      ["Email", 20],
      [null, 30],
    ]);
  });

  it("without a comparison every row has no previous values", () => {
    expect(compareRows(byDate([["2026-10-01", 1]]), null)).toEqual([
      { dimension: "2026-10-01", values: [1], previous: null },
    ]);
  });
});

describe("sortRows", () => {
  const table = byChannel(
    [
      ["item 10", 5, null, 0],
      ["Item 2", 50, 1, 0],
      ["item 1", null, 3, 0],
      ["Item 3", 20, 2, 0],
    ],
    [75, 6, 0],
  );
  const rows = compareRows(table, null);
  it.each<[string, "asc" | "desc", Array<string | null>]>([
    ["dimension", "asc", ["item 1", "Item 2", "Item 3", "item 10"]],
    ["dimension", "desc", ["item 10", "Item 3", "Item 2", "item 1"]],
    ["a.sessions", "asc", ["item 10", "Item 3", "Item 2", "item 1"]],
    ["a.sessions", "desc", ["Item 2", "Item 3", "item 10", "item 1"]],
    ["a.revenue", "desc", ["item 1", "Item 3", "Item 2", "item 10"]],
    ["a.revenue", "asc", ["Item 2", "Item 3", "item 1", "item 10"]],
    // An unknown column leaves the order as it came.
    ["a.gone", "asc", ["item 10", "Item 2", "item 1", "Item 3"]],
  ])("by %s %s (numbers as numbers, N/A last either way)", (column, dir, expected) => {
    expect(sortRows(rows, { column, dir }, table).map((r) => r.dimension)).toEqual(expected);
  });

  it("does not reorder the rows it was given", () => {
    sortRows(rows, { column: "a.sessions", dir: "asc" }, table);
    expect(rows.map((r) => r.dimension)).toEqual(["item 10", "Item 2", "item 1", "Item 3"]);
  });
});

describe("formatting", () => {
  it.each<[number | null | undefined, TTableMetric, string]>([
    [1234.5, SESSIONS, "1,234.5"],
    [1234.5, REVENUE, "€1,234.50"],
    [42.123, BOUNCE, "42.12%"],
    [null, SESSIONS, "N/A"],
    [undefined, REVENUE, "N/A"],
  ])("formatMetric(%s, %s)", (value, metric, expected) => {
    expect(formatMetric(value, metric)).toBe(expected);
  });

  it.each<[number, TTableMetric | undefined, string]>([
    [12_345, SESSIONS, "12.3K"],
    [1_250_000, REVENUE, "€1.3M"],
    [1_250_000, { ...REVENUE, currency: "not-a-code" }, "1.3M"],
    [1_250_000, { ...REVENUE, currency: null }, "$1.3M"],
    [45, BOUNCE, "45%"],
    [3_723, { key: "a.t", label: "Time", format: "time" }, "1h 2m 3s"],
    [999, undefined, "999"],
  ])("formatAxisValue(%s, %j)", (value, metric, expected) => {
    expect(formatAxisValue(value, metric)).toBe(expected);
  });

  // The space is the language's (a no-break or narrow no-break one, by the ICU version): matched as such.
  it.each<[number, string, RegExp]>([
    [48, "de-DE", /^48[\u00a0\u202f]%$/],
    [12.5, "fr-FR", /^12,5[\u00a0\u202f]%$/],
    [48, "sl-SI", /^48[\u00a0\u202f]%$/],
    [48, "it-IT", /^48%$/],
    [48, "en-US", /^48%$/],
  ])("a percent axis reads %s in %s as its language writes it", (value, locale, expected) => {
    expect(formatAxisValue(value, BOUNCE, locale)).toMatch(expected);
    // The same as the value's own label, less its fraction digits.
    expect(formatAxisValue(value, BOUNCE, locale)).toBe(formatMetric(value, BOUNCE, locale));
  });

  const dates = byDate([]);
  const channels = byChannel([], [null, null, null]);
  it.each<[string | null, TTable, boolean, string]>([
    ["2026-01-05", dates, false, "Jan 05"],
    ["2026-01-05", dates, true, "Jan 05, 2026"],
    ["not a date", dates, false, "not a date"],
    ["2026-01-05", channels, false, "2026-01-05"],
    [null, channels, false, "(not set)"],
    ["", dates, true, "(not set)"],
  ])("formatDimension(%j)", (value, table, long, expected) => {
    expect(formatDimension(value, table, long)).toBe(expected);
  });

  it.each<[number | null | undefined, number | null | undefined, string]>([
    [150, 100, "+50%"],
    [50, 100, "-50%"],
    [100, 100, "0%"],
    [100.001, 100, "0%"],
    [5, 0, "N/A"],
    [null, 5, "N/A"],
    [5, undefined, "N/A"],
  ])("change from %s to… %s reads %s", (current, previous, expected) => {
    expect(formatChangeText(changeOf(current, previous))).toBe(expected);
  });
});

describe("isEmptyTable", () => {
  it.each<[string, TTable, boolean]>([
    ["no metrics", { dimension: null, metrics: [], rows: [], totals: [] }, true],
    ["a dimension without rows", byDate([]), true],
    ["a dimension with rows", byDate([["2026-10-01", null]]), false],
    ["a summary with every total N/A", { dimension: null, metrics: [SESSIONS], rows: [], totals: [null] }, true],
    ["a summary with a total", { dimension: null, metrics: [SESSIONS], rows: [], totals: [0] }, false],
  ])("%s: %s", (_name, table, expected) => {
    expect(isEmptyTable(table)).toBe(expected);
  });
});
