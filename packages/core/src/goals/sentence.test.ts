import { describe, expect, it } from "vitest";
import { translatorFor } from "../i18n/catalogues";
import type { GoalProgress } from "./pace";
import { type GoalLineInput, goalLine, goalLineParts, goalsSummary } from "./sentence";

const progress = (overrides: Partial<GoalProgress>): GoalProgress => ({
  threshold: 70000,
  value: 58439,
  progress: 58439 / 70000,
  projected: 64087.3,
  onTrack: false,
  status: "short",
  gapPercent: ((64087.3 - 70000) / 70000) * 100,
  daysTotal: 30,
  daysLeft: 3,
  dataThrough: "2026-11-27",
  settledThrough: "2026-11-27",
  ...overrides,
});

const NUMBER = { format: "number" as const, currency: null };

describe("goalLine", () => {
  it.each<
    [string, Partial<GoalProgress>, typeof NUMBER | { format: "money" | "percent"; currency: string | null }, string]
  >([
    ["the issue's example", {}, NUMBER, "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short"],
    ["one day left", { daysLeft: 1 }, NUMBER, "58,439 of 70,000 (83 %) · 1 day left · on pace for 64,100, 8 % short"],
    [
      "ahead",
      { projected: 75400, status: "ahead", onTrack: true, gapPercent: 7.7 },
      NUMBER,
      "58,439 of 70,000 (83 %) · 3 days left · on pace for 75,400, 8 % ahead",
    ],
    [
      "met",
      { value: 71000, progress: 71000 / 70000, status: "met", gapPercent: 1.4 },
      NUMBER,
      "71,000 of 70,000 (101 %) · 3 days left · target met",
    ],
    [
      "ended short",
      { daysLeft: 0, projected: 58439, gapPercent: -16.5 },
      NUMBER,
      "58,439 of 70,000 (83 %) · ended · 17 % short",
    ],
    [
      "a budget in dollars, on pace to stay under",
      { threshold: 5000, value: 3000, progress: 0.6, projected: 4500, status: "under", onTrack: true, gapPercent: -10 },
      { format: "money", currency: "USD" },
      "$3,000.00 of $5,000.00 (60 %) · 3 days left · on pace for $4,500.00, 10 % under",
    ],
    [
      "a bounce rate over its cap",
      { threshold: 40, value: 44, progress: 1.1, projected: 44.5, status: "over", gapPercent: 11.25 },
      { format: "percent", currency: null },
      "44% of 40% (110 %) · 3 days left · on pace for 44.5%, 11 % over",
    ],
    [
      "no data yet",
      { value: null, progress: null, projected: null, status: "unknown", gapPercent: null },
      NUMBER,
      "No data yet of 70,000 · 3 days left · too little data for a pace",
    ],
    [
      "a change goal without a comparison value",
      { threshold: null, progress: null, status: "unknown", gapPercent: null },
      NUMBER,
      "58,439 · 3 days left",
    ],
    [
      "a gap under one percent",
      { gapPercent: -0.3 },
      NUMBER,
      "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, <1 % short",
    ],
  ])("%s", (_name, overrides, metric, expected) => {
    expect(goalLine(progress(overrides), metric)).toBe(expected);
  });

  it("gives the same words as parts for a view that lays them out", () => {
    expect(goalLineParts(progress({}), NUMBER)).toEqual({
      period: null,
      progress: "58,439 of 70,000 (83 %)",
      time: "3 days left",
      pace: "on pace for 64,100, 8 % short",
    });
  });
});

describe("goalLine names the goal's period", () => {
  it.each<[string, Partial<GoalLineInput>, string]>([
    [
      "a month's goal: the month so far, which a key figure over another range does not show",
      { period: "month", startDate: "2026-11-01" },
      "November: 58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short",
    ],
    [
      "a week still running",
      { period: "week", startDate: "2026-11-23" },
      "This week: 58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short",
    ],
    [
      "a week that has ended (a dashboard looking back)",
      { period: "week", startDate: "2026-11-16", daysLeft: 0, projected: 58439, gapPercent: -16.5 },
      "Week of Nov 16: 58,439 of 70,000 (83 %) · ended · 17 % short",
    ],
    [
      "a change goal",
      { period: "change", startDate: "2026-11-01" },
      "vs previous period: 58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short",
    ],
    [
      "a range goal measures what the card shows: no name",
      { period: "range", startDate: "2026-11-01" },
      "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short",
    ],
  ])("%s", (_name, overrides, expected) => {
    expect(goalLine({ ...progress({}), ...overrides }, NUMBER)).toBe(expected);
  });

  it("gives the period as a part of its own", () => {
    expect(goalLineParts({ ...progress({}), period: "month", startDate: "2026-12-01" }, NUMBER).period).toBe(
      "December",
    );
  });
});

/** Intl writes a no-break space between a number and its "%" or "€" in German, Slovenian and Spanish. */
const nbsp = (text: string) => text.replace(/(\d|<) (%|€)/g, "$1\u00a0$2");

