import { describe, expect, it } from "vitest";
import { type CalculatedMetricDefinition, metricsToFetch, withoutMetrics } from "./calculated";

const OFFERED = [
  { value: "clicks", label: "Clicks" },
  { value: "impressions", label: "Impressions" },
  { value: "position", label: "Avg. Position" },
];
const calc = (expression: string, id = "c", name = "C"): CalculatedMetricDefinition => ({
  id,
  name,
  type: "numeric",
  expression,
});

describe("metricsToFetch", () => {
  it.each([
    [
      "alone: named keys are fetched",
      [],
      [calc("clicks / impressions")],
      ["clicks", "impressions"],
      ["clicks", "impressions"],
    ],
    ["labels resolve to keys", [], [calc("{Avg. Position} * 2")], ["position"], ["position"]],
    [
      "chosen metrics are not fetched twice",
      ["clicks"],
      [calc("clicks / impressions")],
      ["clicks", "impressions"],
      ["impressions"],
    ],
    [
      "calculated names and unknown names fetch nothing",
      [],
      [calc("1 + 2", "a", "A"), calc("A * nope", "b", "B")],
      [],
      [],
    ],
    ["an invalid expression fetches nothing", ["clicks"], [calc("clicks +")], ["clicks"], []],
    [
      "each metric once across expressions",
      [],
      [calc("clicks", "a"), calc("Clicks * impressions", "b")],
      ["clicks", "impressions"],
      ["clicks", "impressions"],
    ],
  ])("%s", (_name, chosen, calculated, fetch, extra) => {
    expect(metricsToFetch(chosen, calculated, OFFERED)).toEqual({ fetch, extra });
  });
});

describe("withoutMetrics", () => {
  it("drops the named columns from metrics, rows and totals", () => {
    const table = {
      dimension: { key: "date", label: "Date", kind: "date" as const },
      metrics: [
        { key: "clicks", label: "Clicks", format: "number" as const },
        { key: "c", label: "C", format: "number" as const },
      ],
      rows: [{ dimension: "2026-01-01", values: [3, 6] }],
      totals: [3, 6],
    };
    expect(withoutMetrics(table, ["clicks"])).toEqual({
      ...table,
      metrics: [table.metrics[1]],
      rows: [{ dimension: "2026-01-01", values: [6] }],
      totals: [6],
    });
    expect(withoutMetrics(table, [])).toBe(table);
  });
});
