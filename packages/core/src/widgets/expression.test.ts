import { describe, expect, it } from "vitest";
import type { TTable } from "../contract/dashboards";
import {
  aggregate,
  applyCalculatedMetrics,
  CALCULATED_METRIC_TYPES,
  type CalculatedMetricType,
  calculatedMetricDisplay,
} from "./calculated";
import { evaluateExpression, MAX_EXPRESSION_DEPTH, parseExpression } from "./expression";

const values = { sessions: 200, users: 50, "ga.bounces": 20, revenue_usd: 1000, "Sessions Per User": 4, zero: 0 };

describe("evaluateExpression", () => {
  it.each([
    ["42", 42],
    ["1.5", 1.5],
    [".5", 0.5],
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["24 / 4 / 2", 3],
    ["-3 + 5", 2],
    ["--3", 3],
    ["-(2 + 3) * 2", -10],
    ["+4", 4],
    ["2 * -3", -6],
    ["sessions / users", 4],
    ["ga.bounces / sessions * 100", 10],
    ["revenue_usd / users", 20],
    ["{Sessions Per User} * 2", 8],
    ["{ sessions } + 1", 201],
    ["  sessions  -  users  ", 150],
  ])("%s = %s", (expression, expected) => {
    expect(evaluateExpression(expression, values)).toBe(expected);
  });

  it.each([
    ["division by zero", "sessions / zero"],
    ["literal division by zero", "1 / 0"],
    ["unknown metric", "clicks + 1"],
    ["inherited property name", "constructor + 1"],
    ["syntax error", "1 +"],
  ])("%s gives NaN", (_label, expression) => {
    expect(evaluateExpression(expression, values)).toBeNaN();
  });
});

describe("parseExpression rejects unsafe or malformed input", () => {
  it.each([
    ["empty", "", 0],
    ["dangling operator", "1 +", 3],
    ["double operator", "1 * * 2", 4],
    ["unclosed parenthesis", "(1 + 2", 6],
    ["extra parenthesis", "1 + 2)", 5],
    ["empty braces", "{} + 1", 0],
    ["unclosed brace", "{sessions + 1", 0],
    ["function call", "alert(1)", 5],
    ["property access chain", "sessions[0]", 8],
    ["string literal", "'a' + 1", 0],
    ["backtick", "`1`", 0],
    ["assignment", "a = 1", 2],
    ["exponent", "2 ** 3", 3],
    ["digit-led name", "2x", 1],
  ])("%s", (_label, expression, position) => {
    const result = parseExpression(expression);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.position).toBe(position);
  });

  it("refuses nesting deeper than the limit instead of overflowing the stack", () => {
    const deep = `${"(".repeat(MAX_EXPRESSION_DEPTH + 1)}1${")".repeat(MAX_EXPRESSION_DEPTH + 1)}`;
    expect(parseExpression(deep).ok).toBe(false);
    const fine = `${"(".repeat(MAX_EXPRESSION_DEPTH)}1${")".repeat(MAX_EXPRESSION_DEPTH)}`;
    expect(parseExpression(fine).ok).toBe(true);
  });

  it("refuses over-long expressions", () => {
    expect(parseExpression("1+".repeat(600).concat("1")).ok).toBe(false);
  });

  it("lists the metrics used, once each", () => {
    const result = parseExpression("sessions / users + {Sessions Per User} - sessions");
    expect(result.ok && result.metrics).toEqual(["sessions", "users", "Sessions Per User"]);
  });
});

