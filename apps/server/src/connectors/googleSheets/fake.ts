import type { FastifyReply, FastifyRequest } from "fastify";
import { type FakeEntry, type FakeFault, type FakePart, sendFault } from "../../../test/fakes/app";
import { answerFault } from "../../../test/fakes/kit";
import type { FakeGoogle } from "../google/fake";

/**
 * Google Sheets and the part of Google Drive its picker uses, as a part of the fakes app (./app.ts),
 * answering in the shapes of:
 * - https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets.values/get
 *   (`{range, majorDimension, values}`; trailing empty cells and rows left out, `values` absent for an
 *   empty sheet; valueRenderOption, dateTimeRenderOption, majorDimension),
 * - https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/get (field masks),
 * - https://developers.google.com/workspace/drive/api/reference/rest/v3/files/list and
 *   https://developers.google.com/workspace/drive/api/guides/search-files (the `q` syntax),
 * - errors as google.rpc.Status (`{error: {code, message, status}}`; Drive's v3 shape adds `errors[]`),
 *   limits per https://developers.google.com/workspace/sheets/api/limits (429 RESOURCE_EXHAUSTED).
 * Bearer tokens are Google's (`google.authorized`); a spreadsheet not shared with the login answers
 * 403, an unknown one 404, a range naming no sheet 400 "Unable to parse range", an unknown query
 * parameter or field 400, as Google does.
 */

/**
 * A cell as the sheet holds it: text as typed, a number in the General format, a boolean, nothing,
 * or a number shown through a format ('45%', '$1,000.50', '3/1/2025' for a date, '0:02:34').
 */
export type FakeCell = string | number | boolean | null | { value: number; shown: string; date?: boolean };

export interface FakeTab {
  sheetId: number;
  title: string;
  /** A chart on its own sheet: no grid, no values. */
  chart?: boolean;
  cells: FakeCell[][];
}

export interface FakeSpreadsheet {
  id: string;
  title: string;
  modifiedTime: string;
  /** False: the login cannot open it (403), and Drive does not list it. Default true. */
  shared?: boolean;
  trashed?: boolean;
  /** In a shared drive: Drive's default corpus (My Drive, shared with me) leaves it out; the Sheets API opens it. */
  inSharedDrive?: boolean;
  tabs: FakeTab[];
}

export interface FakeSheets {
  spreadsheets: FakeSpreadsheet[];
  /** Scripted faults: without `pathIncludes` a fault takes the next values call. */
  failNext: FakeFault[];
}

const SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet";

/** Spreadsheet ids look like Google's: 44 characters of letters, digits, '-' and '_'. */
export const fakeSpreadsheetId = (seed: string) => `1${seed.replace(/[^A-Za-z0-9]/g, "").padEnd(43, "x")}`.slice(0, 44);

