import { isLowerBetterName, type TOption, type TTable, type TWidgetParam } from "@app/core";
import { AppError } from "../../infra/errors";
import type { QueryInputs } from "../types";
import { FILE_WORDS, type Grid, type GridWords, readSheet, type Sheet, SheetError, type SheetOptions } from "./sheet";

/**
 * The spreadsheet connectors' one implementation (docs/product.md §5, Google Sheets parameters): the CSV
 * connector parses a file into a grid, Google Sheets reads a sheet's values into one, and both hand it
 * here: the same inputs, the same reading of headers, footers, labels and dates, the same tables.
 */

const bool = (key: string, label: string, answer: boolean): TWidgetParam => ({
  key,
  label,
  kind: "boolean",
  required: true,
  default: answer,
});

/**
 * The type form: the connector's own property input (a file, a spreadsheet), the sheet and the four
 * explicit booleans, then dimension and metrics. The booleans start as the common spreadsheet reads: a
 * header row, no totals row, labels in the first column, and no date filtering (so the whole sheet
 * shows until the user says it is dated).
 */
export function sheetParams(property: TWidgetParam): TWidgetParam[] {
  return [
    property,
    { key: "sheet", label: "Sheet", kind: "select", required: true, remote: "sheets" },
    bool("has_header", "First row is a header", true),
    bool("has_footer", "Last row holds totals", false),
    bool("has_labels", "First column holds row labels", true),
    bool("uses_date_range", "First column holds dates (filter by the date range)", false),
    { key: "dimension", label: "Dimension", kind: "select", required: false, remote: "dimensions" },
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "columns" },
  ];
}

/** Form values arrive as query text ('true', '1') for option lists and as JSON booleans for data. */
export function flag(value: unknown): boolean {
  return value === true || value === "true" || value === "1" || value === 1;
}

export function sheetOptions(form: Readonly<Record<string, unknown>>): SheetOptions {
  return {
    hasHeader: flag(form.has_header),
    hasFooter: flag(form.has_footer),
    hasLabels: flag(form.has_labels),
    usesDateRange: flag(form.uses_date_range),
  };
}

/** A SheetError (data the options cannot read) as a 422 on the input it concerns. */
export function asValidation<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SheetError) throw AppError.validation({ [error.field]: [error.message] });
    throw error;
  }
}

/** A grid read with the form's options; what the options cannot read is a 422 naming the line or row. */
export function readGrid(grid: Grid, form: Readonly<Record<string, unknown>>, words: GridWords = FILE_WORDS): Sheet {
  return asValidation(() => readSheet(grid, sheetOptions(form), words));
}

/** The 'columns' option list: the numeric columns, which are the metrics a sheet offers. */
export function columnOptions(sheet: Sheet): TOption[] {
  return sheet.columns.filter((column) => column.numeric).map((column) => ({ value: column.key, label: column.label }));
}

/** The 'dimensions' option list: the first column, when it holds labels or dates. */
export function dimensionOptions(sheet: Sheet): TOption[] {
  return sheet.labelColumn ? [{ value: sheet.labelColumn.key, label: sheet.labelColumn.label }] : [];
}

/** Only a first column of dates ties a sheet's rows to the range. */
export const followsRange = (inputs: QueryInputs): boolean => flag(inputs.uses_date_range);

/** Sums, except percentages, which have no weights in a sheet and so are averaged. */
function aggregate(values: ReadonlyArray<number | null>, format: string): number | null {
  const present = values.filter((value): value is number => value !== null);
  if (present.length === 0) return null;
  const total = present.reduce((a, b) => a + b, 0);
  return format === "percent" ? total / present.length : total;
}

/** The widget's table from a read sheet: the chosen columns, grouped by the label column, within the range when dated. */
export function sheetTable(sheet: Sheet, inputs: QueryInputs, range: { startDate: string; endDate: string }): TTable {
  const wanted = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
  const unknown = wanted.filter((key) => !sheet.columns.some((column) => column.key === key && column.numeric));
  if (unknown.length > 0) throw AppError.validation({ metrics: [`Unknown column: ${unknown.join(", ")}.`] });
  const indexes = wanted.map((key) => sheet.columns.findIndex((column) => column.key === key));
  const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
  if (dimension && dimension !== sheet.labelColumn?.key) {
    throw AppError.validation({ dimension: ["The dimension must be the first column, with labels or dates."] });
  }
  const usesDates = sheet.labelColumn?.kind === "date";
  const rows = usesDates
    ? sheet.rows.filter((row) => row.label !== null && row.label >= range.startDate && row.label <= range.endDate)
    : sheet.rows;
  const pick = (values: ReadonlyArray<number | null>) => indexes.map((i) => values[i] ?? null);

  const grouped = new Map<string, Array<Array<number | null>>>();
  if (dimension)
    for (const row of rows) {
      // Appended in place: copying the group per row made large files quadratic.
      const key = row.label ?? "";
      const group = grouped.get(key);
      if (group) group.push(pick(row.values));
      else grouped.set(key, [pick(row.values)]);
    }
  const labels = [...grouped.keys()];
  if (usesDates) labels.sort();
  const aggregateRows = (list: ReadonlyArray<ReadonlyArray<number | null>>) =>
    indexes.map((columnIndex, m) =>
      aggregate(
        list.map((values) => values[m]),
        sheet.columns[columnIndex].format,
      ),
    );

  // A footer describes the whole sheet; once rows are filtered to a date range it no longer matches them.
  const totals = sheet.footer && !usesDates ? pick(sheet.footer) : aggregateRows(rows.map((row) => pick(row.values)));
  const label = sheet.labelColumn;
  return {
    dimension: dimension && label ? { key: label.key, label: label.label, kind: label.kind } : null,
    metrics: indexes.map((i) => ({
      key: sheet.columns[i].key,
      label: sheet.columns[i].label,
      format: sheet.columns[i].format,
      currency: null,
      // A sheet carries no metadata: its header names say which columns are better when lower.
      ...(isLowerBetterName(sheet.columns[i].label) ? { lowerIsBetter: true } : {}),
    })),
    rows: labels.map((value) => ({ dimension: value, values: aggregateRows(grouped.get(value) ?? []) })),
    totals,
  };
}
