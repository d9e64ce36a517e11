import type { TTable, TWidgetGoalResult } from "@app/core";
import { translatorFor } from "@app/core/i18n/catalogues";
import { describe, expect, it } from "vitest";
import { chartTargets, goalViews } from "./goal-view";

const DAILY: TTable = {
  dimension: { key: "date", label: "Date", kind: "date" },
  metrics: [
    { key: "a.sessions", label: "Sessions", format: "number" },
    { key: "a.bounceRate", label: "Bounce rate", format: "percent", lowerIsBetter: true },
    { key: "a.revenue", label: "Revenue", format: "money", currency: "EUR" },
  ],
  rows: [],
  totals: [58439, 41.2, 1200],
};
const TOTALS: TTable = { ...DAILY, dimension: null };

function goal(patch: Partial<TWidgetGoalResult>): TWidgetGoalResult {
  return {
    metric: "a.sessions",
    target: 70000,
    period: "month",
    startDate: "2026-11-01",
    endDate: "2026-11-30",
    dataThrough: "2026-11-26",
    settledThrough: "2026-11-25",
    daysTotal: 30,
    daysLeft: 4,
    aggregation: "sum",
    lowerIsBetter: false,
    threshold: 70000,
    baseline: null,
    value: 58439,
    progress: 0.8348,
    projected: 64100,
    onTrack: false,
    status: "short",
    gapPercent: -8.4,
    line: "November: 58,439 of 70,000 (83 %) · 4 days left · on pace for 64,100, 8 % short",
    parts: {
      period: "November",
      progress: "58,439 of 70,000 (83 %)",
      time: "4 days left",
      pace: "on pace for 64,100, 8 % short",
    },
    ...patch,
  };
}

const ENGLISH = translatorFor("en");
const GERMAN = translatorFor("de");

describe("goalViews: the answer's figures in the dashboard's words, laid out", () => {
  it.each<[string, Partial<TWidgetGoalResult>, { lead: string; status: string; tone: string; fill: number }]>([
    [
      "short: the verdict in the bad tone, the bar at the progress",
      {},
      {
        lead: "November: 58,439 of 70,000 (83 %) · 4 days left · ",
        status: "on pace for 64,100, 8 % short",
        tone: "bad",
        fill: 83,
      },
    ],
    [
      "met: past the target the bar is full",
      {
        value: 72000,
        progress: 1.03,
        onTrack: true,
        status: "met",
      },
      { lead: "November: 72,000 of 70,000 (103 %) · 4 days left · ", status: "target met", tone: "good", fill: 100 },
    ],
    [
      "no verdict: neither tone",
      {
        value: null,
        progress: null,
        onTrack: null,
        status: "unknown",
      },
      {
        lead: "November: No data yet of 70,000 · 4 days left · ",
        status: "too little data for a pace",
        tone: "unknown",
        fill: 0,
      },
    ],
  ])("%s", (_name, patch, expected) => {
    const [view] = goalViews([goal(patch)], TOTALS, ENGLISH);
    expect({ lead: view.lead, status: view.status, tone: view.tone, fill: view.fill }).toEqual(expected);
  });

  it("names the metric when the widget shows several, and leaves out a goal on a metric not in the table", () => {
    const views = goalViews([goal({}), goal({ metric: "a.users" })], TOTALS, ENGLISH);
    expect(views).toHaveLength(1);
    expect(views[0].text).toBe(
      "Sessions · November: 58,439 of 70,000 (83 %) · 4 days left · on pace for 64,100, 8 % short",
    );
    const single = { ...TOTALS, metrics: [TOTALS.metrics[0]], totals: [58439] };
    expect(goalViews([goal({})], single, ENGLISH)[0].text).toBe(
      "November: 58,439 of 70,000 (83 %) · 4 days left · on pace for 64,100, 8 % short",
    );
    // A range goal measures what the card shows: no period to name.
    expect(goalViews([goal({ period: "range" })], TOTALS, ENGLISH)[0].text).toBe(
      "Sessions: 58,439 of 70,000 (83 %) · 4 days left · on pace for 64,100, 8 % short",
    );
  });

  it("says a German dashboard's line in German, its numbers as German writes them", () => {
    const [view] = goalViews([goal({})], TOTALS, GERMAN);
    expect(view.lead).toBe("November: 58.439 von 70.000 (83\u00a0%) · noch 4 Tage · ");
    expect(view.status).toBe("Prognose 64.100, 8\u00a0% unter Ziel");
    expect(view.nameText).toBe("Sessions · ");
    expect(view.barLabel).toBe("Sessions auf dem Weg zum Ziel");
  });
});

describe("chartTargets: where a chart draws a goal", () => {
  it("says the mark in the dashboard's language", () => {
    const [target] = chartTargets([goal({ metric: "a.revenue", threshold: 3000 })], DAILY, GERMAN);
    expect(target.label).toBe("Ziel 100,00\u00a0€ pro Tag");
  });

  it.each<[string, TTable, Partial<TWidgetGoalResult>, { value: number; label: string } | null]>([
    ["a count over days: a day's share, whole", DAILY, {}, { value: 2333, label: "Target 2,333 a day" }],
    [
      "money over days: a day's share in its currency",
      DAILY,
      { metric: "a.revenue", threshold: 3000 },
      { value: 100, label: "Target €100.00 a day" },
    ],
    [
      "a rate over days: the target itself, to stay under",
      DAILY,
      { metric: "a.bounceRate", aggregation: "average", lowerIsBetter: true, threshold: 40 },
      { value: 40, label: "Stay under 40%" },
    ],
    ["a total (gauge): the target itself", TOTALS, {}, { value: 70000, label: "Target 70,000" }],
    ["a change goal with nothing to compare: no mark", DAILY, { period: "change", threshold: null }, null],
  ])("%s", (_name, table, patch, expected) => {
    const [target] = chartTargets([goal(patch)], table, ENGLISH);
    expect(target ? { value: target.value, label: target.label } : null).toEqual(expected);
  });
});
