import type { NumberFormat } from "@app/core";

/**
 * Reading spreadsheet cells as people write them: '1,234.50', '$12', '45%', '(30)', '00:02:34',
 * '2024-03-01', '03/01/2024', 'Mar 1, 2024'. Kept apart from the parsers (CSV text, a Google sheet's
 * values) because these are guesses about meaning, not syntax; both connectors read cells this way.
 */

export interface NumberCell {
  value: number;
  format: NumberFormat;
}

const EMPTY_MARKERS = new Set(["", "-", "—", "n/a", "na", "null", "none"]);
const CURRENCY = /^(?:[$€£¥]|usd|eur|gbp|jpy)\s*|\s*(?:[$€£¥]|usd|eur|gbp|jpy)$/i;

function plainNumber(text: string): number | null {
  let body = text.replace(/\s/g, "");
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(body)) body = body.replace(/,/g, "");
  else if (/^[-+]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(body)) body = body.replace(/\./g, "").replace(",", ".");
  // '1,5' or '12,25' cannot be a thousands group, so the comma is a decimal mark (European exports).
  else if (/^[-+]?\d+,(\d{1,2}|\d{4,})$/.test(body)) body = body.replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(body)) return null;
  const value = Number(body);
  return Number.isFinite(value) ? value : null;
}

/** A cell as a number with the format its writing suggests; null when empty; undefined when it is text. */
export function readNumberCell(raw: string): NumberCell | null | undefined {
  let text = raw.trim();
  if (EMPTY_MARKERS.has(text.toLowerCase())) return null;
  const time = /^(-)?(\d+):([0-5]\d)(?::([0-5]\d))?$/.exec(text);
  if (time) {
    // h:mm:ss, or mm:ss with two parts: exports write durations, not clock times, in metric columns.
    const [, minus, a, b, c] = time;
    const seconds = c === undefined ? Number(a) * 60 + Number(b) : Number(a) * 3600 + Number(b) * 60 + Number(c);
    return { value: minus ? -seconds : seconds, format: "time" };
  }
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  let format: NumberFormat = "number";
  if (text.endsWith("%")) {
    format = "percent";
    text = text.slice(0, -1);
  } else if (CURRENCY.test(text)) {
    format = "money";
    text = text.replace(CURRENCY, "");
    if (text.startsWith("-")) {
      negative = !negative;
      text = text.slice(1);
    }
  } else if (/^-[$€£¥]/.test(text)) {
    format = "money";
    negative = !negative;
    text = text.slice(2);
  }
  const value = plainNumber(text);
  if (value === null) return undefined;
  return { value: negative ? -value : value, format };
}

/** The format most of a column's numbers are written in; 'number' unless another one covers at least half. */
export function columnFormat(cells: ReadonlyArray<NumberCell | null | undefined>): NumberFormat {
  const counts = new Map<NumberFormat, number>();
  let numeric = 0;
  for (const cell of cells) {
    if (!cell) continue;
    numeric += 1;
    counts.set(cell.format, (counts.get(cell.format) ?? 0) + 1);
  }
  let best: NumberFormat = "number";
  for (const [format, count] of counts)
    if (format !== "number" && count * 2 >= numeric && count > (counts.get(best) ?? 0)) best = format;
  return best;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function isoDay(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

/**
 * Reads a column of dates into `yyyy-MM-dd` (null where a cell is not a date). Numeric dates with the
 * year last are read day-first when the column shows a day above 12 in front, or uses dots or dashes
 * (European), otherwise month-first (US), so one column is never read two ways.
 */
export function readDateColumn(cells: readonly string[]): (string | null)[] {
  const yearLast = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/;
  let dayFirst = false;
  let monthFirst = false;
  for (const cell of cells) {
    const match = yearLast.exec(cell.trim());
    if (!match) continue;
    if (Number(match[1]) > 12) dayFirst = true;
    else if (Number(match[3]) > 12) monthFirst = true;
    else if (match[2] !== "/") dayFirst = dayFirst || !monthFirst;
  }
  return cells.map((raw) => {
    const text = raw.trim();
    let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$/.exec(text);
    if (match) return isoDay(Number(match[1]), Number(match[2]), Number(match[3]));
    match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
    if (match) return isoDay(Number(match[1]), Number(match[2]), Number(match[3]));
    match = yearLast.exec(text);
    if (match) {
      const [first, second] = [Number(match[1]), Number(match[3])];
      return dayFirst && !monthFirst
        ? isoDay(Number(match[4]), second, first)
        : isoDay(Number(match[4]), first, second);
    }
    // 'Mar 01, 2024' (the product's display format), 'March 1 2024', '1 March 2024'.
    match = /^([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(text);
    if (match && monthOf(match[1]) > 0) return isoDay(Number(match[3]), monthOf(match[1]), Number(match[2]));
    match = /^(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})$/i.exec(text);
    if (match && monthOf(match[2]) > 0) return isoDay(Number(match[3]), monthOf(match[2]), Number(match[1]));
    return null;
  });
}
