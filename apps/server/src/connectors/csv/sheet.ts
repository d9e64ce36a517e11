import { parseCsv } from "@app/core/csv/parse";
import { type Grid, SheetError } from "../grid/sheet";

/**
 * A CSV file as a grid: the bytes decoded and split into records. Reading the grid with the Google
 * Sheets parameters is shared with the Google Sheets connector (../grid/).
 */

export { readSheet, type Sheet, type SheetColumn, SheetError, type SheetOptions, type SheetRow } from "../grid/sheet";

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
export function parseFile(bytes: Buffer): Grid {
  const text = decodeText(bytes);
  if (text === null) throw new SheetError("property", "Invalid file type");
  const parsed = parseCsv(text);
  if (!parsed.ok) throw new SheetError("property", parsed.error);
  if (parsed.rows.length === 0) throw new SheetError("property", "The file is empty.");
  return parsed;
}