describe("calculated metric types (docs/product.md §3)", () => {
  it("has 14 types", () => {
    expect(CALCULATED_METRIC_TYPES).toHaveLength(14);
  });

  it.each<[CalculatedMetricType, object]>([
    ["numeric", { format: "number", aggregation: "sum" }],
    ["numeric:money", { format: "money", aggregation: "sum" }],
    ["numeric:percent", { format: "percent", aggregation: "sum" }],
    ["average", { format: "number", aggregation: "average" }],
    ["average:money", { format: "money", aggregation: "average" }],
    ["average:percent", { format: "percent", aggregation: "average" }],
    [
      "numeric:time:milliseconds",
      { format: "time", aggregation: "sum", timeUnit: "milliseconds", secondsPerUnit: 0.001 },
    ],
    ["numeric:time:seconds", { format: "time", aggregation: "sum", timeUnit: "seconds", secondsPerUnit: 1 }],
    ["average:time:minutes", { format: "time", aggregation: "average", timeUnit: "minutes", secondsPerUnit: 60 }],
    ["average:time:hours", { format: "time", aggregation: "average", timeUnit: "hours", secondsPerUnit: 3600 }],
  ])("%s", (type, expected) => {
    expect(calculatedMetricDisplay(type)).toEqual(expected);
  });

  it.each<[CalculatedMetricType, (number | null)[], number]>([
    ["numeric", [1, 2, 3], 6],
    ["numeric:money", [1.5, 2.5], 4],
    ["average", [1, 2, 3], 2],
    ["average:percent", [10, 20], 15],
    ["average:time:seconds", [60, 120], 90],
    ["numeric", [1, Number.NaN, 3], 4],
    ["average", [2, null, 4], 3],
  ])("aggregate(%s, %o) → %s", (type, rowValues, expected) => {
    expect(aggregate(type, rowValues)).toBe(expected);
  });

  it.each<[CalculatedMetricType, number[]]>([
    ["numeric", []],
    ["average", []],
    ["average", [Number.NaN]],
  ])("aggregate(%s, %o) is NaN", (type, rowValues) => {
    expect(aggregate(type, rowValues)).toBeNaN();
  });
});

describe("applyCalculatedMetrics", () => {
  const table: TTable = {
    dimension: { key: "date", label: "Date", kind: "date" },
    metrics: [
      { key: "sessions", label: "Sessions", format: "number" },
      { key: "users", label: "Total Users", format: "number" },
    ],
    rows: [
      { dimension: "2026-03-01", values: [100, 50] },
      { dimension: "2026-03-02", values: [90, 0] },
      { dimension: "2026-03-03", values: [60, 20] },
    ],
    totals: [250, 70],
  };

  it.each<[string, CalculatedMetricType, string, (number | null)[], number | null]>([
    ["average ratio, N/A row skipped", "average", "sessions / {Total Users}", [2, null, 3], 2.5],
    ["numeric sum of rows", "numeric", "sessions + users", [150, 90, 80], 320],
    ["minutes converted to seconds", "numeric:time:minutes", "users", [3000, 0, 1200], 4200],
  ])("%s", (_label, type, expression, rows, total) => {
    const result = applyCalculatedMetrics(table, [{ id: "c1", name: "Calc", type, expression }]);
    expect(result.metrics.at(-1)).toEqual({
      key: "c1",
      label: "Calc",
      format: calculatedMetricDisplay(type).format,
    });
    expect(result.rows.map((row) => row.values[2])).toEqual(rows);
    expect(result.totals[2]).toBe(total);
  });

  it("evaluates on totals when the table has no rows, and chains earlier calculated metrics", () => {
    const summary: TTable = { ...table, dimension: null, rows: [] };
    const result = applyCalculatedMetrics(summary, [
      { id: "c1", name: "Per User", type: "average", expression: "sessions / users" },
      { id: "c2", name: "Doubled", type: "numeric", expression: "c1 * 2" },
    ]);
    expect(result.totals).toEqual([250, 70, 250 / 70, (250 / 70) * 2]);
  });

  it("an invalid expression yields an N/A column", () => {
    const result = applyCalculatedMetrics(table, [{ id: "c1", name: "Bad", type: "numeric", expression: "1 +" }]);
    expect(result.rows.map((row) => row.values[2])).toEqual([null, null, null]);
    expect(result.totals[2]).toBeNull();
  });
});
