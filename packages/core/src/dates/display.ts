import { format } from "date-fns/format";
import type { Translator } from "../i18n/translator";
import { isValidDay, parseDay } from "./day";
import type { RangeType } from "./ranges";

/** What a label needs to be in a dashboard's language: its locale and its messages (i18n/translator.ts). */
export type LabelLanguage = Pick<Translator, "locale" | "t">;

/** The product's English locale: the date-fns patterns below are its formats. */
const ENGLISH = "en-US";

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** A day in another language: Intl's short month ("28. Nov. 2026", "28 nov. 2026"), kept per locale. */
function intlDay(day: string, locale: string, withYear: boolean): string {
  const key = `${locale}|${withYear}`;
  let formatter = dayFormats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, {
      day: "numeric",
      month: "short",
      ...(withYear && { year: "numeric" }),
      timeZone: "UTC",
    });
    dayFormats.set(key, formatter);
  }
  return formatter.format(new Date(`${day}T00:00:00Z`));
}

/** Display format of a day in pickers and reports (docs/product.md §9: like 'Jan 05, 2026'). */
export const DISPLAY_DATE_FORMAT = "MMM dd, yyyy";

/** Picker placeholders of docs/product.md §2. */
export const DATE_PICKER_EMPTY_TEXT = { single: "Select date", range: "Set date range" } as const;

/** Separator between the two ends of a displayed range. */
export const RANGE_SEPARATOR = " - ";

/** The calendar year dropdown spans 5 years before to 6 after the current year (docs/product.md §9). */
export const YEARS_BEFORE = 5;
export const YEARS_AFTER = 6;

/**
 * 'yyyy-MM-dd' → 'MMM dd, yyyy' in English, the locale's short date elsewhere ('28. Nov. 2026'); an
 * unset or invalid day shows as an empty string.
 */
export function formatDisplayDate(day: string | null | undefined, locale = ENGLISH): string {
  if (!isValidDay(day)) return "";
  return locale === ENGLISH ? format(parseDay(day), DISPLAY_DATE_FORMAT) : intlDay(day, locale, true);
}

/** Text of a single-date picker: the date, or 'Select date' when empty. */
export function singleDateText(day: string | null | undefined): string {
  return formatDisplayDate(day) || DATE_PICKER_EMPTY_TEXT.single;
}

/**
 * Text of a range picker: 'Jan 01, 2026 - Jan 31, 2026', or 'Set date range' until both ends are set.
 * In another locale its dates, joined by an en dash ('1. Nov. 2026 – 28. Nov. 2026').
 */
export function rangeText(
  startDate: string | null | undefined,
  endDate: string | null | undefined,
  locale = ENGLISH,
): string {
  const start = formatDisplayDate(startDate, locale);
  const end = formatDisplayDate(endDate, locale);
  if (!start || !end) return DATE_PICKER_EMPTY_TEXT.range;
  return start === end ? start : `${start}${locale === ENGLISH ? RANGE_SEPARATOR : " – "}${end}`;
}

/** Years of the calendar dropdown for the year of `today` ('yyyy-MM-dd'), ascending. */
export function yearOptions(today: string): number[] {
  const year = Number(today.slice(0, 4));
  return Array.from({ length: YEARS_BEFORE + YEARS_AFTER + 1 }, (_, index) => year - YEARS_BEFORE + index);
}

/** Name of the default comparison, in legends and tooltips. */
export const PREVIOUS_PERIOD_LABEL = "Previous period";

/**
 * How the comparison period is named in the dashboard header and chart legends. A custom comparison
 * is named by its days, 'vs Oct 1 – Oct 14' (years shown only when the two ends differ in year or the
 * range is not in `currentYear`); the default one is 'Previous period'.
 */
export function comparisonLabel(
  compareStartDate: string | null | undefined,
  compareEndDate: string | null | undefined,
  currentYear?: number,
  language?: LabelLanguage,
): string {
  if (!isValidDay(compareStartDate) || !isValidDay(compareEndDate)) {
    return language ? language.t("range.previousPeriod") : PREVIOUS_PERIOD_LABEL;
  }
  const start = parseDay(compareStartDate);
  const end = parseDay(compareEndDate);
  const withYear =
    start.getFullYear() !== end.getFullYear() || (currentYear !== undefined && end.getFullYear() !== currentYear);
  const locale = language?.locale ?? ENGLISH;
  const day = (value: string, date: Date) =>
    locale === ENGLISH ? format(date, withYear ? "MMM d, yyyy" : "MMM d") : intlDay(value, locale, withYear);
  const period =
    compareStartDate === compareEndDate
      ? day(compareStartDate, start)
      : `${day(compareStartDate, start)} – ${day(compareEndDate, end)}`;
  return language ? language.t("range.versus", { period }) : `vs ${period}`;
}

/** A range type's name in a dashboard's language ('Letzte 30 Tage'). */
export function rangeTypeName(type: RangeType, language: Pick<Translator, "t">): string {
  return language.t(`range.${type}`);
}
