import type { TTable } from "@app/core";
import { daysBetween, shiftDay } from "@app/core";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { googleAuthorization, missingGoogleConfig } from "../google/shared";
import { classifyGoogle } from "../http/classify";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";

/**
 * Google Search Console (docs/connectors.md): sites from `webmasters/v3/sites`, numbers from
 * `sites/{siteUrl}/searchAnalytics/query`. Required inputs (docs/product.md §5): property (the site),
 * metrics. Position is an average where lower is better; CTR and position are never summed: the
 * totals are Google's own, from the same query without a dimension.
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

const WIDGET_TYPE = widgetTypeConfig({
  type: "searchConsole.performance",
  label: "Search performance",
  connector: "searchConsole",
  params: [
    { key: "property", label: "Site", kind: "select", required: true, remote: "properties" },
    dimensionParam(DIMENSIONS),
    metricsParam(METRICS),
  ],
});

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

/** Search Analytics allows 1,200 queries a minute per site and per user (the source stands for its Google user). */
const quotas = (source: SourceHandle, site: string): QuotaBucket[] => [
  { key: `site:${site}`, max: 1200, windowMs: 60_000, kind: "rate" },
  { key: `user:${source.id}`, max: 1200, windowMs: 60_000, kind: "rate" },
];

function value(row: Row | undefined, metric: string): number | null {
  if (!row) return metric === "clicks" || metric === "impressions" ? 0 : null;
  if (metric === "ctr") return row.impressions > 0 ? row.ctr * 100 : null;
  if (metric === "position") return row.impressions > 0 ? row.position : null;
  return metric === "clicks" ? row.clicks : row.impressions;
}

/** Every day of a range (yyyy-mm-dd): Search Console leaves out days without data; the chart must not. */
const daysOf = (start: string, end: string): string[] =>
  Array.from({ length: daysBetween(start, end) + 1 }, (_, index) => shiftDay(start, index));

export const searchConsoleConnector: Connector = {
  key: "searchConsole",
  displayName: "Search Console",
  order: 2,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: "google",
  settlingDays: SEARCH_CONSOLE_SETTLING_DAYS,
  widgetTypes: [WIDGET_TYPE],
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
    const api = client(source.runtime);
    const headers = await googleAuthorization(source);
    const ask = (dimensions: string[], rowLimit: number) =>
      api.request({
        method: "POST",
        path: `/webmasters/v3/sites/${encodeURIComponent(site)}/searchAnalytics/query`,
        headers,
        json: {
          startDate: range.startDate,
          endDate: range.endDate,
          dimensions,
          rowLimit,
          // Fresh data too: the settling window decides how long a result is kept.
          dataState: "all",
        },
        schema: ZAnalytics,
        limitKey: `site:${site}`,
        quotas: quotas(source, site),
      });
    const [rows, totals] = await Promise.all([
      dimension ? ask([dimension], dimension === "date" ? 1000 : 250) : Promise.resolve(null),
      ask([], 1),
    ]);
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
      metrics: metrics.map((key) => {
        const { lowerIsBetter, ...metric } = METRICS.find((entry) => entry.key === key) as (typeof METRICS)[number];
        return lowerIsBetter ? { ...metric, lowerIsBetter } : metric;
      }),
      rows: tableRows,
      totals: metrics.map((metric) => value(totals.rows[0], metric)),
    };
  },
};
