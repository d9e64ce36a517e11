import { describe, expect, it } from "vitest";
import { apportion, dayNumber, dayString, demoTable } from "./generate";
import { DEMO_TYPES, type DemoType, demoType } from "./model";

const analytics = demoType("demo.analytics") as DemoType;
const range = (startDate: string, endDate: string) => ({ startDate, endDate });
const query = (overrides: Partial<Parameters<typeof demoTable>[0]> = {}) => ({
  sourceId: "src-1",
  property: "acme-software",
  type: analytics,
  dimension: "date",
  metrics: analytics.metrics.map((m) => m.key),
  range: range("2025-01-01", "2025-01-31"),
  ...overrides,
});

describe("apportion", () => {
  it.each([
    [10, [1, 1, 1], [4, 3, 3]],
    [0, [3, 1], [0, 0]],
    [7, [0, 0], [0, 0]],
    [100, [50, 30, 20], [50, 30, 20]],
    [5, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0]],
  ])("apportion(%j, %j) = %j", (total, shares, expected) => {
    expect(apportion(total, shares)).toEqual(expected);
  });
});

describe("day numbers", () => {
  it.each(["1970-01-01", "2024-02-29", "2025-12-31", "1999-07-04"])("%s round-trips", (day) => {
    expect(dayString(dayNumber(day))).toBe(day);
  });
});

describe("demoTable", () => {
  it("is a pure function of its query", () => {
    expect(demoTable(query())).toEqual(demoTable(query()));
    expect(demoTable(query({ sourceId: "src-2" })).totals).not.toEqual(demoTable(query()).totals);
    expect(demoTable(query({ property: "northwind-shop" })).totals).not.toEqual(demoTable(query()).totals);
  });

  it("gives a sub-range the same daily rows as a larger range", () => {
    const year = demoTable(query({ range: range("2024-06-01", "2025-05-31") }));
    const week = demoTable(query({ range: range("2025-02-24", "2025-03-02") }));
    expect(week.rows).toEqual(
      year.rows.filter((row) => row.dimension && row.dimension >= "2025-02-24" && row.dimension <= "2025-03-02"),
    );
  });

  it.each(
    DEMO_TYPES.flatMap((type) =>
      type.dimensions.filter((d) => d.key !== "date").map((d) => [type.key, d.key] as const),
    ),
  )("%s by %s adds up to the range totals for every counted metric", (typeKey, dimension) => {
    const type = demoType(typeKey) as DemoType;
    const metrics = type.metrics
      .filter((m) => m.format === "number" || m.key === "revenue" || m.key === "cost")
      .map((m) => m.key);
    const byValue = demoTable(query({ type, dimension, metrics, range: range("2025-03-01", "2025-03-31") }));
    const total = demoTable(query({ type, dimension: null, metrics, range: range("2025-03-01", "2025-03-31") }));
    expect(byValue.rows.length).toBe(type.dimensions.find((d) => d.key === dimension)?.values?.length);
    metrics.forEach((key, m) => {
      if (key === "position") return;
      const summed = byValue.rows.reduce((sum, row) => sum + (row.values[m] ?? 0), 0);
      expect(summed).toBeCloseTo(total.totals[m] ?? Number.NaN, 6);
    });
    expect(byValue.totals).toEqual(total.totals);
  });

  it("weights ratios in totals: CTR is total clicks over total impressions", () => {
    const search = demoType("demo.search") as DemoType;
    const table = demoTable(query({ type: search, metrics: ["clicks", "impressions", "ctr"] }));
    const [clicks, impressions, ctr] = table.totals as number[];
    expect(ctr).toBeCloseTo((clicks / impressions) * 100, 3);
    const meanOfDays = table.rows.reduce((sum, row) => sum + (row.values[2] ?? 0), 0) / table.rows.length;
    expect(ctr).not.toBe(meanOfDays);
  });

  it("reads followers on the last day of the range and lets them grow", () => {
    const social = demoType("demo.social") as DemoType;
    const table = demoTable(
      query({ type: social, metrics: ["followers", "posts"], range: range("2025-01-01", "2025-12-31") }),
    );
    expect(table.totals[0]).toBe(table.rows.at(-1)?.values[0]);
    expect(table.rows.at(-1)?.values[0]).toBeGreaterThan(table.rows[0].values[0] ?? 0);
    expect(Number.isInteger(table.totals[1])).toBe(true);
  });

  it("is lower at weekends for B2B traffic and stays finite far from today", () => {
    const table = demoTable(query({ metrics: ["sessions"], range: range("2025-03-03", "2025-05-25") }));
    const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();
    const mean = (rows: typeof table.rows) => rows.reduce((sum, row) => sum + (row.values[0] ?? 0), 0) / rows.length;
    const weekend = table.rows.filter((row) => [0, 6].includes(weekday(row.dimension ?? "")));
    const week = table.rows.filter((row) => ![0, 6].includes(weekday(row.dimension ?? "")));
    expect(mean(weekend)).toBeLessThan(mean(week) * 0.7);
    for (const day of ["1995-01-01", "2060-06-30"]) {
      const far = demoTable(query({ range: range(day, day) }));
      for (const value of far.totals) expect(value === null || (Number.isFinite(value) && value >= 0)).toBe(true);
    }
  });

  it("answers no dimension as totals only, and unknown metrics as N/A", () => {
    const table = demoTable(query({ dimension: null, metrics: ["sessions", "nope"] }));
    expect(table).toMatchObject({ dimension: null, rows: [] });
    expect(table.totals[1]).toBeNull();
  });
});