/** A goal line in each language, the plural forms included (Slovenian has one, two, few and other). */
describe("goalLine in the dashboard's language", () => {
  const MONTH = { period: "month", startDate: "2026-11-01" } as const;
  const EUR = { format: "money" as const, currency: "EUR" };
  it.each<[string, Partial<GoalLineInput>, { format: "number" | "money"; currency: string | null }, string]>([
    ["de", MONTH, NUMBER, "November: 58.439 von 70.000 (83 %) · noch 3 Tage · Prognose 64.100, 8 % unter Ziel"],
    [
      "de",
      { ...MONTH, daysLeft: 1 },
      NUMBER,
      "November: 58.439 von 70.000 (83 %) · noch 1 Tag · Prognose 64.100, 8 % unter Ziel",
    ],
    [
      "de",
      { period: "week", startDate: "2026-11-23", status: "under", onTrack: true, gapPercent: -10 },
      EUR,
      "Diese Woche: 58.439,00 € von 70.000,00 € (83 %) · noch 3 Tage · Prognose 64.100,00 €, 10 % unter Limit",
    ],
    [
      "de",
      { period: "week", startDate: "2026-11-16", daysLeft: 0, projected: 58439, gapPercent: -0.3 },
      NUMBER,
      "Woche ab 16. Nov.: 58.439 von 70.000 (83 %) · beendet · <1 % unter Ziel",
    ],
    [
      "de",
      { period: "change", startDate: "2026-11-01", value: null, progress: null, status: "unknown", gapPercent: null },
      NUMBER,
      "vs. Vorperiode: Noch keine Daten von 70.000 · noch 3 Tage · zu wenige Daten für eine Prognose",
    ],
    [
      "fr",
      MONTH,
      NUMBER,
      "Novembre\u00a0: 58\u202f439 sur 70\u202f000 (83\u00a0%) · 3 jours restants · projection 64\u202f100, 8\u00a0% sous l’objectif",
    ],
    [
      "fr",
      { ...MONTH, daysLeft: 1, status: "met", onTrack: true },
      NUMBER,
      "Novembre\u00a0: 58\u202f439 sur 70\u202f000 (83\u00a0%) · 1 jour restant · objectif atteint",
    ],
    [
      "fr",
      { period: "range", startDate: "2026-11-01", daysLeft: 0, projected: 58439, gapPercent: -16.5 },
      NUMBER,
      "58\u202f439 sur 70\u202f000 (83\u00a0%) · terminé · 17\u00a0% sous l’objectif",
    ],
    [
      "sl",
      { ...MONTH, daysLeft: 1 },
      NUMBER,
      "November: 58.439 od 70.000 (83 %) · še 1 dan · napoved 64.100, 8 % pod ciljem",
    ],
    [
      "sl",
      { ...MONTH, daysLeft: 2 },
      NUMBER,
      "November: 58.439 od 70.000 (83 %) · še 2 dneva · napoved 64.100, 8 % pod ciljem",
    ],
    [
      "sl",
      { ...MONTH, daysLeft: 3 },
      NUMBER,
      "November: 58.439 od 70.000 (83 %) · še 3 dnevi · napoved 64.100, 8 % pod ciljem",
    ],
    [
      "sl",
      { ...MONTH, daysLeft: 5 },
      NUMBER,
      "November: 58.439 od 70.000 (83 %) · še 5 dni · napoved 64.100, 8 % pod ciljem",
    ],
    [
      "sl",
      { period: "week", startDate: "2026-11-23", status: "ahead", onTrack: true, gapPercent: 7.7 },
      NUMBER,
      "Ta teden: 58.439 od 70.000 (83 %) · še 3 dnevi · napoved 64.100, 8 % nad ciljem",
    ],
    [
      "es",
      { ...MONTH, daysLeft: 1 },
      NUMBER,
      "Noviembre: 58.439 de 70.000 (83 %) · queda 1 día · proyección 64.100, 8 % por debajo del objetivo",
    ],
  ])("%s: %j", (language, overrides, metric, expected) => {
    const said = language === "fr" ? expected : nbsp(expected);
    expect(goalLine({ ...progress({}), ...overrides }, metric, translatorFor(language))).toBe(said);
  });

  it.each([
    ["de", "1 von 2 Zielen auf Kurs; Umsatz 12 % unter Ziel", "1 von 1 Ziel auf Kurs"],
    ["fr", "1 sur 2 objectifs en bonne voie\u00a0; Umsatz 12\u00a0% sous l’objectif", "1 sur 1 objectif en bonne voie"],
    ["sl", "1 od 2 ciljev na dobri poti; Umsatz 12 % pod ciljem", "1 od 1 cilja na dobri poti"],
  ])("the %s summary", (language, two, one) => {
    const words = translatorFor(language);
    const ahead = { label: "Sitzungen", status: "ahead" as const, gapPercent: 4 };
    expect(goalsSummary([ahead, { label: "Umsatz", status: "short", gapPercent: -12 }], words)).toBe(
      language === "fr" ? two : nbsp(two),
    );
    expect(goalsSummary([ahead], words)).toBe(one);
  });
});

describe("goalsSummary", () => {
  it.each<[string, Parameters<typeof goalsSummary>[0], string | null]>([
    [
      "two of five on track, the furthest off named",
      [
        { label: "Sessions", status: "ahead", gapPercent: 4 },
        { label: "Revenue", status: "short", gapPercent: -12 },
        { label: "Leads", status: "met", gapPercent: 3 },
        { label: "Cost", status: "over", gapPercent: 5 },
        { label: "Clicks", status: "short", gapPercent: -2 },
      ],
      "2 of 5 goals on track; Revenue 12 % short",
    ],
    ["all on track", [{ label: "Sessions", status: "ahead", gapPercent: 4 }], "1 of 1 goal on track"],
    [
      "goals without a verdict are not counted",
      [
        { label: "Sessions", status: "unknown", gapPercent: null },
        { label: "Cost", status: "over", gapPercent: 20 },
      ],
      "0 of 1 goal on track; Cost 20 % over",
    ],
    ["nothing to say", [{ label: "Sessions", status: "unknown", gapPercent: null }], null],
    ["no goals", [], null],
  ])("%s", (_name, goals, expected) => {
    expect(goalsSummary(goals)).toBe(expected);
  });
});
