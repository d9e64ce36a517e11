import { endOfMonth } from "date-fns/endOfMonth";
import { formatDay, isValidDay, parseDay } from "./day";
import { type DashboardDateRange, type DayRange, defaultCompareRange, isDefaultCompare } from "./ranges";

/** Confirmation shown after Copy URL, and for how long (docs/product.md §2, §9). */
export const COPIED_MESSAGE = "Copied successfully";
export const COPIED_DURATION_MS = 750;

/** Every query parameter Copy URL may write; all of them are replaced on each copy. */
export const COPY_URL_PARAM_KEYS = [
  "month",
  "year",
  "startDate",
  "endDate",
  "compareStartDate",
  "compareEndDate",
] as const;
export type CopyUrlParamKey = (typeof COPY_URL_PARAM_KEYS)[number];
export type CopyUrlParams = Partial<Record<CopyUrlParamKey, string>>;

export interface CopyUrlRange extends DayRange {
  compareStartDate?: string | null;
  compareEndDate?: string | null;
  /** When explicitly false the compare dates are the default ones, whatever they hold. */
  customCompare?: boolean;
}

/** True when the range is exactly one whole calendar month. */
export function isWholeMonth(range: DayRange): boolean {
  if (!range.startDate.endsWith("-01")) return false;
  return formatDay(endOfMonth(parseDay(range.startDate))) === range.endDate;
}

/**
 * docs/product.md §2 Copy URL parameters. The main range is written as `month` (1-12) + `year` when it is
 * exactly one whole calendar month, otherwise as `startDate` + `endDate`. Either form gets
 * `compareStartDate` + `compareEndDate` added only when the comparison is not the default
 * equal-length period directly before, so a link never loses a custom comparison.
 */
export function copyUrlParams(range: CopyUrlRange): CopyUrlParams {
  const params: CopyUrlParams = isWholeMonth(range)
    ? { month: String(Number(range.startDate.slice(5, 7))), year: range.startDate.slice(0, 4) }
    : { startDate: range.startDate, endDate: range.endDate };
  const compareIsCustom =
    range.customCompare !== false && !isDefaultCompare(range, range.compareStartDate, range.compareEndDate);
  if (compareIsCustom && range.compareStartDate && range.compareEndDate) {
    params.compareStartDate = range.compareStartDate;
    params.compareEndDate = range.compareEndDate;
  }
  return params;
}

/** Anything query parameters can be read from: URLSearchParams or a parsed query object. */
export type ParamSource = { get(name: string): string | null } | Record<string, unknown>;

function readParam(source: ParamSource, name: string): string | null {
  if (typeof source.get === "function") {
    const value: unknown = (source as { get(name: string): string | null }).get(name);
    return typeof value === "string" ? value : null;
  }
  const value = (source as Record<string, unknown>)[name];
  if (Array.isArray(value)) return typeof value[0] === "string" ? value[0] : null;
  return typeof value === "string" ? value : null;
}

function monthRange(month: string | null, year: string | null): DayRange | null {
  if (!month || !year || !/^\d{1,2}$/.test(month) || !/^\d{4}$/.test(year)) return null;
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return null;
  const startDate = `${year}-${String(monthNumber).padStart(2, "0")}-01`;
  return { startDate, endDate: formatDay(endOfMonth(parseDay(startDate))) };
}

function dayPair(start: string | null, end: string | null): DayRange | null {
  if (!isValidDay(start) || !isValidDay(end)) return null;
  return end < start ? { startDate: end, endDate: start } : { startDate: start, endDate: end };
}

/**
 * Inverse of copyUrlParams: restores a Custom range from a copied link. `month`+`year` win over
 * `startDate`+`endDate`; a valid compare pair turns custom compare on, otherwise the default
 * compare period is used. Returns null when the link carries no usable main range.
 */
export function rangeFromUrlParams(source: ParamSource): DashboardDateRange | null {
  const main =
    monthRange(readParam(source, "month"), readParam(source, "year")) ??
    dayPair(readParam(source, "startDate"), readParam(source, "endDate"));
  if (!main) return null;
  const custom = dayPair(readParam(source, "compareStartDate"), readParam(source, "compareEndDate"));
  const compare = custom ?? defaultCompareRange(main.startDate, main.endDate);
  return {
    rangeType: "custom",
    startDate: main.startDate,
    endDate: main.endDate,
    compareStartDate: compare.startDate,
    compareEndDate: compare.endDate,
    customCompare: custom !== null && !isDefaultCompare(main, custom.startDate, custom.endDate),
  };
}

/**
 * The address Copy URL puts on the clipboard: `href` with its range parameters replaced and every
 * other parameter and the hash kept, so a copied link never carries stale dates.
 */
export function buildCopyUrl(href: string, range: CopyUrlRange): string {
  const hashIndex = href.indexOf("#");
  const hash = hashIndex >= 0 ? href.slice(hashIndex) : "";
  const withoutHash = hashIndex >= 0 ? href.slice(0, hashIndex) : href;
  const queryIndex = withoutHash.indexOf("?");
  const base = queryIndex >= 0 ? withoutHash.slice(0, queryIndex) : withoutHash;
  const query = queryIndex >= 0 ? withoutHash.slice(queryIndex + 1) : "";
  const ours = new Set<string>(COPY_URL_PARAM_KEYS);
  const kept = query
    .split("&")
    .filter((pair) => pair !== "" && !ours.has(decodeURIComponent(pair.split("=")[0].replace(/\+/g, " "))));
  const added = Object.entries(copyUrlParams(range)).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value ?? "")}`,
  );
  return `${base}?${[...kept, ...added].join("&")}${hash}`;
}
