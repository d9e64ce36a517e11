import type { TOption } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { classifyGoogle } from "../google/classify";
import { googleSettings } from "../google/settings";
import { googleAuthorization, googleOAuthAdapter, missingGoogleConfig } from "../google/shared";
import type { Grid, GridWords, Sheet } from "../grid/sheet";
import { columnOptions, dimensionOptions, followsRange, readGrid, sheetParams, sheetTable } from "../grid/table";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { logo } from "./logo";

/**
 * Google Sheets (docs/connectors.md): spreadsheets listed by the Drive API (`drive/v3/files`, or one
 * found by its pasted address), sheets from `v4/spreadsheets/{id}`, cells from
 * `v4/spreadsheets/{id}/values/{sheet}`. The cells become a grid read exactly as a CSV file is
 * (../grid/): the same inputs (docs/product.md §5: property, sheet, has_header, has_footer, has_labels,
 * uses_date_range, metrics), the same reading of numbers, dates, headers and footers.
 */

const ZFiles = z.object({
  files: z
    .array(z.object({ id: z.string(), name: z.string().default(""), modifiedTime: z.string().optional() }))
    .default([]),
  nextPageToken: z.string().optional(),
});

const ZSpreadsheet = z.object({
  properties: z.object({ title: z.string().default("") }).default({ title: "" }),
  sheets: z
    .array(
      z.object({
        properties: z.object({
          sheetId: z.number().optional(),
          title: z.string(),
          gridProperties: z.object({ rowCount: z.number(), columnCount: z.number() }).partial().optional(),
        }),
      }),
    )
    .default([]),
});

/** Formatted values are text; numbers and booleans are accepted too so no answer is refused for its cell types. */
const ZValues = z.object({
  range: z.string().default(""),
  values: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))).default([]),
});

/**
 * A sheet is never settled: anyone with access may change any row, of any date, at any time. Declared
 * (rather than left out) so results are still stored: served for 15 minutes and then read again, kept
 * for when Google fails or throttles ("Data as of …"), and pre-warmed before a report is sent; never final.
 */
export const SHEETS_SETTLING_DAYS = Number.POSITIVE_INFINITY;

/**
 * The Sheets API allows 60 read requests a minute per user and 300 per project. Google counts the user,
 * not our source: two sources connected with the same Google login share the 60, so the bucket is keyed
 * by the login's e-mail (the source's account), and by the source only when no account was recorded.
 */
const QUOTAS = (source: SourceHandle): QuotaBucket[] => [
  { key: `user:${source.account?.trim().toLowerCase() || source.id}`, max: 60, windowMs: 60_000, kind: "rate" },
  { key: "project", max: 300, windowMs: 60_000, kind: "rate" },
];

/** How messages name the data: rows of a sheet, as the spreadsheet numbers them. */
const SHEET_WORDS: GridWords = { whole: "sheet", line: "Row" };

const SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet";

/** One client per API and process, so the per-user limit and Google's waits hold across requests. */
const clients = perRuntime((runtime: ConnectorRuntime) => {
  const common = { classify: classifyGoogle, counters: runtime.counters, concurrency: 5 };
  return {
    sheets: createProviderClient({ provider: "sheets", baseUrl: runtime.providers.google.sheetsUrl, ...common }),
    drive: createProviderClient({ provider: "drive", baseUrl: runtime.providers.google.driveUrl, ...common }),
  };
});

/**
 * A spreadsheet's id from what the property input holds: the id itself (a picked option), or the
 * address of the open spreadsheet as a browser shows it (`https://docs.google.com/spreadsheets/d/{id}/edit#gid=0`,
 * `…/spreadsheets/u/1/d/{id}/…`). Null for anything else, a published-to-the-web address (`/d/e/…`) included:
 * that one is not the spreadsheet's id.
 */
export function spreadsheetIdOf(value: string): string | null {
  const text = value.trim();
  const address = /^https?:\/\/docs\.google\.com\/spreadsheets\/(?:u\/\d+\/)?d\/([A-Za-z0-9_-]{20,})(?:[/?#]|$)/.exec(
    text,
  );
  if (address) return address[1];
  return /^[A-Za-z0-9_-]{20,}$/.test(text) ? text : null;
}

const NOT_AN_ADDRESS =
  "This is not a spreadsheet's address: open the spreadsheet and copy the address from the browser (https://docs.google.com/spreadsheets/d/…).";

/** The spreadsheet the form names, as its id; a 422 on `property` when it names none. */
function requireSpreadsheet(form: Readonly<Record<string, unknown>>): string {
  const value = typeof form.property === "string" ? form.property.trim() : "";
  if (!value) throw AppError.validation({ property: ["The property field is required."] });
  const id = spreadsheetIdOf(value);
  if (!id) throw AppError.validation({ property: [NOT_AN_ADDRESS] });
  return id;
}

/**
 * Google's answers about one spreadsheet in the form's words: 404 (no such spreadsheet) and 403 (one
 * this login may not open) are the property's fault, not the source's: another spreadsheet still works.
 */
async function aboutSpreadsheet<T>(source: SourceHandle, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "input" && [403, 404].includes(error.httpStatus ?? 0)) {
      const login = source.account ? ` (${source.account})` : "";
      throw AppError.validation({
        property: [`The spreadsheet was not found or is not shared with this Google account${login}.`],
      });
    }
    throw error;
  }
}