/** Cells shown through a format, as a sheet holds them: the number under it and the text on screen. */
export const fakeCells = {
  percent: (value: number): FakeCell => ({ value: value / 100, shown: `${value}%` }),
  dollars: (value: number): FakeCell => ({
    value,
    shown: `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  }),
  /** A date (yyyy-mm-dd) shown as an en_US spreadsheet shows it (3/1/2025); its value is the serial day number. */
  date: (iso: string): FakeCell => ({
    value: Date.parse(`${iso}T00:00:00Z`) / 86_400_000 + 25_569,
    shown: `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(0, 4)}`,
    date: true,
  }),
};
const { percent: pct, dollars: usd, date: day } = fakeCells;

/** A few spreadsheets a test can read; tests add their own to `state.spreadsheets`. */
function defaultSpreadsheets(): FakeSpreadsheet[] {
  return [
    {
      id: fakeSpreadsheetId("dailytraffic"),
      title: "Daily traffic",
      modifiedTime: "2026-10-05T09:00:00.000Z",
      tabs: [
        {
          sheetId: 0,
          title: "Daily",
          cells: [
            ["Date", "Sessions", "Revenue", "Bounce rate"],
            [day("2025-03-01"), 100, usd(1000.5), pct(40)],
            [day("2025-03-02"), 120, usd(900), pct(50)],
            [day("2025-03-03"), 80, usd(700.25), pct(45)],
          ],
        },
        { sheetId: 7, title: "Sessions chart", chart: true, cells: [] },
      ],
    },
    {
      id: fakeSpreadsheetId("channels"),
      title: "Channels Q1",
      modifiedTime: "2026-10-04T09:00:00.000Z",
      tabs: [
        {
          sheetId: 0,
          title: "By channel",
          cells: [
            ["Channel", "Visits", "Orders"],
            ["Organic", 500, 20],
            ["Paid", 300, 15],
            ["Email", 100, 9],
            ["Total", 900, 44],
          ],
        },
      ],
    },
    {
      id: fakeSpreadsheetId("oldbudget"),
      title: "Old budget",
      modifiedTime: "2026-01-01T09:00:00.000Z",
      trashed: true,
      tabs: [{ sheetId: 0, title: "Sheet1", cells: [["x"]] }],
    },
    {
      id: fakeSpreadsheetId("someoneelse"),
      title: "Someone else's",
      modifiedTime: "2026-09-01T09:00:00.000Z",
      shared: false,
      tabs: [{ sheetId: 0, title: "Sheet1", cells: [["secret"]] }],
    },
  ];
}

/** Query parameters every Google API takes (system parameters). */
const SYSTEM_PARAMETERS = ["fields", "key", "alt", "prettyPrint", "quotaUser", "$.xgafv", "access_token", "callback"];

const sheetsError = (reply: FastifyReply, code: number, status: string, message: string) =>
  reply.code(code).send({ error: { code, message, status } });

/** Drive v3 keeps the older error shape beside the status: `errors[{domain, reason, message, location…}]`. */
const driveError = (reply: FastifyReply, code: number, reason: string, message: string, location: string) =>
  reply.code(code).send({
    error: {
      code,
      message,
      errors: [{ message, domain: "global", reason, location, locationType: "parameter" }],
    },
  });

const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, string | undefined>;

/** The Sheets API refuses query parameters it does not know (`Cannot bind query parameter`). */
function unknownParameter(request: FastifyRequest, known: readonly string[]): string | null {
  return Object.keys(query(request)).find((name) => !known.includes(name) && !SYSTEM_PARAMETERS.includes(name)) ?? null;
}

type Mask = { [field: string]: Mask };

/** `a.b.c,d` → `a(b(c)),d`: a mask with dots written as nesting, so the parser meets names, commas and parentheses only. */
function expandDots(text: string): string | null {
  let out = "";
  // Per parenthesis level: how many parentheses its dots opened, closed at the level's next ',' or ')'.
  const opened: number[] = [0];
  for (const char of text) {
    const level = opened.length - 1;
    if (char === ".") {
      opened[level] = (opened[level] ?? 0) + 1;
      out += "(";
    } else if (char === "," || char === ")") {
      out += ")".repeat(opened[level] ?? 0);
      opened[level] = 0;
      if (char === ")") {
        if (opened.length === 1) return null;
        opened.pop();
      }
      out += char;
    } else if (char === "(") {
      opened.push(0);
      out += char;
    } else out += char;
  }
  if (opened.length !== 1) return null;
  return out + ")".repeat(opened[0] ?? 0);
}

function mergeMasks(a: Mask, b: Mask): Mask {
  const out: Mask = { ...a };
  for (const [name, inner] of Object.entries(b)) out[name] = mergeMasks(out[name] ?? {}, inner);
  return out;
}

/** Parses a field mask: `a.b,c(d,e.f)` → {a: {b: {}}, c: {d: {}, e: {f: {}}}}. Null when malformed. */
export function parseMask(mask: string): Mask | null {
  const text = expandDots(mask.replace(/\s+/g, ""));
  if (text === null) return null;
  let at = 0;
  const list = (): Mask | null => {
    let out: Mask = {};
    for (;;) {
      const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|\*)/.exec(text.slice(at))?.[0];
      if (!name) return null;
      at += name.length;
      let inner: Mask = {};
      if (text[at] === "(") {
        at += 1;
        const nested = list();
        if (!nested || text[at] !== ")") return null;
        at += 1;
        inner = nested;
      }
      out = mergeMasks(out, { [name]: inner });
      if (text[at] !== ",") return out;
      at += 1;
    }
  };
  const parsed = list();
  return parsed && at === text.length ? parsed : null;
}

/** The resource's known fields, for refusing masks that name others (400, as Google does). */
const SPREADSHEET_FIELDS: Mask = {
  spreadsheetId: {},
  spreadsheetUrl: {},
  properties: { title: {}, locale: {}, timeZone: {}, autoRecalc: {} },
  sheets: {
    properties: {
      sheetId: {},
      title: {},
      index: {},
      sheetType: {},
      gridProperties: { rowCount: {}, columnCount: {}, frozenRowCount: {} },
    },
  },
};
const FILE_LIST_FIELDS: Mask = {
  kind: {},
  incompleteSearch: {},
  nextPageToken: {},
  files: { kind: {}, id: {}, name: {}, mimeType: {}, modifiedTime: {}, trashed: {}, webViewLink: {} },
};

/** True when every field the mask names is known. */
function maskKnown(mask: Mask, known: Mask): boolean {
  return Object.entries(mask).every(
    ([name, inner]) => name === "*" || (known[name] !== undefined && maskKnown(inner, known[name] as Mask)),
  );
}

/** The value with only the mask's fields (arrays element by element). */
function project(value: unknown, mask: Mask): unknown {
  if (Object.keys(mask).length === 0 || "*" in mask) return value;
  if (Array.isArray(value)) return value.map((entry) => project(entry, mask));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(mask)) {
    const field = (value as Record<string, unknown>)[name];
    if (field !== undefined) out[name] = project(field, inner);
  }
  return out;
}

const column = (index: number): string => {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
};
const columnIndex = (letters: string) =>
  [...letters.toUpperCase()].reduce((sum, char) => sum * 26 + char.charCodeAt(0) - 64, 0) - 1;

const gridSize = (tab: FakeTab) => ({
  rowCount: Math.max(1000, tab.cells.length),
  columnCount: Math.max(26, ...tab.cells.map((row) => row.length)),
});

/** A sheet title in A1 notation: quoted when it is not a plain word, quotes doubled. */
const a1Title = (title: string) => (/^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`);

/** `'My sheet'!B2:D` → the tab and the bounds; null when Google could not parse it. */
function parseRange(range: string, tabs: readonly FakeTab[]) {
  const match = /^(?:'((?:[^']|'')+)'|([^'!]+))(?:!([A-Za-z]+)?(\d+)?(?::([A-Za-z]+)?(\d+)?)?)?$/.exec(range);
  if (!match) return null;
  const title = match[1] !== undefined ? match[1].replace(/''/g, "'") : (match[2] ?? "");
  const tab = tabs.find((entry) => entry.title === title && !entry.chart);
  if (!tab) return null;
  const size = gridSize(tab);
  return {
    tab,
    top: match[4] ? Number(match[4]) - 1 : 0,
    left: match[3] ? columnIndex(match[3]) : 0,
    bottom: match[6] ? Number(match[6]) - 1 : size.rowCount - 1,
    right: match[5] ? columnIndex(match[5]) : size.columnCount - 1,
  };
}

