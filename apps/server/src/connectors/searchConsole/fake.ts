import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeDomainDay, FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault } from "../../../test/fakes/kit";
import type { FakeGoogle } from "../google/fake";

/**
 * Google Search Console as a part of the fakes app (./app.ts), answering in the shapes of:
 * - https://developers.google.com/webmaster-tools/v1/sites/list (`{siteEntry[{siteUrl, permissionLevel}]}`),
 * - https://developers.google.com/webmaster-tools/v1/searchanalytics/query: the body's startDate/endDate
 *   (YYYY-MM-DD), dimensions (date, query, page, country, device, searchAppearance), type, aggregationType,
 *   dataState, rowLimit (1–25,000, default 1,000), startRow (≥ 0) and dimensionFilterGroups
 *   (`{groupType: and, filters[{dimension, operator, expression}]}`, operators contains, equals,
 *   notContains, notEquals, includingRegex, excludingRegex); rows `{keys[], clicks, impressions, ctr,
 *   position}` sorted by clicks, descending (dates ascending), days without data left out,
 * - https://developers.google.com/webmaster-tools/v1/how-tos/all-your-data (paging with startRow),
 * - https://support.google.com/webmasters/answer/12919192 (at most 50,000 rows a day per search type),
 * - https://developers.google.com/webmaster-tools/limits (1,200 queries a minute per site and per user),
 * - errors as google.rpc.Status (`{error: {code, message, status}}`): a body Google cannot accept is a
 *   400 INVALID_ARGUMENT, a site the login cannot read a 403 PERMISSION_DENIED.
 * Filters compare without regard to case, as the reference says ("values and dimension names are not
 * case-sensitive"). Bearer tokens are Google's (`google.authorized`).
 */
export interface FakeSearchConsole {
  /** Scripted faults; `pathIncludes` is matched against the decoded path (`https://acme.com/` as such). */
  failNext: FakeFault[];
  /** Sites whose queries answer 503 until removed (an outage a test may keep up through the retries). */
  down: Set<string>;
}

export const FAKE_SITES = [
  { siteUrl: "https://acme.com/", permissionLevel: "siteOwner" },
  { siteUrl: "sc-domain:acme.com", permissionLevel: "siteFullUser" },
  { siteUrl: "https://unverified.example/", permissionLevel: "siteUnverifiedUser" },
  /** More queries than one page of rows holds (LONG_TAIL_QUERIES), so paging is real. */
  { siteUrl: "https://longtail.example/", permissionLevel: "siteOwner" },
  /** Sites a test may throttle, exhaust or take down alone (the hold is per site). */
  { siteUrl: "https://throttled.example/", permissionLevel: "siteFullUser" },
  { siteUrl: "https://exhausted.example/", permissionLevel: "siteFullUser" },
  { siteUrl: "https://outage.example/", permissionLevel: "siteFullUser" },
];

export const FAKE_QUERIES = ["agency reporting", "marketing dashboard", "seo report"];
/** The page each query leads to: the first two the home page, the third a blog post. */
export const FAKE_PAGES = ["https://acme.com/", "https://acme.com/", "https://acme.com/blog/seo-report"];
/** Countries (ISO 3166-1 alpha-3, lower case as Google writes them) and devices, with their shares of a cell. */
export const FAKE_COUNTRIES = [
  { key: "usa", share: 0.5 },
  { key: "deu", share: 0.3 },
  { key: "gbr", share: 0.2 },
];
export const FAKE_DEVICES = [
  { key: "MOBILE", share: 0.6 },
  { key: "DESKTOP", share: 0.3 },
  { key: "TABLET", share: 0.1 },
];
/** The second query's results show as videos; the others have no special appearance. */
const APPEARANCE = ["", "VIDEO", ""];
/** The long-tail site's number of queries: one more page than 25,000 rows, and a few. */
export const LONG_TAIL_QUERIES = 25_040;

/** Clicks and impressions of one query on one day; every third day has no data at all (Search Console omits it). */
export function fakeSearch(
  day: string,
  query: number,
): { clicks: number; impressions: number; position: number } | null {
  const n = Number(day.slice(8));
  if (n % 3 === 0) return null;
  return { clicks: 10 * (query + 1) + n, impressions: 200 * (query + 1) + 10 * n, position: 3 + query * 2 + (n % 2) };
}

