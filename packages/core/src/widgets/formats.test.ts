import { describe, expect, it } from "vitest";
import type { TFormatOptions, TMetricOption } from "../contract/dashboards";
import {
  DEFAULT_FORMAT_OPTIONS,
  formatFamily,
  formatOptionsFor,
  isSubFormat,
  WIDGET_FORMATS,
  type WidgetFormat,
} from "./formats";
import { resolveOrderBy, sanitiseMetricsOptions } from "./metric-options";
import {
  GRID_COLUMNS,
  INTERACTIVE_WIDGET_DEFAULTS,
  PASSIVE_WIDGET_DEFAULTS,
  WIDGET_SIZES,
  widgetSize,
  widgetSizeByName,
} from "./sizes";
import { emptyTable, tableColumns } from "./table";
import { parseUnless, unlessHolds } from "./unless";

describe("formats (docs/product.md §3, §9)", () => {
  it("lists the eight display formats", () => {
    expect(WIDGET_FORMATS).toEqual([
      "chart:line",
      "chart:area",
      "chart:bar",
      "chart:pie",
      "chart:radar",
      "chart:gauge",
      "table",
      "summary",
    ]);
  });

  it.each<[WidgetFormat, TFormatOptions]>([
    ["chart:line", { visibleGrid: true }],
    ["chart:area", { visibleGrid: true }],
    ["chart:bar", { visibleGrid: true }],
    ["chart:pie", { doughnut: false }],
    ["chart:radar", { visibleLabels: false }],
    ["chart:gauge", { minValue: 0, maxValue: 100 }],
    ["table", {}],
    ["summary", {}],
  ])("%s defaults to %o", (format, expected) => {
    expect(DEFAULT_FORMAT_OPTIONS[format]).toEqual(expected);
    expect(formatOptionsFor(format)).toEqual(expected);
  });

  it.each<[string, WidgetFormat, TFormatOptions, TFormatOptions]>([
    ["keeps own option", "chart:pie", { doughnut: true }, { doughnut: true }],
    ["drops other formats' options", "chart:gauge", { doughnut: true, maxValue: 500 }, { minValue: 0, maxValue: 500 }],
    ["non-finite number falls back", "chart:gauge", { minValue: Number.NaN }, { minValue: 0, maxValue: 100 }],
    ["table keeps nothing", "table", { visibleGrid: false }, {}],
    ["grid switched off", "chart:bar", { visibleGrid: false }, { visibleGrid: false }],
  ])("formatOptionsFor: %s", (_label, format, given, expected) => {
    expect(formatOptionsFor(format, given)).toEqual(expected);
  });

  it.each([
    ["chart:line", "chart"],
    ["chart:gauge", "chart"],
    ["table", "table"],
  ])("formatFamily(%s) → %s", (format, family) => {
    expect(formatFamily(format)).toBe(family);
  });

  it.each([
    ["chart:bar", "chart:line", true],
    ["chart:line", "chart:line", true],
    ["chart:area", "chart:bar", true],
    ["chart:pie", "chart:line", false],
    ["chart:line", "chart:pie", false],
    ["chart:line", "chart:gauge", false],
    ["chart:line", "table", false],
    ["table", "table", false],
    ["summary", "summary", false],
  ])("isSubFormat(%s of %s) → %s", (metricFormat, widgetFormat, expected) => {
    expect(isSubFormat(metricFormat, widgetFormat)).toBe(expected);
  });
});

describe("sizes and defaults (docs/product.md §3, §9)", () => {
  it("has 12 sizes from 1x1 to 4x3 in order", () => {
    expect(WIDGET_SIZES.map((size) => size.name)).toEqual([
      "1x1",
      "2x1",
      "3x1",
      "4x1",
      "1x2",
      "2x2",
      "3x2",
      "4x2",
      "1x3",
      "2x3",
      "3x3",
      "4x3",
    ]);
    expect(GRID_COLUMNS).toBe(4);
  });

  it.each([
    [3, 2, "3x2"],
    [4, 3, "4x3"],
    [5, 1, null],
    [1, 4, null],
  ])("widgetSize(%i, %i) → %s", (width, height, name) => {
    expect(widgetSize(width, height)?.name ?? null).toBe(name);
  });

  it.each([
    ["2x3", { name: "2x3", width: 2, height: 3 }],
    ["5x5", null],
  ])("widgetSizeByName(%s)", (name, expected) => {
    expect(widgetSizeByName(name)).toEqual(expected);
  });

  it("has the product's widget defaults", () => {
    expect(INTERACTIVE_WIDGET_DEFAULTS).toEqual({
      format: "table",
      rowsLimit: 15,
      width: 2,
      height: 1,
      orderBy: { column: "dimension", dir: "asc" },
    });
    expect(PASSIVE_WIDGET_DEFAULTS).toEqual({ format: "textCard", width: 2, height: 1 });
  });
});

