import { formatDuration, type TimeUnit, toSeconds } from "./time";
import { notAvailableIn } from "./words";

/** What a value that cannot be shown reads as (docs/product.md §8). */
export const NOT_AVAILABLE = "N/A";

/** Default currency of money values (docs/product.md §9). */
export const DEFAULT_CURRENCY = "USD";

/** Most fraction digits any number is shown with (docs/product.md §9). */
export const MAX_FRACTION_DIGITS = 2;

export const NUMBER_FORMATS = ["number", "money", "percent", "time"] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

export interface FormatNumberOptions {
  format?: NumberFormat;
  /** ISO 4217 code for money; USD when absent. */
  currency?: string | null;
  /** Unit of a time value; seconds when absent. */
  timeUnit?: TimeUnit;
  locale?: string;
}

const DEFAULT_LOCALE = "en-US";

// Rounding before Intl turns -0.001 into 0, so a tiny negative never shows as '-0'.
function roundForDisplay(value: number): number {
  return Number(value.toFixed(MAX_FRACTION_DIGITS)) || 0;
}

/**
 * Building an Intl.NumberFormat costs far more than formatting with one (a dashboard formats thousands
 * of numbers, and on a phone the constructions alone were a tenth of its first render): one per locale
 * and options, kept. Locales and currencies are few, so the map stays small.
 */
const formatters = new Map<string, Intl.NumberFormat>();

type FormatterOptions = Pick<
  Intl.NumberFormatOptions,
  "style" | "currency" | "notation" | "minimumFractionDigits" | "maximumFractionDigits"
>;

export function numberFormatter(locale: string, options: FormatterOptions): Intl.NumberFormat {
  // The options this module uses, spelled out: a JSON key cost more than the formatting it saved.
  const key = `${locale}|${options.style}|${options.currency}|${options.notation}|${options.minimumFractionDigits}|${options.maximumFractionDigits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

function plainNumber(value: number, locale: string): string {
  return numberFormatter(locale, { maximumFractionDigits: MAX_FRACTION_DIGITS }).format(value);
}

function money(value: number, currency: string, locale: string): string {
  try {
    // A currency's own minimum (2 for USD, 0 for JPY, 3 for BHD) is kept but never above the product's maximum.
    const natural = numberFormatter(locale, { style: "currency", currency }).resolvedOptions();
    const minimumFractionDigits = Math.min(natural.minimumFractionDigits ?? 0, MAX_FRACTION_DIGITS);
    return numberFormatter(locale, {
      style: "currency",
      currency,
      minimumFractionDigits,
      maximumFractionDigits: MAX_FRACTION_DIGITS,
    }).format(value);
  } catch {
    // An unknown currency code from a provider must not break the widget: show the code instead.
    return `${currency} ${plainNumber(value, locale)}`;
  }
}

/**
 * docs/product.md §8/§9 display of a metric value: number, money, percent or time; 'N/A' when not
 * finite, in the locale's language (format/words.ts).
 */
export function formatNumber(value: number | null | undefined, options: FormatNumberOptions = {}): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return notAvailableIn(options.locale);
  const locale = options.locale ?? DEFAULT_LOCALE;
  switch (options.format ?? "number") {
    case "money":
      return money(roundForDisplay(value), (options.currency || DEFAULT_CURRENCY).toUpperCase(), locale);
    case "percent":
      // English keeps the product's '12.35%'; other locales space and sign it their way ('12,35 %').
      return locale === DEFAULT_LOCALE
        ? `${plainNumber(roundForDisplay(value), locale)}%`
        : numberFormatter(locale, { style: "percent", maximumFractionDigits: MAX_FRACTION_DIGITS }).format(
            roundForDisplay(value) / 100,
          );
    case "time":
      return formatDuration(toSeconds(value, options.timeUnit), locale);
    case "number":
      return plainNumber(roundForDisplay(value), locale);
  }
}

/**
 * Percent change from `previous` to `current`, or null when it has no meaning (a zero or
 * non-finite base). Divides by |previous| so a move up always reads as a positive change,
 * even from a negative base.
 */
export function formatChange(current: number | null | undefined, previous: number | null | undefined): number | null {
  if (typeof current !== "number" || typeof previous !== "number") return null;
  if (!Number.isFinite(current) || !Number.isFinite(previous) || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}
