import type { TTable } from "@app/core";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { classifyGoogle } from "../google/classify";
import { googleSettings } from "../google/settings";
import { googleAuthorization, googleOAuthAdapter, missingGoogleConfig } from "../google/shared";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { daysOf, trimmedText as text } from "../kit/inputs";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { searchConsoleDomainMetrics } from "./domain-metrics";
import { logo } from "./logo";

/**
 * Google Search Console (docs/connectors.md): sites from `webmasters/v3/sites`, numbers from
 * `sites/{siteUrl}/searchAnalytics/query`. Required inputs (docs/product.md §5): property (the site),
 * metrics. Position is an average where lower is better; CTR and position are never summed: the
 * totals are Google's own, from the same query without a dimension. Request and answer per
 * https://developers.google.com/webmaster-tools/v1/searchanalytics/query; paging per
 * https://developers.google.com/webmaster-tools/v1/how-tos/all-your-data.
 */

const ZSites = z.object({
  siteEntry: z.array(z.object({ siteUrl: z.string(), permissionLevel: z.string().default("") })).default([]),
});
const ZAnalytics = z.object({
  rows: z
    .array(
      z.object({
        keys: z.array(z.string()).default([]),
        clicks: z.number().default(0),
        impressions: z.number().default(0),
        ctr: z.number().default(0),
        position: z.number().default(0),
      }),
    )
    .default([]),
});
type Row = z.infer<typeof ZAnalytics>["rows"][number];

/** Search Console keeps revising the last 2–3 days ("fresh" data) before they are final. */
export const SEARCH_CONSOLE_SETTLING_DAYS = 3;
/** "Final" data lags about 2–3 days (Google's Search Console help on data freshness): the two days before today are still fresh data. */
export const SEARCH_CONSOLE_LAG_DAYS = 2;
/** Share of a site's per-minute allowance optional queries leave to people viewing dashboards (GA4's reserve). */
const OPTIONAL_RESERVE_SHARE = 0.2;

const METRICS = [
  { key: "clicks", label: "Clicks", format: "number" as const },
  { key: "impressions", label: "Impressions", format: "number" as const },
  { key: "ctr", label: "CTR", format: "percent" as const },
  { key: "position", label: "Average position", format: "number" as const, lowerIsBetter: true },
];
const DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "query", label: "Query" },
  { key: "page", label: "Page" },
  { key: "country", label: "Country" },
  { key: "device", label: "Device" },
];

/** Filters may name any dimension but the date (the range is the date filter). */
const FILTER_DIMENSIONS = [
  { key: "query", label: "Query" },
  { key: "page", label: "Page" },
  { key: "country", label: "Country (three-letter code, e.g. usa)" },
  { key: "device", label: "Device (desktop, mobile, tablet)" },
  { key: "searchAppearance", label: "Search appearance" },
];
/** Google's operators; compared without regard to case, regular expressions in RE2 syntax. */
const FILTER_OPERATORS = [
  { key: "contains", label: "contains" },
  { key: "equals", label: "is" },
  { key: "notContains", label: "does not contain" },
  { key: "notEquals", label: "is not" },
  { key: "includingRegex", label: "matches regular expression" },
  { key: "excludingRegex", label: "does not match regular expression" },
];
const DEVICES = ["desktop", "mobile", "tablet"];

/**
 * Rows per request: Google's most (`rowLimit` ≤ 25,000), so a long tail costs the fewest queries of the
 * per-site quota. Google serves at most 50,000 rows a day per search type and property through the API
 * (https://support.google.com/webmasters/answer/12919192), so paging stops there: two pages at most.
 */
export const SEARCH_CONSOLE_PAGE_ROWS = 25_000;
export const SEARCH_CONSOLE_MAX_ROWS = 50_000;

const WIDGET_TYPE = widgetTypeConfig({
  type: "searchConsole.performance",
  label: "Search performance",
  connector: "searchConsole",
  params: [
    { key: "property", label: "Site", kind: "select", required: true, remote: "properties" },
    dimensionParam(DIMENSIONS),
    metricsParam(METRICS),
    {
      key: "filterDimension",
      label: "Filter by",
      kind: "select",
      required: false,
      options: toOptions(FILTER_DIMENSIONS),
      // Once a filter dimension is chosen, the operator and the value are needed (the form checks it).
      children: [
        {
          key: "filterOperator",
          label: "Filter operator",
          kind: "select",
          required: true,
          default: "contains",
          options: toOptions(FILTER_OPERATORS),
        },
        { key: "filterExpression", label: "Filter value", kind: "text", required: true },
      ],
    },
  ],
});

