import { comparisonLabel, rangeText } from "../dates/display";
import {
  describeSchedule,
  REPORT_DATE_RANGE_LABELS,
  type ReportDateRange,
  type ReportSchedule,
} from "../dates/report-schedule";
import { DEFAULT_LANGUAGE } from "./languages";
import type { Translator } from "./translator";

/**
 * The dates and words of a report in the dashboard's language (docs/decisions.md, "Report e-mails in the
 * dashboard's language"). English keeps the product's own texts exactly (dates/display.ts,
 * dates/report-schedule.ts); every other language takes its messages, and the locale's own date forms
 * from dates/display.ts ("28. Nov. 2026", "1 nov. 2026").
 */

function english(translator: Translator): boolean {
  return translator.language === DEFAULT_LANGUAGE;
}

/** A report's period: 'Oct 01, 2026 - Oct 31, 2026' in English, "1. Okt. 2026 – 31. Okt. 2026" in German. */
export function periodText(startDate: string, endDate: string, translator: Translator): string {
  return rangeText(startDate, endDate, translator.locale);
}

/**
 * The comparison of a widget in words, as comparisonLabel says it ('vs Oct 1 – Oct 14', the year only
 * when needed; 'Previous period' by default), in the translator's language.
 */
export function comparisonText(
  compareStartDate: string | null | undefined,
  compareEndDate: string | null | undefined,
  currentYear: number | undefined,
  translator: Translator,
): string {
  return comparisonLabel(compareStartDate, compareEndDate, currentYear, translator);
}

const RANGE_DAYS: Partial<Record<ReportDateRange, number>> = { LAST_7_DAYS: 7, LAST_30_DAYS: 30 };

/** The name of a report's date range ("Last Month", "Letzte 7 Tage"). */
export function reportRangeLabel(range: ReportDateRange, translator: Translator): string {
  if (english(translator)) return REPORT_DATE_RANGE_LABELS[range];
  const days = RANGE_DAYS[range];
  if (days !== undefined) return translator.t("reportMail.lastDays", { days });
  return translator.t(range === "LAST_MONTH" ? "reportMail.lastMonth" : "reportMail.lastWeek");
}

const weekdayFormats = new Map<string, Intl.DateTimeFormat>();

/** A weekday (0 = Sunday) by its name in the locale. */
function weekdayName(weekday: number, locale: string): string {
  let format = weekdayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
    weekdayFormats.set(locale, format);
  }
  // 1 November 2026 is a Sunday.
  return format.format(Date.UTC(2026, 10, 1 + weekday));
}

/** A report's schedule in words ("Monthly on the first working day at 08:00 (Europe/Berlin)"). */
export function scheduleText(schedule: ReportSchedule, translator: Translator): string {
  if (english(translator)) return describeSchedule(schedule);
  const time = `${String(schedule.hour).padStart(2, "0")}:${String(schedule.minute).padStart(2, "0")}`;
  const zone = schedule.timezone;
  return schedule.period === "MONTH"
    ? translator.t("reportMail.scheduleMonthly", { detail: schedule.detail, time, zone })
    : translator.t("reportMail.scheduleWeekly", {
        weekday: weekdayName(schedule.detail, translator.locale),
        time,
        zone,
      });
}