function rendered(cell: FakeCell, valueRender: string, dateRender: string): string | number | boolean {
  if (cell === null) return "";
  if (valueRender === "FORMATTED_VALUE") {
    if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
    if (typeof cell === "number") return String(cell);
    return typeof cell === "object" ? cell.shown : cell;
  }
  if (typeof cell === "object") return cell.date && dateRender === "FORMATTED_STRING" ? cell.shown : cell.value;
  return cell;
}

/** Google leaves out trailing empty cells of each row and trailing empty rows. */
function trimmed(rows: Array<Array<string | number | boolean>>) {
  const out = rows.map((row) => {
    let end = row.length;
    while (end > 0 && row[end - 1] === "") end -= 1;
    return row.slice(0, end);
  });
  while (out.length > 0 && out[out.length - 1]?.length === 0) out.pop();
  return out;
}

interface DriveTerm {
  field: string;
  operator: string;
  value: string;
}

/** Drive's `q`: terms joined by `and`; literals in single quotes with `\'` and `\\` escapes. Null when invalid. */
export function parseDriveQuery(q: string): DriveTerm[] | null {
  const terms: DriveTerm[] = [];
  let rest = q.trim();
  while (rest.length > 0) {
    const head = /^(mimeType|name|trashed)\s*(=|!=|contains)\s*/.exec(rest);
    if (!head) return null;
    rest = rest.slice(head[0].length);
    let value: string;
    if (rest.startsWith("'")) {
      let at = 1;
      value = "";
      for (; at < rest.length && rest[at] !== "'"; at += 1) {
        if (rest[at] === "\\") at += 1;
        value += rest[at] ?? "";
      }
      if (rest[at] !== "'") return null;
      rest = rest.slice(at + 1);
    } else {
      const word = /^(true|false)\b/.exec(rest);
      if (!word) return null;
      value = word[1] ?? "";
      rest = rest.slice(value.length);
    }
    if ((head[1] === "trashed") !== (value === "true" || value === "false")) return null;
    terms.push({ field: head[1] ?? "", operator: head[2] ?? "", value });
    rest = rest.trim();
    if (rest.length === 0) break;
    const and = /^and\s+/i.exec(rest);
    if (!and) return null;
    rest = rest.slice(and[0].length);
  }
  return terms;
}