describe("sanitiseMetricsOptions (docs/product.md §5)", () => {
  const option = (format: TMetricOption["format"]): TMetricOption => ({ format, cloaked: true, cloakedChange: false });
  it.each<[string, string, TMetricOption["format"], TMetricOption["format"]]>([
    ["bar series in a line chart kept", "chart:line", "chart:bar", "chart:bar"],
    ["line in an area chart kept", "chart:area", "chart:line", "chart:line"],
    ["chart format in a table cleared", "table", "chart:bar", null],
    ["pie sub-format cleared", "chart:pie", "chart:line", null],
    ["gauge in a line chart cleared", "chart:line", "chart:gauge", null],
    ["null stays null", "chart:line", null, null],
  ])("%s", (_label, widgetFormat, format, expected) => {
    expect(sanitiseMetricsOptions(widgetFormat, { sessions: option(format) })).toEqual({ sessions: option(expected) });
  });
});

describe("resolveOrderBy (docs/product.md §5)", () => {
  const columns = ["dimension", "sessions", "users"];
  it.each([
    ["available column kept", { column: "users", dir: "desc" as const }, { column: "users", dir: "desc" }],
    ["dimension kept", { column: "dimension", dir: "desc" as const }, { column: "dimension", dir: "desc" }],
    ["missing column resets", { column: "clicks", dir: "desc" as const }, { column: "dimension", dir: "asc" }],
    ["no ordering resets", null, { column: "dimension", dir: "asc" }],
  ])("%s", (_label, orderBy, expected) => {
    expect(resolveOrderBy(orderBy, columns)).toEqual(expected);
  });
});

describe("tableColumns", () => {
  const metrics = [{ key: "sessions", label: "Sessions", format: "number" as const }];
  it.each([
    ["with dimension", { key: "date", label: "Date", kind: "date" as const }, ["dimension", "sessions"]],
    ["without dimension", null, ["sessions"]],
  ])("%s", (_label, dimension, expected) => {
    expect(tableColumns(emptyTable(metrics, dimension))).toEqual(expected);
  });
});

describe("unless syntax (docs/product.md §5)", () => {
  it.each<[string, string, Record<string, unknown>, boolean]>([
    ["equals one value", "target::profile", { target: "profile" }, true],
    ["equals one of several", "target::campaign|flow", { target: "flow" }, true],
    ["equals none", "target::campaign|flow", { target: "list" }, false],
    ["unset equals none", "target::campaign|flow", {}, false],
    ["negated: equals none", "target!:campaign|flow", { target: "list" }, true],
    ["negated: equals one", "target!:campaign|flow", { target: "campaign" }, false],
    ["negated: unset holds", "target!:campaign|flow", {}, true],
    ["number compared as text", "depth::7", { depth: 7 }, true],
    ["boolean compared as text", "has_header::true", { has_header: true }, true],
    ["boolean false", "has_header::true", { has_header: false }, false],
    ["multiselect any item", "device::mobile|tablet", { device: ["desktop", "tablet"] }, true],
    ["negated multiselect", "device!:mobile", { device: ["desktop"] }, true],
    ["value with a colon", "mode::exact:url", { mode: "exact:url" }, true],
    ["malformed never holds", "target=profile", { target: "profile" }, false],
    ["empty param never holds", "::x", { "": "x" }, false],
  ])("%s", (_label, rule, form, expected) => {
    expect(unlessHolds(rule, form)).toBe(expected);
  });

  it.each([
    ["a::x|y", { param: "a", negated: false, values: ["x", "y"] }],
    ["a!:x", { param: "a", negated: true, values: ["x"] }],
    ["nothing", null],
  ])("parseUnless(%s)", (rule, expected) => {
    expect(parseUnless(rule)).toEqual(expected);
  });
});