/**
 * The filter inputs as Google's `dimensionFilterGroups` (one group, one filter), or none. What Google would
 * refuse with a bare 400 is said on the field instead: a regular expression RE2 cannot read (lookarounds,
 * back-references), a country that is not a three-letter code, a device Google does not know.
 */
export function filterGroups(inputs: Readonly<Record<string, unknown>>) {
  const dimension = text(inputs.filterDimension);
  const operator = text(inputs.filterOperator) || "contains";
  const expression = text(inputs.filterExpression);
  if (!dimension && !expression) return undefined;
  if (!FILTER_DIMENSIONS.some((entry) => entry.key === dimension)) {
    throw AppError.validation({
      filterDimension: ["Choose what to filter by: query, page, country, device or search appearance."],
    });
  }
  if (!FILTER_OPERATORS.some((entry) => entry.key === operator)) {
    throw AppError.validation({ filterOperator: ["The selected filter operator is invalid."] });
  }
  const fail = (message: string) => {
    throw AppError.validation({ filterExpression: [message] });
  };
  if (!expression) fail("The filter value is required.");
  if (expression.length > 1000) fail("The filter value may not be longer than 1,000 characters.");
  const exact = operator === "equals" || operator === "notEquals";
  if (operator.endsWith("Regex")) {
    // Google reads RE2, which has no lookarounds or back-references; JavaScript's reader catches the rest.
    if (/\(\?<?[=!]|\\[1-9]/.test(expression))
      fail("RE2 (Google's regular expressions) has no lookarounds or back-references.");
    try {
      new RegExp(expression);
    } catch {
      fail("The filter value is not a valid regular expression.");
    }
  } else if (exact && dimension === "country" && !/^[a-z]{3}$/i.test(expression)) {
    fail("A country is its three-letter code (ISO 3166-1 alpha-3), for example usa or deu.");
  } else if (exact && dimension === "device" && !DEVICES.includes(expression.toLowerCase())) {
    fail("A device is desktop, mobile or tablet.");
  }
  return [{ groupType: "and", filters: [{ dimension, operator, expression }] }];
}

/**
 * The filter inputs in words ("Query does not contain “seo”"), or null when there is none: read by
 * `filterGroups`, the reading that builds Google's request, so the words say what was asked.
 */
export function describeSearchConsoleFilter(inputs: Readonly<Record<string, unknown>>): string | null {
  let groups: ReturnType<typeof filterGroups>;
  try {
    groups = filterGroups(inputs);
  } catch {
    return null;
  }
  const filter = groups?.[0]?.filters[0];
  if (!filter) return null;
  const dimension = FILTER_DIMENSIONS.find((entry) => entry.key === filter.dimension)?.label ?? filter.dimension;
  const operator = FILTER_OPERATORS.find((entry) => entry.key === filter.operator)?.label ?? filter.operator;
  // "Country (three-letter code, e.g. usa)" is the form's hint; the card names the dimension only.
  return `${dimension.replace(/\s*\(.*\)$/, "")} ${operator} “${filter.expression}”`;
}

/** One client per process, so the per-site limit and Google's waits hold across requests. */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "search-console",
    baseUrl: runtime.providers.google.searchConsoleUrl,
    classify: classifyGoogle,
    counters: runtime.counters,
    concurrency: 5,
  }),
);

/**
 * Search Analytics allows 1,200 queries a minute per site and per user. The user is the Google account
 * (its e-mail, stored as the source's account), so two sources of one login share its allowance; a
 * source without a known account counts alone.
 */
export const searchConsoleQuotas = (source: Pick<SourceHandle, "id" | "account">, site: string): QuotaBucket[] => [
  { key: `site:${site}`, max: 1200, windowMs: 60_000, kind: "rate" },
  { key: `user:${source.account || source.id}`, max: 1200, windowMs: 60_000, kind: "rate" },
];

/**
 * An optional query (pre-warm, insights) may ask for a site while its minute's allowance has more than
 * the reserve left (the client's bucket `site:`, shared by every process).
 */
export async function searchConsoleOptionalAllowed(
  counters: RateLimitStore,
  _type: string,
  inputs: Readonly<Record<string, unknown>>,
): Promise<boolean> {
  if (typeof inputs.property !== "string" || inputs.property === "") return true;
  const [bucket] = searchConsoleQuotas({ id: "", account: null }, inputs.property);
  const used = await counters.peek(`provider:search-console:${bucket.key}`);
  return used < bucket.max * (1 - OPTIONAL_RESERVE_SHARE);
}

function value(row: Row | undefined, metric: string): number | null {
  if (!row) return metric === "clicks" || metric === "impressions" ? 0 : null;
  if (metric === "ctr") return row.impressions > 0 ? row.ctr * 100 : null;
  if (metric === "position") return row.impressions > 0 ? row.position : null;
  return metric === "clicks" ? row.clicks : row.impressions;
}

