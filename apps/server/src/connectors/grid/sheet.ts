import type { NumberFormat } from "@app/core";
import { columnFormat, type NumberCell, readDateColumn, readNumberCell } from "./cells";

/**
 * A grid of text cells (a parsed CSV file, a Google sheet's values) read with the Google Sheets
 * parameters (docs/product.md §5): header row, footer (totals) row, first column as row labels, first
 * column as dates. Problems name the line or row so a person can fix the data, and the parameter they
 * concern so the form can show them under the right input.
 */

export interface SheetOptions {
  hasHeader: boolean;
  hasFooter: boolean;
  hasLabels: boolean;
  usesDateRange: boolean;
}

/** A grid as its connector read it: rows of text cells and the line (CSV) or row number (sheet) of each. */
export interface Grid {
  rows: string[][];
  lines: number[];
}

/** How messages name the data and its lines: a CSV has a file of lines, a spreadsheet a sheet of rows. */
export interface GridWords {
  whole: string;
  line: string;
}

export const FILE_WORDS: GridWords = { whole: "file", line: "Line" };

export interface SheetColumn {
  key: string;
  label: string;
  format: NumberFormat;
  /** False for text columns (notes, names), which cannot be metrics. */
  numeric: boolean;
}

export interface SheetRow {
  line: number;
  /** The first column's text, or its `yyyy-MM-dd` day with usesDateRange; null without labels. */
  label: string | null;
  values: (number | null)[];
}

export interface Sheet {
  labelColumn: { key: string; label: string; kind: "date" | "string" } | null;
  /** Every column but the label column, in grid order. */
  columns: SheetColumn[];
  rows: SheetRow[];
  /** The footer row's values (same order as columns) when hasFooter. */
  footer: (number | null)[] | null;
}

/** Data that cannot be read with the chosen options; `field` is the type-form input it concerns. */
export class SheetError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Identifier-friendly column keys, so calculated-metric expressions can name columns without braces. */
function columnKeys(labels: readonly string[]): string[] {
  const used = new Set<string>();
  return labels.map((label, index) => {
    let key = label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "");
    if (key === "") key = `column_${index + 1}`;
    if (/^\d/.test(key)) key = `col_${key}`;
    let unique = key;
    for (let n = 2; used.has(unique); n += 1) unique = `${key}_${n}`;
    used.add(unique);
    return unique;
  });
}

/**
 * Interprets a grid with the sheet options. Rows may be ragged (a sheet leaves out trailing empty
 * cells): the grid is as wide as its widest row, and a missing cell reads as an empty one.
 */
export function readSheet(grid: Grid, options: SheetOptions, words: GridWords = FILE_WORDS): Sheet {
  const width = grid.rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  const square = grid.rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ""));
  const labels = options.hasHeader
    ? (square[0] ?? []).map((cell) => cell.trim())
    : Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
  const keys = columnKeys(labels.map((label, i) => (options.hasHeader ? label : `column_${i + 1}`)));
  let body = square.map((cells, index) => ({ cells, line: grid.lines[index] }));
  if (options.hasHeader) body = body.slice(1);
  const footerRecord = options.hasFooter ? body.at(-1) : undefined;
  if (options.hasFooter) body = body.slice(0, -1);
  if (body.length === 0)
    throw new SheetError(options.hasFooter ? "has_footer" : "has_header", `The ${words.whole} has no data rows.`);

  const labelled = options.hasLabels || options.usesDateRange;
  if (labelled && width < 2)
    throw new SheetError("has_labels", `The ${words.whole} needs at least one column besides the first.`);
  const first = labelled ? 1 : 0;

  let rowLabels: (string | null)[] = body.map(() => null);
  if (options.usesDateRange) {
    const days = readDateColumn(body.map((row) => row.cells[0]));
    const bad = days.indexOf(null);
    if (bad >= 0) {
      throw new SheetError(
        "uses_date_range",
        `${words.line} ${body[bad].line}: '${body[bad].cells[0].trim()}' is not a date.`,
      );
    }
    rowLabels = days;
  } else if (options.hasLabels) {
    rowLabels = body.map((row) => row.cells[0].trim());
  }

  const cells: Array<Array<NumberCell | null | undefined>> = body.map((row) =>
    row.cells.slice(first).map(readNumberCell),
  );
  const columns: SheetColumn[] = keys.slice(first).map((key, c) => {
    const column = cells.map((row) => row[c]);
    return {
      key,
      label: labels[first + c] || `Column ${first + c + 1}`,
      format: columnFormat(column),
      numeric: column.some((cell) => !!cell),
    };
  });
  const toValues = (row: ReadonlyArray<NumberCell | null | undefined>) => row.map((cell) => cell?.value ?? null);
  return {
    labelColumn: labelled
      ? { key: keys[0], label: labels[0] || "Column 1", kind: options.usesDateRange ? "date" : "string" }
      : null,
    columns,
    rows: body.map((row, index) => ({ line: row.line, label: rowLabels[index], values: toValues(cells[index]) })),
    footer: footerRecord ? toValues(footerRecord.cells.slice(first).map(readNumberCell)) : null,
  };
}