/**
 * The fake's day of the whole site by date, as Search Console sums its three queries (null: Google has
 * no row that day): clicks, impressions, CTR in percent and the impression-weighted position.
 */
export function fakeSiteDay(day: string) {
  const cells = [0, 1, 2].map((query) => fakeSearch(day, query)).filter((cell) => cell !== null);
  if (cells.length === 0) return null;
  const clicks = cells.reduce((sum, cell) => sum + cell.clicks, 0);
  const impressions = cells.reduce((sum, cell) => sum + cell.impressions, 0);
  const position = cells.reduce((sum, cell) => sum + cell.position * cell.impressions, 0) / impressions;
  return { clicks, impressions, ctr: (clicks / impressions) * 100, averagePosition: position };
}

/** An integer split by shares whose parts add up to the whole (the last part takes the remainder). */
function split(total: number, shares: readonly { share: number }[]): number[] {
  const parts = shares.map((entry) => Math.floor(total * entry.share));
  parts[parts.length - 1] = total - parts.slice(0, -1).reduce((sum, part) => sum + part, 0);
  return parts;
}

/** The finest grain the fake knows: one query on one day from one country on one device. */
interface Cell {
  date: string;
  query: string;
  page: string;
  country: string;
  device: string;
  searchAppearance: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** One query of one site on one day, split by country, then device: every grouping adds up to fakeSearch. */
export function fakeSearchCells(day: string, query: number): Cell[] {
  const value = fakeSearch(day, query);
  if (!value) return [];
  const clicks = split(value.clicks, FAKE_COUNTRIES);
  const impressions = split(value.impressions, FAKE_COUNTRIES);
  return FAKE_COUNTRIES.flatMap((country, c) => {
    const byDeviceClicks = split(clicks[c] ?? 0, FAKE_DEVICES);
    const byDeviceImpressions = split(impressions[c] ?? 0, FAKE_DEVICES);
    return FAKE_DEVICES.map((device, d) => ({
      date: day,
      query: FAKE_QUERIES[query] ?? "",
      page: FAKE_PAGES[query] ?? "",
      country: country.key,
      device: device.key,
      searchAppearance: APPEARANCE[query] ?? "",
      clicks: byDeviceClicks[d] ?? 0,
      impressions: byDeviceImpressions[d] ?? 0,
      position: value.position,
    }));
  });
}

/** The long-tail site: query i has 100,000 − i clicks over the whole range (so Google's order is i's order). */
export const longTailQuery = (index: number) => `long tail query ${String(index).padStart(5, "0")}`;
function longTailCells(start: string): Cell[] {
  return Array.from({ length: LONG_TAIL_QUERIES }, (_, index) => ({
    date: start,
    query: longTailQuery(index),
    page: "https://longtail.example/",
    country: "usa",
    device: "DESKTOP",
    searchAppearance: "",
    clicks: 100_000 - index,
    impressions: 2 * (100_000 - index),
    position: 1 + (index % 50),
  }));
}

const DIMENSIONS = ["date", "query", "page", "country", "device", "searchAppearance"] as const;
type Dimension = (typeof DIMENSIONS)[number];
const OPERATORS = ["contains", "equals", "notContains", "notEquals", "includingRegex", "excludingRegex"];
const TYPES = ["web", "image", "video", "news", "discover", "googleNews"];
const DATA_STATES = ["final", "all", "hourly_all"];
const AGGREGATIONS = ["auto", "byPage", "byProperty", "byNewsShowcasePanel"];
const BODY_FIELDS = new Set([
  "startDate",
  "endDate",
  "dimensions",
  "type",
  "searchType",
  "dimensionFilterGroups",
  "aggregationType",
  "rowLimit",
  "startRow",
  "dataState",
]);

interface Filter {
  dimension: Dimension;
  operator: string;
  expression: string;
}
interface Query {
  startDate: string;
  endDate: string;
  dimensions: Dimension[];
  filters: Filter[];
  rowLimit: number;
  startRow: number;
}

/** Google's names are case-insensitive ("QUERY", "query"): the canonical spelling, or null when unknown. */
const known = <T extends string>(list: readonly T[], name: unknown): T | null =>
  typeof name === "string" ? (list.find((entry) => entry.toLowerCase() === name.toLowerCase()) ?? null) : null;

const isDay = (text: unknown): text is string =>
  typeof text === "string" &&
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;

/** The request body as Google reads it, or the message of its 400. */
export function parseQuery(raw: unknown): Query | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "Invalid JSON payload received.";
  const body = raw as Record<string, unknown>;
  const unknown = Object.keys(body).find((key) => !BODY_FIELDS.has(key));
  if (unknown) return `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`;
  if (!isDay(body.startDate)) return "startDate is required and must be in YYYY-MM-DD format.";
  if (!isDay(body.endDate)) return "endDate is required and must be in YYYY-MM-DD format.";
  if (body.startDate > body.endDate) return "startDate must be earlier than or equal to endDate.";
  const dimensions: Dimension[] = [];
  if (body.dimensions !== undefined) {
    if (!Array.isArray(body.dimensions)) return "dimensions must be a list.";
    for (const name of body.dimensions) {
      const dimension = known(DIMENSIONS, name);
      if (!dimension) return `Invalid value at 'dimensions': "${String(name)}".`;
      if (dimensions.includes(dimension)) return `Dimension ${dimension} is given twice.`;
      dimensions.push(dimension);
    }
  }
  const type = body.type ?? body.searchType;
  if (type !== undefined && !known(TYPES, type)) return `Invalid value at 'type': "${String(type)}".`;
  if (body.dataState !== undefined && !known(DATA_STATES, body.dataState)) {
    return `Invalid value at 'data_state': "${String(body.dataState)}".`;
  }
  if (body.aggregationType !== undefined && !known(AGGREGATIONS, body.aggregationType)) {
    return `Invalid value at 'aggregation_type': "${String(body.aggregationType)}".`;
  }
  const rowLimit = body.rowLimit ?? 1000;
  if (!Number.isInteger(rowLimit) || (rowLimit as number) < 1 || (rowLimit as number) > 25_000) {
    return "rowLimit must be between 1 and 25000.";
  }
  const startRow = body.startRow ?? 0;
  if (!Number.isInteger(startRow) || (startRow as number) < 0) return "startRow must be non-negative.";
  const filters: Filter[] = [];
  if (body.dimensionFilterGroups !== undefined) {
    if (!Array.isArray(body.dimensionFilterGroups)) return "dimensionFilterGroups must be a list.";
    for (const group of body.dimensionFilterGroups as unknown[]) {
      const entry = (group ?? {}) as Record<string, unknown>;
      if (entry.groupType !== undefined && String(entry.groupType).toLowerCase() !== "and") {
        return `Invalid value at 'dimension_filter_groups.group_type': "${String(entry.groupType)}".`;
      }
      if (!Array.isArray(entry.filters)) return "dimensionFilterGroups[].filters must be a list.";
      for (const item of entry.filters as unknown[]) {
        const filter = (item ?? {}) as Record<string, unknown>;
        const dimension = known(DIMENSIONS, filter.dimension);
        if (!dimension || dimension === "date") {
          return `Invalid value at 'dimension_filter_groups.filters.dimension': "${String(filter.dimension)}".`;
        }
        const operator = filter.operator === undefined ? "equals" : known(OPERATORS, filter.operator);
        if (!operator) {
          return `Invalid value at 'dimension_filter_groups.filters.operator': "${String(filter.operator)}".`;
        }
        if (typeof filter.expression !== "string" || filter.expression === "") {
          return "A filter's expression is required.";
        }
        if (operator.endsWith("Regex")) {
          try {
            new RegExp(filter.expression);
          } catch {
            return `Invalid regular expression: ${filter.expression}`;
          }
        }
        filters.push({ dimension, operator, expression: filter.expression });
      }
    }
  }
  return {
    startDate: body.startDate,
    endDate: body.endDate,
    dimensions,
    filters,
    rowLimit: rowLimit as number,
    startRow: startRow as number,
  };
}