function matches(file: FakeSpreadsheet, term: DriveTerm): boolean {
  const field =
    term.field === "mimeType" ? SPREADSHEET_MIME : term.field === "name" ? file.title : String(file.trashed === true);
  if (term.operator === "contains") return field.toLowerCase().includes(term.value.toLowerCase());
  return term.operator === "=" ? field === term.value : field !== term.value;
}

const ORDER_KEYS = ["createdTime", "folder", "modifiedByMeTime", "modifiedTime", "name", "name_natural", "recency"];

/**
 * The Sheets and Drive part: `sheetsFake(google.state)`, so bearer tokens are the ones the Google
 * part's OAuth handed out.
 */
export function sheetsFake(google: FakeGoogle): FakePart<FakeSheets> {
  const state: FakeSheets = { spreadsheets: defaultSpreadsheets(), failNext: [] };
  const unauthenticated = "Request had invalid authentication credentials. Expected OAuth 2 access token.";
  /** A scripted fault for a path other than the values one: only those naming it. */
  const namedFault = (path: string) => {
    const index = state.failNext.findIndex((fault) => fault.pathIncludes && path.includes(fault.pathIncludes));
    return index < 0 ? null : (state.failNext.splice(index, 1)[0] ?? null);
  };
  /** The spreadsheet, or Google's answer for one that cannot be read. */
  const open = (reply: FastifyReply, id: string) => {
    const found = state.spreadsheets.find((entry) => entry.id === id && !entry.trashed);
    if (!found) return { failed: sheetsError(reply, 404, "NOT_FOUND", "Requested entity was not found.") };
    if (found.shared === false) {
      return { failed: sheetsError(reply, 403, "PERMISSION_DENIED", "The caller does not have permission") };
    }
    return { found };
  };

  return {
    state,
    env: (origin) => ({ SHEETS_API_URL: origin, DRIVE_API_URL: origin }),
    register(app) {
      const guarded = async (request: FastifyRequest, reply: FastifyReply) => {
        if (google.authorized(request.headers.authorization)) return;
        const drive = request.url.startsWith("/drive/");
        return reply.code(401).send({
          error: {
            code: 401,
            message: unauthenticated,
            ...(drive && {
              errors: [
                {
                  message: "Invalid Credentials",
                  domain: "global",
                  reason: "authError",
                  location: "Authorization",
                  locationType: "header",
                },
              ],
            }),
            status: "UNAUTHENTICATED",
          },
        });
      };

      app.get("/drive/v3/files", { preHandler: guarded }, async (request, reply) => {
        const fault = namedFault("/drive/v3/files");
        if (fault) return sendFault(reply, fault);
        const params = query(request);
        const terms = parseDriveQuery(params.q ?? "");
        if (!terms) return driveError(reply, 400, "invalid", "Invalid Value", "q");
        const pageSize = Number(params.pageSize ?? 100);
        if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
          return driveError(
            reply,
            400,
            "invalid",
            `Invalid value '${params.pageSize}'. Values must be within the range: [1, 1000]`,
            "pageSize",
          );
        }
        const order = (params.orderBy ?? "").split(",").filter(Boolean);
        if (order.some((entry) => !ORDER_KEYS.includes(entry.trim().replace(/\s+desc$/, "")))) {
          return driveError(reply, 400, "invalid", "Invalid Value", "orderBy");
        }
        const mask = params.fields ? parseMask(params.fields) : null;
        if (params.fields && (!mask || !maskKnown(mask, FILE_LIST_FIELDS))) {
          return driveError(reply, 400, "invalidParameter", `Invalid field selection ${params.fields}`, "fields");
        }
        let files = state.spreadsheets.filter(
          (file) =>
            file.shared !== false &&
            (!file.inSharedDrive || params.includeItemsFromAllDrives === "true") &&
            terms.every((term) => matches(file, term)),
        );
        for (const entry of [...order].reverse()) {
          const [key, direction] = entry.trim().split(/\s+/);
          const sign = direction === "desc" ? -1 : 1;
          const of = (file: FakeSpreadsheet) => (key === "modifiedTime" ? file.modifiedTime : file.title);
          files = [...files].sort((a, b) => sign * of(a).localeCompare(of(b)));
        }
        const start = Number(params.pageToken ?? 0);
        const page = files.slice(start, start + pageSize);
        const next = start + pageSize < files.length ? String(start + pageSize) : undefined;
        const full = {
          kind: "drive#fileList",
          incompleteSearch: false,
          ...(next && { nextPageToken: next }),
          files: page.map((file) => ({
            kind: "drive#file",
            id: file.id,
            name: file.title,
            mimeType: SPREADSHEET_MIME,
            modifiedTime: file.modifiedTime,
            trashed: file.trashed === true,
          })),
        };
        // Without `fields` Drive answers its default selection: kind, id, name and mimeType of each file.
        return mask
          ? project(full, mask)
          : project(full, { ...FILE_LIST_FIELDS, files: { kind: {}, id: {}, name: {}, mimeType: {} } });
      });

      app.get("/v4/spreadsheets/:id", { preHandler: guarded }, async (request, reply) => {
        const { id } = request.params as { id: string };
        const fault = namedFault(`/v4/spreadsheets/${id}`);
        if (fault) return sendFault(reply, fault);
        const unknown = unknownParameter(request, ["ranges", "includeGridData", "excludeTablesInBandedRanges"]);
        if (unknown) {
          return sheetsError(
            reply,
            400,
            "INVALID_ARGUMENT",
            `Invalid JSON payload received. Unknown name "${unknown}": Cannot bind query parameter. Field '${unknown}' could not be found in request message.`,
          );
        }
        const fields = query(request).fields;
        const mask = fields ? parseMask(fields) : null;
        if (fields && (!mask || !maskKnown(mask, SPREADSHEET_FIELDS))) {
          return sheetsError(reply, 400, "INVALID_ARGUMENT", "Request contains an invalid argument.");
        }
        const { found, failed } = open(reply, id);
        if (!found) return failed;
        const full = {
          spreadsheetId: found.id,
          properties: { title: found.title, locale: "en_US", autoRecalc: "ON_CHANGE", timeZone: "Europe/Berlin" },
          sheets: found.tabs.map((tab, index) => ({
            properties: {
              sheetId: tab.sheetId,
              title: tab.title,
              index,
              sheetType: tab.chart ? "OBJECT" : "GRID",
              ...(!tab.chart && { gridProperties: gridSize(tab) }),
            },
          })),
          spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${found.id}/edit`,
        };
        return mask ? project(full, mask) : full;
      });

      app.get("/v4/spreadsheets/:id/values/:range", { preHandler: guarded }, async (request, reply) => {
        const { id, range } = request.params as { id: string; range: string };
        const fault = answerFault(state.failNext, reply, `/v4/spreadsheets/${id}/values/${range}`);
        if (fault) return fault;
        const unknown = unknownParameter(request, ["majorDimension", "valueRenderOption", "dateTimeRenderOption"]);
        if (unknown) {
          return sheetsError(
            reply,
            400,
            "INVALID_ARGUMENT",
            `Invalid JSON payload received. Unknown name "${unknown}": Cannot bind query parameter. Field '${unknown}' could not be found in request message.`,
          );
        }
        const params = query(request);
        const enums: Array<[string, string, string[]]> = [
          ["majorDimension", "major_dimension", ["DIMENSION_UNSPECIFIED", "ROWS", "COLUMNS"]],
          ["valueRenderOption", "value_render_option", ["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"]],
          ["dateTimeRenderOption", "date_time_render_option", ["SERIAL_NUMBER", "FORMATTED_STRING"]],
        ];
        for (const [name, snake, allowed] of enums) {
          const value = params[name];
          if (value !== undefined && !allowed.includes(value)) {
            return sheetsError(reply, 400, "INVALID_ARGUMENT", `Invalid value at '${snake}', "${value}"`);
          }
        }
        const { found, failed } = open(reply, id);
        if (!found) return failed;
        const bounds = parseRange(range, found.tabs);
        if (!bounds) return sheetsError(reply, 400, "INVALID_ARGUMENT", `Unable to parse range: ${range}`);
        const valueRender = params.valueRenderOption ?? "FORMATTED_VALUE";
        const dateRender = params.dateTimeRenderOption ?? "SERIAL_NUMBER";
        let rows = bounds.tab.cells
          .slice(bounds.top, bounds.bottom + 1)
          .map((row) =>
            row.slice(bounds.left, bounds.right + 1).map((cell) => rendered(cell, valueRender, dateRender)),
          );
        if (params.majorDimension === "COLUMNS") {
          const width = Math.max(0, ...rows.map((row) => row.length));
          rows = Array.from({ length: width }, (_, c) => rows.map((row) => row[c] ?? ""));
        }
        const values = trimmed(rows);
        return {
          range: `${a1Title(bounds.tab.title)}!${column(bounds.left)}${bounds.top + 1}:${column(bounds.right)}${bounds.bottom + 1}`,
          majorDimension: params.majorDimension === "COLUMNS" ? "COLUMNS" : "ROWS",
          ...(values.length > 0 && { values }),
        };
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "sheets",
  after: "google",
  build: (parts) => sheetsFake(parts.google.state as FakeGoogle),
};