async function spreadsheet(source: SourceHandle, id: string, fields: string) {
  const headers = await googleAuthorization(source);
  return aboutSpreadsheet(source, () =>
    clients(source.runtime).sheets.request({
      path: `/v4/spreadsheets/${encodeURIComponent(id)}`,
      query: { fields },
      headers,
      schema: ZSpreadsheet,
      limitKey: `source:${source.id}`,
      quotas: QUOTAS(source),
    }),
  );
}

/** One spreadsheet as an option, titled by Google (a pasted address, a value not among the listed ones). */
async function spreadsheetOption(source: SourceHandle, id: string): Promise<TOption> {
  const answer = await spreadsheet(source, id, "properties.title");
  return { value: id, label: answer.properties.title || id };
}

/** Drive's query syntax: a string literal in single quotes, with `\` and `'` escaped. */
const driveLiteral = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The 100 most recently changed spreadsheets the login can see, narrowed by name while the user types. */
async function listSpreadsheets(source: SourceHandle, search: string): Promise<TOption[]> {
  const conditions = [`mimeType=${driveLiteral(SPREADSHEET_MIME)}`, "trashed=false"];
  if (search) conditions.push(`name contains ${driveLiteral(search)}`);
  const answer = await clients(source.runtime).drive.request({
    path: "/drive/v3/files",
    query: {
      q: conditions.join(" and "),
      fields: "files(id,name,modifiedTime),nextPageToken",
      orderBy: "modifiedTime desc",
      pageSize: 100,
    },
    headers: await googleAuthorization(source),
    schema: ZFiles,
    limitKey: `source:${source.id}`,
  });
  return answer.files.map((file) => ({ value: file.id, label: file.name || file.id }));
}

/**
 * The spreadsheet picker (kind 'remote': the form sends what is typed as `searchTerm` and the current
 * value as `include`). A pasted address or id answers that one spreadsheet, found through the Sheets
 * API (so it works for spreadsheets Drive does not list, shared drives included); other text searches
 * names. The current value is kept in the list even when it is not among the 100 listed.
 */
async function spreadsheetOptions(source: SourceHandle, form: Readonly<Record<string, unknown>>) {
  const search = typeof form.searchTerm === "string" ? form.searchTerm.trim() : "";
  const pasted = search ? spreadsheetIdOf(search) : null;
  if (pasted) {
    if (/^https?:/i.test(search)) return [await spreadsheetOption(source, pasted)];
    // A bare word that merely looks like an id is searched as a name when no spreadsheet has that id.
    const found = await spreadsheetOption(source, pasted).catch((error) => {
      if (error instanceof AppError && error.code === "validation") return null;
      throw error;
    });
    if (found) return [found];
  } else if (/^https?:/i.test(search)) {
    throw AppError.validation({ property: [NOT_AN_ADDRESS] });
  }
  const listed = await listSpreadsheets(source, search);
  const current = typeof form.include === "string" ? spreadsheetIdOf(form.include) : null;
  if (!current || search || listed.some((option) => option.value === current)) return listed;
  const kept = await spreadsheetOption(source, current).catch((error) => {
    if (error instanceof AppError) return { value: current, label: current };
    throw error;
  });
  return [kept, ...listed];
}

/** The first row number of a values answer's range ("'My sheet'!A3:F20" → 3); 1 when it says none. */
function firstRow(range: string): number {
  const cells = range.slice(range.lastIndexOf("!") + 1);
  const row = /^\$?[A-Za-z]*\$?(\d+)/.exec(cells)?.[1];
  return row ? Number(row) : 1;
}

/**
 * A sheet's values as a grid: cells as text, rows numbered as the sheet numbers them, and rows
 * without any text left out, as a CSV's blank lines are. Google leaves out trailing empty cells, so
 * rows may be ragged; the grid reading pads them.
 */