function matches(cell: Cell, filter: Filter): boolean {
  const value = cell[filter.dimension].toLowerCase();
  const expression = filter.expression.toLowerCase();
  switch (filter.operator) {
    case "contains":
      return value.includes(expression);
    case "notContains":
      return !value.includes(expression);
    case "equals":
      return value === expression;
    case "notEquals":
      return value !== expression;
    case "includingRegex":
      return new RegExp(filter.expression, "i").test(cell[filter.dimension]);
    default:
      return !new RegExp(filter.expression, "i").test(cell[filter.dimension]);
  }
}

function daysOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += 86_400_000) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

/** The rows of one query: cells of the range, filtered, grouped by the dimensions, sorted, one page of them. */
export function searchAnalytics(site: string, query: Query) {
  const cells =
    site === "https://longtail.example/"
      ? longTailCells(query.startDate)
      : daysOf(query.startDate, query.endDate).flatMap((day) =>
          FAKE_QUERIES.flatMap((_, index) => fakeSearchCells(day, index)),
        );
  const groups = new Map<string, { keys: string[]; cells: Cell[] }>();
  for (const cell of cells) {
    if (!query.filters.every((filter) => matches(cell, filter))) continue;
    // Impressions without a special appearance have no row when grouped by appearance.
    if (query.dimensions.includes("searchAppearance") && cell.searchAppearance === "") continue;
    const keys = query.dimensions.map((dimension) => cell[dimension]);
    const id = JSON.stringify(keys);
    const group = groups.get(id) ?? { keys, cells: [] };
    group.cells.push(cell);
    groups.set(id, group);
  }
  const rows = [...groups.values()]
    .map(({ keys, cells: grouped }) => {
      const clicks = grouped.reduce((sum, cell) => sum + cell.clicks, 0);
      const impressions = grouped.reduce((sum, cell) => sum + cell.impressions, 0);
      const position = grouped.reduce((sum, cell) => sum + cell.position * cell.impressions, 0) / impressions;
      return { keys, clicks, impressions, ctr: clicks / impressions, position };
    })
    .filter((row) => row.impressions > 0)
    .sort((a, b) =>
      query.dimensions[0] === "date"
        ? (a.keys[0] ?? "").localeCompare(b.keys[0] ?? "")
        : b.clicks - a.clicks || a.keys.join().localeCompare(b.keys.join()),
    )
    .slice(query.startRow, query.startRow + query.rowLimit);
  // Google leaves `rows` out when there are none.
  return {
    ...(rows.length > 0 ? { rows } : {}),
    responseAggregationType: query.dimensions.includes("page") ? "byPage" : "byProperty",
  };
}

