import { describe, expect, it } from "vitest";
import { comparisonLabel, formatDisplayDate, rangeText, rangeTypeName } from "../dates/display";
import { type FormatNumberOptions, formatNumber } from "../format/number";
import { formatDuration } from "../format/time";
import { translatorFor } from "./catalogues";

/** Intl's spaces: no-break (U+00A0) and narrow no-break (U+202F), as Node's ICU writes them. */
const NB = "\u00a0";
const NNB = "\u202f";

/** docs/product.md §9, "Report language": a dashboard's formats follow its language; English is unchanged. */
describe("numbers in a dashboard's language", () => {
  it.each<[string, number, FormatNumberOptions, string]>([
    ["de", 1234.5, {}, "1.234,5"],
    ["de", 1234.5, { format: "money", currency: "EUR" }, `1.234,50${NB}€`],
    ["de", 12.345, { format: "percent" }, `12,35${NB}%`],
    ["de", 3723, { format: "time" }, "1 Std. 2 Min. 3 Sek."],
    ["fr", 1234.5, {}, `1${NNB}234,5`],
    ["fr", 1234.5, { format: "money", currency: "EUR" }, `1${NNB}234,50${NB}€`],
    ["nl", 1234.5, { format: "money", currency: "EUR" }, `€${NB}1.234,50`],
    ["sl", -4, { format: "percent" }, `−4${NB}%`],
    ["pt", 61, { format: "time" }, "1 min 1 s"],
    ["en-US", 1234.5, {}, "1,234.5"],
    ["en-US", 12.345, { format: "percent" }, "12.35%"],
    ["en-US", 3723, { format: "time" }, "1h 2m 3s"],
  ])("%s: %s %j → %s", (locale, value, options, expected) => {
    expect(formatNumber(value, { ...options, locale })).toBe(expected);
  });

  it.each([
    ["de", 0, "0 Sek."],
    ["en-US", 0, "0s"],
  ])("%s: no time at all reads %s", (locale, seconds, expected) => {
    expect(formatDuration(seconds, locale)).toBe(expected);
  });
});

describe("dates and range labels in a dashboard's language", () => {
  const de = translatorFor("de");
  const en = translatorFor("en");
  it.each([
    ["de", "2026-11-28", "28. Nov. 2026"],
    ["fr", "2026-11-28", "28 nov. 2026"],
    ["sl", "2026-11-28", "28. nov. 2026"],
    ["en-US", "2026-11-28", "Nov 28, 2026"],
    ["de", "not a day", ""],
  ])("%s: %s → %s", (locale, day, expected) => {
    expect(formatDisplayDate(day, locale)).toBe(expected);
  });

  it("a range joins its two ends", () => {
    expect(rangeText("2026-11-01", "2026-11-28", "de")).toBe("1. Nov. 2026 – 28. Nov. 2026");
    expect(rangeText("2026-11-01", "2026-11-28")).toBe("Nov 01, 2026 - Nov 28, 2026");
  });

  it.each([
    [null, null, 2026, de, "Vorheriger Zeitraum"],
    ["2026-10-01", "2026-10-14", 2026, de, "vs. 1. Okt. – 14. Okt."],
    ["2025-10-01", "2025-10-14", 2026, de, "vs. 1. Okt. 2025 – 14. Okt. 2025"],
    ["2026-10-01", "2026-10-14", 2026, en, "vs Oct 1 – Oct 14"],
    ["2026-10-01", "2026-10-14", 2026, undefined, "vs Oct 1 – Oct 14"],
    [null, null, 2026, undefined, "Previous period"],
  ] as const)("comparison %s – %s → %s", (start, end, year, language, expected) => {
    expect(comparisonLabel(start, end, year, language)).toBe(expected);
  });

  it.each([
    ["de", "last_30_days", "Letzte 30 Tage"],
    ["fr", "last_month", "Mois dernier"],
    ["en", "last_7_days", "Last 7 Days"],
  ] as const)("%s names %s %s", (language, type, expected) => {
    expect(rangeTypeName(type, translatorFor(language))).toBe(expected);
  });
});
