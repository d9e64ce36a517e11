/**
 * CSV as spreadsheets read it (RFC 4180): every cell quoted, quotes doubled, CRLF line ends. A cell that
 * a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return before one)
 * gets a leading apostrophe, so an exported value such as a dashboard named "=HYPERLINK(…)" stays text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
