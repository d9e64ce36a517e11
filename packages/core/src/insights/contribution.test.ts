import { describe, expect, it } from "vitest";
import type { TTable } from "../contract/dashboards";
import { contributionAnalysis, NOT_SET_LABEL } from "./contribution";
import { SESSIONS } from "./test-series";

const LIMITS = { maxContributors: 3, minAbsolute: 10, minShare: 0.1 };
const SAME_COLUMN = { current: 0, previous: 0 };

function table(rows: [string | null, number | null][], total?: number | null): TTable {
  return {
    dimension: { key: "channel", label: "Channel", kind: "string" },
    metrics: [SESSIONS],
    rows: rows.map(([dimension, value]) => ({ dimension, values: [value] })),
    totals: [total === undefined ? rows.reduce((sum, [, value]) => sum + (value ?? 0), 0) : total],
  };
}

const delta = (now: TTable, before: TTable) => (now.totals[0] ?? 0) - (before.totals[0] ?? 0);

function analyse(now: TTable, before: TTable, limits = LIMITS) {
  return contributionAnalysis(now, before, SAME_COLUMN, delta(now, before), limits);
}

describe("contributionAnalysis", () => {
  it.each<[string, TTable, TTable, { dimension: string; delta: number }[], number]>([
    [
      "deltas sorted by size, opposite signs kept, the tail as other",
      table([
        ["Organic", 15_100],
        ["Paid", 2_100],
        ["Email", 1_050],
        ["Referral", 980],
      ]),
      table([
        ["Organic", 10_000],
        ["Paid", 3_000],
        ["Email", 1_000],
        ["Referral", 1_000],
      ]),
      [
        { dimension: "Organic", delta: 5_100 },
        { dimension: "Paid", delta: -900 },
      ],
      30,
    ],
    [
      "a channel that vanished from a complete table fell to zero",
      table([
        ["Organic", 10_000],
        ["Email", 1_000],
      ]),
      table([
        ["Organic", 10_000],
        ["Paid", 3_000],
        ["Email", 1_000],
      ]),
      [{ dimension: "Paid", delta: -3_000 }],
      0,
    ],
    [
      "a new value counts from zero",
      table([
        ["Organic", 10_000],
        ["TikTok", 2_000],
      ]),
      table([["Organic", 10_000]]),
      [{ dimension: "TikTok", delta: 2_000 }],
      0,
    ],
    [
      "a truncated table (top rows only) leaves unknown values in other",
      table(
        [
          ["Organic", 12_000],
          ["Paid", 3_000],
        ],
        20_000,
      ),
      table(
        [
          ["Organic", 10_000],
          ["Email", 3_000],
        ],
        18_000,
      ),
      [{ dimension: "Organic", delta: 2_000 }],
      0,
    ],
    [
      "null cells and null dimensions",
      table(
        [
          [null, 5_000],
          ["Paid", null],
          ["Email", 1_000],
        ],
        6_000,
      ),
      table(
        [
          [null, 3_000],
          ["Paid", 1_000],
          ["Email", 1_000],
        ],
        5_000,
      ),
      [{ dimension: NOT_SET_LABEL, delta: 2_000 }],
      -1_000,
    ],
    [
      "equal deltas order by name, so the sentence never flips",
      table([
        ["B", 2_000],
        ["A", 2_000],
      ]),
      table([
        ["B", 1_000],
        ["A", 1_000],
      ]),
      [
        { dimension: "A", delta: 1_000 },
        { dimension: "B", delta: 1_000 },
      ],
      0,
    ],
    [
      "small deltas are noise even when they are the largest",
      table([
        ["A", 105],
        ["B", 104],
      ]),
      table([
        ["A", 100],
        ["B", 100],
      ]),
      [],
      9,
    ],
  ])("%s", (_name, now, before, contributors, other) => {
    const result = analyse(now, before);
    expect(result?.contributors).toEqual(contributors);
    expect(result?.other).toBeCloseTo(other, 6);
  });

  it("names at most maxContributors and explains the share they account for", () => {
    const now = table([
      ["A", 1_400],
      ["B", 1_300],
      ["C", 1_200],
      ["D", 1_100],
    ]);
    const before = table([
      ["A", 1_000],
      ["B", 1_000],
      ["C", 1_000],
      ["D", 1_000],
    ]);
    const result = analyse(now, before, { ...LIMITS, maxContributors: 2 });
    expect(result?.contributors.map((entry) => entry.dimension)).toEqual(["A", "B"]);
    expect(result?.other).toBe(300);
    expect(result?.explainedShare).toBeCloseTo(0.7, 6);
  });

  it("pairs columns by their own positions when the previous table orders metrics differently", () => {
    const now = table([["A", 2_000]]);
    const before: TTable = {
      ...table([["A", 1_000]]),
      metrics: [{ key: "a.users", label: "Users", format: "number" }, SESSIONS],
      rows: [{ dimension: "A", values: [7, 1_000] }],
      totals: [7, 1_000],
    };
    expect(contributionAnalysis(now, before, { current: 0, previous: 1 }, 1_000, LIMITS)?.contributors).toEqual([
      { dimension: "A", delta: 1_000 },
    ]);
  });

  it.each<[string, TTable["dimension"]]>([
    ["no dimension", null],
    ["a date dimension", { key: "date", label: "Date", kind: "date" }],
  ])("says nothing for %s", (_name, dimension) => {
    const now = { ...table([["2026-11-01", 10]]), dimension };
    expect(contributionAnalysis(now, now, SAME_COLUMN, 0, LIMITS)).toBeNull();
  });
});
