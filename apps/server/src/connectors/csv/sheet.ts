import type { NumberFormat } from "@app/core";
import { parseCsv } from "@app/core/csv/parse";
import { columnFormat, type NumberCell, readDateColumn, readNumberCell } from "./cells";

/**
 * A parsed CSV read with the Google Sheets parameters (docs/product.md §5): header row, footer (totals) row,
 * first column as row labels, first column as dates. Problems name the line so a person can fix
 * the file, and the parameter they concern so the form can show them under the right input.
 */

export interface SheetOptions {
  hasHeader: boolean;
  hasFooter: boolean;
  hasLabels: boolean;
  usesDateRange: boolean;
}

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
  /** Every column but the label column, in file order. */
  columns: SheetColumn[];
  rows: SheetRow[];
  /** The footer row's values (same order as columns) when hasFooter. */
  footer: (number | null)[] | null;
}

/** A file that cannot be read with the chosen options; `field` is the type-form input it concerns. */
export class SheetError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Text of an uploaded file: UTF-8 when valid, else Latin-1 (older spreadsheet exports); null for binary content. */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

/** Parses file bytes as CSV; throws SheetError('property') naming the line when it is malformed. */
export function parseFile(bytes: Buffer): { rows: string[][]; lines: number[] } {
  const text = decodeText(bytes);
  if (text === null) throw new SheetError("property", "Invalid file type");
  const parsed = parseCsv(text);
  if (!parsed.ok) throw new SheetError("property", parsed.error);
  if (parsed.rows.length === 0) throw new SheetError("property", "The file is empty.");
  return parsed;
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

/** Interprets parsed records with the sheet options. */
export function readSheet(csv: { rows: string[][]; lines: number[] }, options: SheetOptions): Sheet {
  const width = csv.rows[0]?.length ?? 0;
  const labels = options.hasHeader
    ? csv.rows[0].map((cell) => cell.trim())
    : csv.rows[0].map((_, i) => `Column ${i + 1}`);
  const keys = columnKeys(labels.map((label, i) => (options.hasHeader ? label : `column_${i + 1}`)));
  let body = csv.rows.map((cells, index) => ({ cells, line: csv.lines[index] }));
  if (options.hasHeader) body = body.slice(1);
  const footerRecord = options.hasFooter ? body.at(-1) : undefined;
  if (options.hasFooter) body = body.slice(0, -1);
  if (body.length === 0)
    throw new SheetError(options.hasFooter ? "has_footer" : "has_header", "The file has no data rows.");

  const labelled = options.hasLabels || options.usesDateRange;
  if (labelled && width < 2)
    throw new SheetError("has_labels", "The file needs at least one column besides the first.");
  const first = labelled ? 1 : 0;

  let rowLabels: (string | null)[] = body.map(() => null);
  if (options.usesDateRange) {
    const days = readDateColumn(body.map((row) => row.cells[0]));
    const bad = days.indexOf(null);
    if (bad >= 0) {
      throw new SheetError("uses_date_range", `Line ${body[bad].line}: '${body[bad].cells[0].trim()}' is not a date.`);
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
