import { describe, expect, it } from "vitest";
import type { ReportSchedule } from "../dates/report-schedule";
import { translatorFor } from "./catalogues";
import { comparisonText, periodText, reportRangeLabel, scheduleText } from "./report-text";

describe("a report's dates and words in the dashboard's language", () => {
  it.each([
    ["en", "2026-11-01", "Nov 01, 2026 - Nov 28, 2026"],
    ["de", "2026-11-01", "1. Nov. 2026 – 28. Nov. 2026"],
    ["es", "2026-11-01", "1 nov 2026 – 28 nov 2026"],
    ["sl", "2026-11-01", "1. nov. 2026 – 28. nov. 2026"],
    // A one-day period is its day.
    ["en", "2026-11-28", "Nov 28, 2026"],
    ["de", "2026-11-28", "28. Nov. 2026"],
  ])("in %s, the period from %s to 2026-11-28 reads %s", (language, start, expected) => {
    expect(periodText(start, "2026-11-28", translatorFor(language))).toBe(expected);
  });

  it.each<[string, string | null, string | null, string]>([
    ["en", "2026-10-01", "2026-10-30", "vs Oct 1 – Oct 30"],
    ["de", "2026-10-01", "2026-10-30", "vs. 1. Okt. – 30. Okt."],
    ["de", "2025-12-01", "2026-01-30", "vs. 1. Dez. 2025 – 30. Jan. 2026"],
    ["de", "2026-10-01", "2026-10-01", "vs. 1. Okt."],
    ["de", null, null, "Vorheriger Zeitraum"],
  ])("in %s, the comparison %s – %s reads %s", (language, start, end, expected) => {
    expect(comparisonText(start, end, 2026, translatorFor(language))).toBe(expected);
  });

  it.each([
    ["en", "LAST_7_DAYS", "Last 7 Days"],
    ["en", "LAST_MONTH", "Last Month"],
    ["de", "LAST_7_DAYS", "Letzte 7 Tage"],
    ["de", "LAST_WEEK", "Letzte Woche"],
    // Slovenian counts one, two, few and other: 7 and 30 are both "other".
    ["sl", "LAST_30_DAYS", "Zadnjih 30 dni"],
    ["fr", "LAST_MONTH", "Mois dernier"],
  ] as const)("in %s, %s reads %s", (language, range, expected) => {
    expect(reportRangeLabel(range, translatorFor(language))).toBe(expected);
  });

  const monthly: ReportSchedule = {
    period: "MONTH",
    detail: "FIRST_WORK_DAY",
    hour: 8,
    minute: 0,
    timezone: "Europe/Berlin",
  };
  const weekly: ReportSchedule = { period: "WEEK", detail: 1, hour: 7, minute: 30, timezone: "UTC" };
  it.each<[string, ReportSchedule, string]>([
    ["en", monthly, "Monthly on the first working day at 08:00 (Europe/Berlin)"],
    ["de", monthly, "Monatlich am ersten Werktag um 08:00 (Europe/Berlin)"],
    ["en", weekly, "Weekly on Monday at 07:30 (UTC)"],
    ["de", weekly, "Wöchentlich am Montag um 07:30 (UTC)"],
    ["pt", weekly, "Semanalmente, segunda-feira, às 07:30 (UTC)"],
  ])("in %s, a schedule reads %s", (language, schedule, expected) => {
    expect(scheduleText(schedule, translatorFor(language))).toBe(expected);
  });
});
