import { isLowerBetterName, type TOption, type TTable, type TWidgetParam, WIDGET_FORMATS } from "@app/core";
import { AppError } from "../../infra/errors";
import { type Connector, ConnectorError, type QueryInputs, type SourceHandle } from "../types";
import { parseFile, readSheet, type Sheet, SheetError, type SheetOptions } from "./sheet";

/** The one sheet of a CSV file (a spreadsheet connector's 'sheet' input keeps the same shape). */
const CSV_SHEET: TOption = { value: "sheet1", label: "Sheet 1" };

const bool = (key: string, label: string, answer: boolean): TWidgetParam => ({
  key,
  label,
  kind: "boolean",
  required: true,
  default: answer,
});

/**
 * docs/product.md §5 Google Sheets parameters: property, sheet and the four explicit booleans, then dimension and
 * metrics. The booleans start as the common spreadsheet reads: a header row, no totals row, labels in the
 * first column, and no date filtering (so the whole file shows until the user says it is dated).
 */
const PARAMS: TWidgetParam[] = [
  { key: "property", label: "File", kind: "select", required: true, remote: "properties" },
  { key: "sheet", label: "Sheet", kind: "select", required: true, remote: "sheets" },
  bool("has_header", "First row is a header", true),
  bool("has_footer", "Last row holds totals", false),
  bool("has_labels", "First column holds row labels", true),
  bool("uses_date_range", "First column holds dates (filter by the date range)", false),
  { key: "dimension", label: "Dimension", kind: "select", required: false, remote: "dimensions" },
  { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "columns" },
];

/** Form values arrive as query text ('true', '1') for option lists and as JSON booleans for data. */
function flag(value: unknown): boolean {
  return value === true || value === "true" || value === "1" || value === 1;
}

function sheetOptions(form: Readonly<Record<string, unknown>>): SheetOptions {
  return {
    hasHeader: flag(form.has_header),
    hasFooter: flag(form.has_footer),
    hasLabels: flag(form.has_labels),
    usesDateRange: flag(form.uses_date_range),
  };
}

/** Loads and reads the chosen file; a missing file is the source failing, a file the options cannot read is a 422. */
async function loadSheet(source: SourceHandle, form: Readonly<Record<string, unknown>>): Promise<Sheet> {
  const fileId = String(form.property ?? "");
  if (!source.properties.some((property) => property.value === fileId)) {
    throw AppError.validation({ property: ["The selected file is invalid."] });
  }
  const bytes = await source.readFile(fileId);
  if (!bytes) throw new ConnectorError(`CSV file ${fileId} of source ${source.id} is missing from storage`);
  try {
    return readSheet(parseFile(bytes), sheetOptions(form));
  } catch (error) {
    if (error instanceof SheetError) throw AppError.validation({ [error.field]: [error.message] });
    throw error;
  }
}

/** Sums, except percentages, which have no weights in a sheet and so are averaged. */
function aggregate(values: ReadonlyArray<number | null>, format: string): number | null {
  const present = values.filter((value): value is number => value !== null);
  if (present.length === 0) return null;
  const total = present.reduce((a, b) => a + b, 0);
  return format === "percent" ? total / present.length : total;
}

function tableOf(sheet: Sheet, inputs: QueryInputs, range: { startDate: string; endDate: string }): TTable {
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

  // A footer describes the whole file; once rows are filtered to a date range it no longer matches them.
  const totals = sheet.footer && !usesDates ? pick(sheet.footer) : aggregateRows(rows.map((row) => pick(row.values)));
  const label = sheet.labelColumn;
  return {
    dimension: dimension && label ? { key: label.key, label: label.label, kind: label.kind } : null,
    metrics: indexes.map((i) => ({
      key: sheet.columns[i].key,
      label: sheet.columns[i].label,
      format: sheet.columns[i].format,
      currency: null,
      // A file carries no metadata: its header names say which columns are better when lower.
      ...(isLowerBetterName(sheet.columns[i].label) ? { lowerIsBetter: true } : {}),
    })),
    rows: labels.map((value) => ({ dimension: value, values: aggregateRows(grouped.get(value) ?? []) })),
    totals,
  };
}

/** Checks an upload is a readable CSV before it is stored (422 on `file`, naming the line). */
function checkUpload(data: Buffer): void {
  try {
    parseFile(data);
  } catch (error) {
    if (error instanceof SheetError) throw AppError.validation({ file: [error.message] });
    throw error;
  }
}

/** CSV upload connector (docs/decisions.md, the widget data path): a company file read with the Google Sheets parameters. */
export const csvConnector: Connector = {
  key: "csv",
  displayName: "CSV upload",
  order: 9,
  authKind: "upload",
  available: true,
  note: "Upload a .csv file; add more files to the same source later.",
  widgetTypes: [
    {
      type: "csv.sheet",
      label: "CSV data",
      connector: "csv",
      params: PARAMS,
      formats: [...WIDGET_FORMATS],
      mergeWithoutDimension: true,
    },
  ],
  upload: { extension: "csv", check: (file) => checkUpload(file.data) },
  async options(kind, { source, form }) {
    if (kind === "properties") return [...source.properties];
    if (kind === "sheets") return [CSV_SHEET];
    if (kind === "columns") {
      const sheet = await loadSheet(source, form);
      return sheet.columns
        .filter((column) => column.numeric)
        .map((column) => ({ value: column.key, label: column.label }));
    }
    if (kind === "dimensions") {
      const { labelColumn } = await loadSheet(source, form);
      return labelColumn ? [{ value: labelColumn.key, label: labelColumn.label }] : [];
    }
    throw AppError.notFound("Unknown option list.");
  },
  async query({ source, inputs, range }) {
    return tableOf(await loadSheet(source, inputs), inputs, range);
  },
  // Only a first column of dates ties a sheet's rows to the range.
  followsRange: (inputs) => flag(inputs.uses_date_range),
};
