/**
 * RFC 4180 CSV parsing for the CSV upload connector. Pure and dependency-free so the server can
 * validate an upload and the web client could preview one with the same rules. Errors name the
 * physical line a person sees in a text editor, because "Line 7: unclosed quote" is fixable and
 * "parse error" is not.
 */

export interface CsvOptions {
  /** Field separator; detected from the first record when absent (',', ';' or tab). */
  delimiter?: string;
  /** When true (the default) every record must have as many fields as the first one. */
  strictColumns?: boolean;
}

export type CsvResult =
  | {
      ok: true;
      /** Records in file order; blank lines are skipped. */
      rows: string[][];
      /** 1-based physical line on which each record starts (records may span lines inside quotes). */
      lines: number[];
      delimiter: string;
    }
  | {
      ok: false;
      line: number;
      message: string;
      /** The line and message together, e.g. "Line 7: unclosed quote". */
      error: string;
    };

const CANDIDATE_DELIMITERS = [",", ";", "\t"] as const;

/** Drops a UTF-8 byte-order mark, which spreadsheet exports often write and which would stick to the first header. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Picks the separator of the first record by counting candidates outside quotes; a comma wins ties
 * since it is the RFC's separator (European exports use ';' because ',' is their decimal mark).
 */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(CANDIDATE_DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ",";
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

function failure(line: number, message: string): CsvResult {
  return { ok: false, line, message, error: `Line ${line}: ${message}` };
}

/** Parses CSV text into records of fields (all text); see CsvResult for what a failure carries. */
export function parseCsv(input: string, options: CsvOptions = {}): CsvResult {
  const text = stripBom(input);
  const delimiter = options.delimiter ?? detectDelimiter(text);
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    return failure(1, "invalid delimiter");
  }
  const rows: string[][] = [];
  const lines: number[] = [];
  let line = 1;
  let index = 0;
  let record: string[] = [];
  let recordLine = 1;
  let field = "";
  // A record is "blank" until any field text, quote or delimiter is seen, so empty lines can be skipped.
  let touched = false;

  const endRecord = () => {
    record.push(field);
    // A line holding only spaces is as blank to a reader as an empty one.
    const blank = record.length === 1 && record[0].trim() === "";
    if (touched && !blank) {
      rows.push(record);
      lines.push(recordLine);
    }
    record = [];
    field = "";
    touched = false;
  };
  const newline = () => {
    // CRLF counts as one line break.
    if (text[index] === "\r" && text[index + 1] === "\n") index += 1;
    index += 1;
    line += 1;
  };

  while (index < text.length) {
    const char = text[index];
    if (!touched && record.length === 0 && field === "") recordLine = line;
    if (char === '"' && field === "") {
      // Quoted field: runs to the next lone quote; "" is an escaped quote; line breaks are kept.
      const startLine = line;
      touched = true;
      index += 1;
      let closed = false;
      while (index < text.length) {
        const inner = text[index];
        if (inner === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          closed = true;
          index += 1;
          break;
        }
        if (inner === "\r" || inner === "\n") {
          field += inner === "\r" && text[index + 1] === "\n" ? "\r\n" : inner;
          newline();
          continue;
        }
        field += inner;
        index += 1;
      }
      if (!closed) return failure(startLine, "unclosed quote");
      const next = text[index];
      if (next !== undefined && next !== delimiter && next !== "\n" && next !== "\r") {
        return failure(line, `unexpected character '${next}' after closing quote`);
      }
      if (next === delimiter) {
        record.push(field);
        field = "";
        index += 1;
      }
      continue;
    }
    if (char === delimiter) {
      touched = true;
      record.push(field);
      field = "";
      index += 1;
      continue;
    }
    if (char === "\n" || char === "\r") {
      endRecord();
      newline();
      continue;
    }
    // A quote inside an unquoted field (5" screen) is kept as text, as spreadsheet programs do.
    touched = true;
    field += char;
    index += 1;
  }
  // The last record may end without a line break (RFC 4180 §2.2); a trailing separator adds an empty field.
  if (touched) endRecord();

  if (options.strictColumns ?? true) {
    const expected = rows[0]?.length ?? 0;
    for (let r = 1; r < rows.length; r += 1) {
      if (rows[r].length !== expected) {
        return failure(lines[r], `expected ${expected} columns, found ${rows[r].length}`);
      }
    }
  }
  return { ok: true, rows, lines, delimiter };
}