/**
 * The Search Console part: `searchConsoleFake(google.state)`, so bearer tokens are the ones the Google
 * part hands out.
 */
export function searchConsoleFake(google: FakeGoogle): FakePart<FakeSearchConsole> {
  const state: FakeSearchConsole = { failNext: [], down: new Set() };
  const googleError = (reply: FastifyReply, code: number, status: string, message: string) =>
    reply.code(code).send({ error: { code, message, status } });
  const guarded = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!google.authorized(request.headers.authorization)) {
      return googleError(reply, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
    }
  };
  return {
    state,
    env: (origin) => ({ SEARCH_CONSOLE_API_URL: origin }),
    register(app) {
      app.get("/webmasters/v3/sites", { preHandler: guarded }, async () => ({ siteEntry: FAKE_SITES }));
      app.post("/webmasters/v3/sites/:site/searchAnalytics/query", { preHandler: guarded }, async (request, reply) => {
        const site = (request.params as { site: string }).site;
        const fault = answerFault(state.failNext, reply, decodeURIComponent(request.url));
        if (fault) return fault;
        if (state.down.has(site))
          return googleError(reply, 503, "UNAVAILABLE", "The service is currently unavailable.");
        if (!FAKE_SITES.some((entry) => entry.siteUrl === site && entry.permissionLevel !== "siteUnverifiedUser")) {
          return googleError(
            reply,
            403,
            "PERMISSION_DENIED",
            `User does not have sufficient permission for site '${site}'. See also: https://support.google.com/webmasters/answer/2451999.`,
          );
        }
        const query = parseQuery(request.body ?? {});
        if (typeof query === "string") return googleError(reply, 400, "INVALID_ARGUMENT", query);
        return searchAnalytics(site, query);
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "searchConsole",
  after: "google",
  build: (parts) => searchConsoleFake(parts.google.state as FakeGoogle),
};

/** Mission Control's day of a domain at this fake: acme.com's site (its clicks and position), no other. */
export const fakeDomainDay: FakeDomainDay = (domain, day) => {
  const site = domain === "acme.com" ? fakeSiteDay(day) : null;
  return site && { clicks: site.clicks, averagePosition: site.averagePosition };
};
