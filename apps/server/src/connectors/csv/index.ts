import { type TOption, WIDGET_FORMATS } from "@app/core";
import { AppError } from "../../infra/errors";
import { type Sheet, SheetError } from "../grid/sheet";
import {
  asValidation,
  columnOptions,
  dimensionOptions,
  followsRange,
  readGrid,
  sheetParams,
  sheetTable,
} from "../grid/table";
import { type Connector, ConnectorError, type SourceHandle } from "../types";
import { logo } from "./logo";
import { parseFile } from "./sheet";

/** The one sheet of a CSV file (a spreadsheet connector's 'sheet' input keeps the same shape). */
const CSV_SHEET: TOption = { value: "sheet1", label: "Sheet 1" };

/** Loads and reads the chosen file; a missing file is the source failing, a file the options cannot read is a 422. */
async function loadSheet(source: SourceHandle, form: Readonly<Record<string, unknown>>): Promise<Sheet> {
  const fileId = String(form.property ?? "");
  if (!source.properties.some((property) => property.value === fileId)) {
    throw AppError.validation({ property: ["The selected file is invalid."] });
  }
  const bytes = await source.readFile(fileId);
  if (!bytes) throw new ConnectorError(`CSV file ${fileId} of source ${source.id} is missing from storage`);
  return readGrid(
    asValidation(() => parseFile(bytes)),
    form,
  );
}

/** CSV upload connector (docs/decisions.md, the widget data path): a company file read with the Google Sheets parameters. */
export const csvConnector: Connector = {
  key: "csv",
  logo,
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
      params: sheetParams({ key: "property", label: "File", kind: "select", required: true, remote: "properties" }),
      formats: [...WIDGET_FORMATS],
      mergeWithoutDimension: true,
    },
  ],
  // Checks an upload is a readable CSV before it is stored (422 on `file`, naming the line).
  upload: {
    extension: "csv",
    check: (file) => {
      try {
        parseFile(file.data);
      } catch (error) {
        if (error instanceof SheetError) throw AppError.validation({ file: [error.message] });
        throw error;
      }
    },
  },
  async options(kind, { source, form }) {
    if (kind === "properties") return [...source.properties];
    if (kind === "sheets") return [CSV_SHEET];
    if (kind === "columns") return columnOptions(await loadSheet(source, form));
    if (kind === "dimensions") return dimensionOptions(await loadSheet(source, form));
    throw AppError.notFound("Unknown option list.");
  },
  async query({ source, inputs, range }) {
    return sheetTable(await loadSheet(source, inputs), inputs, range);
  },
  followsRange,
};