export const searchConsoleConnector: Connector = {
  key: "searchConsole",
  logo,
  settings: googleSettings,
  displayName: "Search Console",
  order: 2,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: googleOAuthAdapter,
  settlingDays: SEARCH_CONSOLE_SETTLING_DAYS,
  lagDays: SEARCH_CONSOLE_LAG_DAYS,
  // Devices add up to the site's totals; queries would page 50,000 rows and leave anonymised ones out.
  insightDimensions: { [WIDGET_TYPE.type]: { date: "date", breakdown: "device" } },
  prewarmAllowed: searchConsoleOptionalAllowed,
  describeFilter: (_type, inputs) => describeSearchConsoleFilter(inputs),
  widgetTypes: [WIDGET_TYPE],
  domainMetrics: searchConsoleDomainMetrics(WIDGET_TYPE.type),
  // Google's own description of the API, pinned in ./discovery (docs/connectors.md), for its tests and the live check.
  description: async () => (await import("./description")).description,
  missingConfig: (providers: ProvidersConfig) => missingGoogleConfig(providers),

  async options(kind, { source }) {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind !== "properties") throw AppError.notFound("Unknown option list.");
    const sites = await client(source.runtime).request({
      path: "/webmasters/v3/sites",
      headers: await googleAuthorization(source),
      schema: ZSites,
      limitKey: `source:${source.id}`,
    });
    return sites.siteEntry
      .filter((site) => site.permissionLevel !== "siteUnverifiedUser")
      .map((site) => ({
        value: site.siteUrl,
        label: site.siteUrl.startsWith("sc-domain:") ? `${site.siteUrl.slice(10)} (domain)` : site.siteUrl,
      }))
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const site = typeof inputs.property === "string" ? inputs.property : "";
    if (!site) throw AppError.validation({ property: ["The property field is required."] });
    const metrics = (Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : []).filter((key) =>
      METRICS.some((metric) => metric.key === key),
    );
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const declared = DIMENSIONS.find((entry) => entry.key === dimension);
    if (dimension && !declared) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const dimensionFilterGroups = filterGroups(inputs);
    const api = client(source.runtime);
    const headers = await googleAuthorization(source);
    const ask = (dimensions: string[], rowLimit: number, startRow = 0) =>
      api.request({
        method: "POST",
        path: `/webmasters/v3/sites/${encodeURIComponent(site)}/searchAnalytics/query`,
        headers,
        json: {
          startDate: range.startDate,
          endDate: range.endDate,
          dimensions,
          rowLimit,
          ...(startRow > 0 ? { startRow } : {}),
          ...(dimensionFilterGroups ? { dimensionFilterGroups } : {}),
          // Fresh data too: the settling window decides how long a result is kept.
          dataState: "all",
        },
        schema: ZAnalytics,
        limitKey: `site:${site}`,
        quotas: searchConsoleQuotas(source, site),
      });
    // Pages of rows (sorted by clicks) until one comes back short, at most SEARCH_CONSOLE_MAX_ROWS.
    const allRows = async (dimensions: string[]): Promise<{ rows: Row[] }> => {
      let rows: Row[] = [];
      for (let startRow = 0; startRow < SEARCH_CONSOLE_MAX_ROWS; startRow += SEARCH_CONSOLE_PAGE_ROWS) {
        const rowLimit = Math.min(SEARCH_CONSOLE_PAGE_ROWS, SEARCH_CONSOLE_MAX_ROWS - startRow);
        const page = await ask(dimensions, rowLimit, startRow);
        rows = rows.concat(page.rows);
        if (page.rows.length < rowLimit) break;
      }
      return { rows };
    };
    const [rows, totals] = await Promise.all([dimension ? allRows([dimension]) : Promise.resolve(null), ask([], 1)]);
    const tableRows: TTable["rows"] = !dimension
      ? []
      : dimension === "date"
        ? daysOf(range.startDate, range.endDate).map((day) => {
            const row = rows?.rows.find((entry) => entry.keys[0] === day);
            return { dimension: day, values: metrics.map((metric) => value(row, metric)) };
          })
        : (rows?.rows ?? []).map((row) => ({
            dimension: row.keys[0] ?? "",
            values: metrics.map((metric) => value(row, metric)),
          }));
    return {
      dimension: declared
        ? { key: declared.key, label: declared.label, kind: declared.key === "date" ? "date" : "string" }
        : null,
      metrics: metrics.map((key) => metricHeader(METRICS.find((entry) => entry.key === key) as MetricDeclaration)),
      rows: tableRows,
      totals: metrics.map((metric) => value(totals.rows[0], metric)),
    };
  },
};
