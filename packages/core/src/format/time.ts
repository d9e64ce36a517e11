/** Units a time metric may be measured in (docs/product.md §3 calculated metric types). */
export const TIME_UNITS = ["milliseconds", "seconds", "minutes", "hours"] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

/** How many seconds one of each unit is: time values are shown from seconds. */
export const SECONDS_PER_UNIT: Record<TimeUnit, number> = {
  milliseconds: 0.001,
  seconds: 1,
  minutes: 60,
  hours: 3600,
};

/** Converts a value in `unit` to seconds. */
export function toSeconds(value: number, unit: TimeUnit = "seconds"): number {
  return value * SECONDS_PER_UNIT[unit];
}

/**
 * Seconds as '1h 2m 3s' (docs/product.md §9): rounded to whole seconds, zero units left out, '0s' for
 * nothing, a leading minus when negative. Hours are not folded into days because reports
 * read durations such as session length, which stay well under a day.
 */
export function formatDuration(seconds: number, locale = "en-US"): string {
  const total = Math.round(Math.abs(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const unit = (value: number, name: "hour" | "minute" | "second") =>
    locale === "en-US" ? `${value}${name[0]}` : unitFormatter(locale, name).format(value);
  if (total === 0) return unit(0, "second");
  const parts = [
    hours > 0 ? unit(hours, "hour") : "",
    minutes > 0 ? unit(minutes, "minute") : "",
    rest > 0 ? unit(rest, "second") : "",
  ].filter(Boolean);
  return `${seconds < 0 ? "-" : ""}${parts.join(" ")}`;
}

const unitFormatters = new Map<string, Intl.NumberFormat>();
/** Intl's short unit in a locale other than English ('2 Min.', '3 s'), kept per locale and unit. */
function unitFormatter(locale: string, unit: "hour" | "minute" | "second"): Intl.NumberFormat {
  const key = `${locale}|${unit}`;
  let formatter = unitFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short" });
    unitFormatters.set(key, formatter);
  }
  return formatter;
}
