import { describe, expect, it } from "vitest";
import type { TInteractiveWidget, TWidget } from "../contract/dashboards";
import { canMerge, mergeWidgets, uniquePrefix, widgetDimension } from "./merge";
import { classifyWidgetChange, sameValue } from "./refresh";
import { buildInstance, buildPassiveWidget, buildWidget } from "./test-fixtures";

describe("classifyWidgetChange (docs/product.md §4)", () => {
  const before = buildWidget();
  const withInstance = (overrides: Parameters<typeof buildInstance>[0]) =>
    buildWidget({ instances: [buildInstance(overrides)] });

  it.each<[string, TWidget, TWidget, string]>([
    ["nothing changed", before, buildWidget(), "reveal"],
    ["title changed", before, buildWidget({ title: "Other" }), "reveal"],
    ["size changed", before, buildWidget({ width: 4, height: 2 }), "reveal"],
    ["id changed", before, buildWidget({ id: "w2" }), "data"],
    ["percent changed", before, buildWidget({ percent: true }), "data"],
    [
      "instance added",
      before,
      buildWidget({ instances: [buildInstance(), buildInstance({ id: "i2", prefix: "b" })] }),
      "data",
    ],
    ["config changed", before, withInstance({ config: "users" }), "data"],
    ["prefix changed", before, withInstance({ prefix: "z" }), "data"],
    ["currency changed", before, withInstance({ currency: "EUR" }), "data"],
    ["source changed", before, withInstance({ sourceId: "s2" }), "data"],
    [
      "inputs changed",
      before,
      withInstance({ inputs: { property: "p2", dimension: "date", metrics: ["sessions"] } }),
      "data",
    ],
    [
      "inputs reordered keys only",
      before,
      withInstance({ inputs: { metrics: ["sessions"], dimension: "date", property: "p1" } }),
      "reveal",
    ],
    ["orderBy changed", before, buildWidget({ orderBy: { column: "sessions", dir: "desc" } }), "style"],
    ["rowsLimit changed", before, buildWidget({ rowsLimit: 5 }), "style"],
    ["format changed", before, buildWidget({ format: "chart:line" }), "style"],
    ["format options changed", before, buildWidget({ formatOptions: { visibleGrid: false } }), "style"],
    [
      "metric options changed",
      before,
      withInstance({ metricsOptions: { sessions: { format: null, cloaked: true, cloakedChange: false } } }),
      "style",
    ],
    ["data wins over style", before, buildWidget({ rowsLimit: 5, percent: true }), "data"],
    ["passive before", buildPassiveWidget(), buildPassiveWidget({ title: "x" }), "none"],
    ["passive after", before, buildPassiveWidget(), "none"],
  ])("%s → %s", (_label, a, b, expected) => {
    expect(classifyWidgetChange(a, b)).toBe(expected);
  });

  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: undefined }, {}, true],
    [null, {}, false],
    [Number.NaN, Number.NaN, true],
  ])("sameValue(%o, %o) → %s", (a, b, expected) => {
    expect(sameValue(a, b)).toBe(expected);
  });
});

const ga = (id: string, dimension: string | null, overrides: Partial<TInteractiveWidget> = {}) =>
  buildWidget({
    id,
    instances: [
      buildInstance({
        id: `${id}-i`,
        inputs: dimension ? { dimension, metrics: ["sessions"] } : { metrics: ["sessions"] },
      }),
    ],
    ...overrides,
  });

describe("canMerge (docs/product.md §5)", () => {
  const base = ga("base", "date");
  const dimensionless = ["ga4", "ads"];
  const adsNoDimension = buildWidget({
    id: "ads",
    instances: [buildInstance({ id: "ads-i", type: "ads", inputs: { metrics: ["clicks"] } })],
  });
  it.each<[string, TWidget, TWidget, string | null, boolean]>([
    ["same type and dimension", base, ga("w2", "date"), "base", true],
    ["different dimension", base, ga("w2", "country"), "base", false],
    ["other has no dimension", base, ga("w2", null), "base", false],
    [
      "different type same dimension",
      base,
      buildWidget({ id: "w2", instances: [buildInstance({ type: "ads" })] }),
      "base",
      false,
    ],
    ["the edited widget", base, ga("w2", "date"), "w2", false],
    ["the base itself", base, base, null, false],
    ["passive other", base, buildPassiveWidget(), "base", false],
    ["passive base", buildPassiveWidget(), ga("w2", "date"), null, false],
    [
      "multi-instance other",
      base,
      ga("w2", "date", { instances: [buildInstance(), buildInstance({ id: "x", prefix: "b" })] }),
      "base",
      false,
    ],
    ["both without dimension, supported types differ", ga("base", null), adsNoDimension, "base", true],
    ["both without dimension, same supported type", ga("base", null), ga("w2", null), "base", true],
    [
      "both without dimension, unsupported type",
      ga("base", null),
      buildWidget({ id: "w3", instances: [buildInstance({ type: "seo", inputs: {} })] }),
      "base",
      false,
    ],
  ])("%s → %s", (_label, a, b, editedId, expected) => {
    expect(canMerge(a, b, editedId, dimensionless)).toBe(expected);
  });

  it.each([
    [ga("a", "date"), "date"],
    [ga("a", null), null],
    [buildWidget({ instances: [buildInstance({ inputs: { dimension: "" } })] }), null],
  ])("widgetDimension → %s", (widget, expected) => {
    expect(widgetDimension(widget)).toBe(expected);
  });
});

describe("mergeWidgets (docs/product.md §4)", () => {
  it("absorbs same-type instances, making prefixes unique and keeping format and config", () => {
    const base = buildWidget({ format: "chart:line", formatOptions: { visibleGrid: true } });
    const other = buildWidget({ id: "w2", instances: [buildInstance({ id: "i2", prefix: "a" })] });
    const third = buildWidget({ id: "w3", instances: [buildInstance({ id: "i3", prefix: "q" })] });
    const merged = mergeWidgets(base, [other, third]);
    expect(merged.instances.map((instance) => [instance.id, instance.prefix, instance.config])).toEqual([
      ["i1", "a", "sessions"],
      ["i2", "b", "sessions"],
      ["i3", "q", "sessions"],
    ]);
    expect([merged.id, merged.format, merged.formatOptions]).toEqual(["w1", "chart:line", { visibleGrid: true }]);
  });

  it("mixed types make every config custom and the format summary", () => {
    const base = buildWidget({ format: "chart:pie", formatOptions: { doughnut: true } });
    const other = buildWidget({ id: "w2", instances: [buildInstance({ id: "i2", type: "ads", prefix: "a" })] });
    const merged = mergeWidgets(base, [other]);
    expect(merged.format).toBe("summary");
    expect(merged.formatOptions).toEqual({});
    expect(merged.instances.map((instance) => [instance.prefix, instance.config])).toEqual([
      ["a", "custom"],
      ["b", "custom"],
    ]);
  });

  it.each([
    ["free prefix kept", "x", ["a"], "x"],
    ["taken prefix gets first free letter", "a", ["a", "b"], "c"],
    ["empty prefix gets a letter", "", [], "a"],
    ["all letters taken gets a number", "a", [..."abcdefghijklmnopqrstuvwxyz"], "a2"],
    ["numbers skip taken ones", "a", [..."abcdefghijklmnopqrstuvwxyz", "a2"], "a3"],
  ])("uniquePrefix: %s", (_label, wanted, used, expected) => {
    expect(uniquePrefix(wanted, new Set(used))).toBe(expected);
  });
});