export function gridOfValues(answer: z.infer<typeof ZValues>): Grid {
  const start = firstRow(answer.range);
  const grid: Grid = { rows: [], lines: [] };
  answer.values.forEach((row, index) => {
    const cells = row.map((cell) => (cell === null ? "" : String(cell)));
    if (cells.every((cell) => cell.trim() === "")) return;
    grid.rows.push(cells);
    grid.lines.push(start + index);
  });
  return grid;
}

/** A1 notation for a whole sheet: its title in single quotes, quotes inside doubled ('Q1 ''24'). */
const wholeSheet = (title: string) => `'${title.replace(/'/g, "''")}'`;

/**
 * Cells read for the type form's option lists, kept for half a minute per source and sheet: choosing
 * metrics after the dimension, or answering the four questions, must not spend the user's 60 reads a
 * minute. Widget data is always read afresh.
 */
const formGrids = perRuntime(() => new LRUCache<string, Grid>({ max: 200, ttl: 30_000 }));

/**
 * The chosen sheet's cells. Values are asked for as the sheet shows them (FORMATTED_VALUE), as File →
 * Download → CSV writes them: '45%', '$1,000.50', '0:02:34' keep the format a CSV column would have,
 * where unformatted values would be 0.45, 1000.5 and 0.00178 (a day's fraction).
 */
async function loadGrid(source: SourceHandle, form: Readonly<Record<string, unknown>>, cached: boolean) {
  const id = requireSpreadsheet(form);
  const title = typeof form.sheet === "string" ? form.sheet : "";
  if (!title) throw AppError.validation({ sheet: ["The sheet field is required."] });
  const key = `${source.id}\n${id}\n${title}`;
  const kept = cached ? formGrids(source.runtime).get(key) : undefined;
  if (kept) return kept;
  const headers = await googleAuthorization(source);
  const answer = await aboutSpreadsheet(source, () =>
    clients(source.runtime).sheets.request({
      path: `/v4/spreadsheets/${encodeURIComponent(id)}/values/${encodeURIComponent(wholeSheet(title))}`,
      query: { majorDimension: "ROWS", valueRenderOption: "FORMATTED_VALUE" },
      headers,
      schema: ZValues,
      limitKey: `source:${source.id}`,
      quotas: QUOTAS(source),
    }),
  ).catch((error) => {
    // A sheet renamed or deleted since it was chosen: Google cannot read its title as a range.
    if (error instanceof ProviderError && error.kind === "input" && /Unable to parse range/i.test(error.reason)) {
      throw AppError.validation({
        sheet: [`The sheet '${title}' was not found in this spreadsheet. Choose the sheet again.`],
      });
    }
    throw error;
  });
  const grid = gridOfValues(answer);
  formGrids(source.runtime).set(key, grid);
  return grid;
}

async function loadSheet(source: SourceHandle, form: Readonly<Record<string, unknown>>, cached: boolean) {
  const grid = await loadGrid(source, form, cached);
  return readGrid(grid, form, SHEET_WORDS) satisfies Sheet;
}

const WIDGET_TYPE = widgetTypeConfig({
  type: "googleSheets.sheet",
  label: "Spreadsheet",
  connector: "googleSheets",
  // 'remote': the picker searches as the user types, and a pasted address finds its spreadsheet.
  params: sheetParams({
    key: "property",
    label: "Spreadsheet (choose one, or paste its address)",
    kind: "remote",
    required: true,
    remote: "properties",
  }),
  mergeWithoutDimension: true,
});

export const googleSheetsConnector: Connector = {
  key: "googleSheets",
  logo,
  settings: googleSettings,
  displayName: "Google Sheets",
  order: 8,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: googleOAuthAdapter,
  settlingDays: SHEETS_SETTLING_DAYS,
  widgetTypes: [WIDGET_TYPE],
  // Google's own description of the API, pinned in ./discovery (docs/connectors.md), for its tests and the live check.
  description: async () => (await import("./description")).description,
  missingConfig: (providers: ProvidersConfig) => missingGoogleConfig(providers),
  followsRange,

  async options(kind, { source, form }) {
    if (kind === "properties") return spreadsheetOptions(source, form);
    if (kind === "sheets") {
      const answer = await spreadsheet(
        source,
        requireSpreadsheet(form),
        "properties.title,sheets.properties(sheetId,title,gridProperties)",
      );
      // A chart on its own sheet has no grid (and no gridProperties): nothing to read there.
      return answer.sheets
        .filter((sheet) => sheet.properties.gridProperties)
        .map((sheet) => ({ value: sheet.properties.title, label: sheet.properties.title }));
    }
    if (kind === "columns") return columnOptions(await loadSheet(source, form, true));
    if (kind === "dimensions") return dimensionOptions(await loadSheet(source, form, true));
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }) {
    return sheetTable(await loadSheet(source, inputs, false), inputs, range);
  },
};
