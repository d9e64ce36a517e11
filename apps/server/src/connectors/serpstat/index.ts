import type { TOption, TTable } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { createProviderClient } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { domainOf } from "../kit/domain";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { classifySerpstat, isDataNotFound } from "./classify";
import { logo } from "./logo";
import { serpstatSettings } from "./settings";

/**
 * Serpstat (docs/connectors.md): API v4, JSON-RPC 2.0 over `POST /v4/?token=…` with
 * `{id, method, params}`. Domain history from `SerpstatDomainProcedure.getDomainsHistory`, the
 * domain's keywords from `…getDomainKeywords`, the search-engine picker from
 * `SerpstatDatabaseProcedure.getDatabaseInfo` (free), the login check from
 * `SerpstatLimitsProcedure.getStats` (free). Every answer tells the credits left
 * (`summary_info.left_lines`); when few are left the widget says so and the server logs it.
 */

const PROVIDER = "serpstat";

interface SerpstatMetric extends MetricDeclaration {
  /** The answer's field. */
  field: string;
  currency?: string;
  total?: "sum";
}

const DOMAIN_METRICS: SerpstatMetric[] = [
  { key: "visibility", field: "visible", label: "Visibility", format: "number" },
  { key: "keywords", field: "keywords", label: "Organic keywords", format: "number" },
  { key: "traffic", field: "traff", label: "Organic traffic", format: "number" },
  { key: "newKeywords", field: "new_keywords", label: "New keywords", format: "number" },
  { key: "lostKeywords", field: "out_keywords", label: "Lost keywords", format: "number", lowerIsBetter: true },
];

const KEYWORD_METRICS: SerpstatMetric[] = [
  { key: "position", field: "position", label: "Position", format: "number", lowerIsBetter: true },
  { key: "searchVolume", field: "region_queries_count", label: "Search volume", format: "number", total: "sum" },
  // Serpstat gives CPC in US dollars for every search engine.
  { key: "cpc", field: "cost", label: "CPC", format: "money", currency: "USD", lowerIsBetter: true },
  { key: "traffic", field: "traff", label: "Traffic", format: "number", total: "sum" },
];

/** Credits left below which every widget of the source says so (about a day of a small agency's refreshes). */
export const SERPSTAT_LOW_CREDITS = 1000;
/** Keywords asked per widget (a credit a line). */
const KEYWORD_LINES = 50;
/** History points asked at most (Serpstat keeps one about every two weeks). */
const MAX_HISTORY_LINES = 500;

/**
 * Serpstat recounts a domain about every two weeks; a point is final once the next is taken. Three
 * weeks after a range ends its result is kept for good.
 */
export const SERPSTAT_SETTLING_DAYS = 21;

const searchEngine = {
  key: "se",
  label: "Search engine",
  kind: "select" as const,
  required: true,
  remote: "searchEngines",
};
const domain = {
  key: "domain",
  label: "Domain (default: the source's account)",
  kind: "text" as const,
  required: false,
};

function widgetType(key: string, label: string, dimension: { key: string; label: string }, metrics: SerpstatMetric[]) {
  return widgetTypeConfig({
    type: `serpstat.${key}`,
    label,
    connector: "serpstat",
    params: [searchEngine, domain, dimensionParam([dimension]), metricsParam(metrics)],
  });
}

const DOMAIN_TYPE = widgetType("domain", "Domain history", { key: "date", label: "Date" }, DOMAIN_METRICS);
const KEYWORDS_TYPE = widgetType("keywords", "Domain keywords", { key: "keyword", label: "Keyword" }, KEYWORD_METRICS);
const metricsOf = (type: string) => (type === KEYWORDS_TYPE.type ? KEYWORD_METRICS : DOMAIN_METRICS);

const ZSummary = z.object({ left_lines: z.coerce.number().optional() }).partial().default({});
const ZRows = z.object({
  result: z.object({
    data: z.array(z.record(z.string(), z.unknown())).default([]),
    summary_info: ZSummary,
  }),
});
const ZStats = z.object({
  result: z.object({
    left_lines: z.coerce.number().optional(),
    user_info: z.object({ login: z.string().optional() }).partial().optional(),
  }),
});
const ZDatabases = z.object({
  result: z.array(
    z.object({ db_name: z.string(), country_name: z.string().default(""), domain_name: z.string().optional() }),
  ),
});

/** One client per process; requests of a source go one at a time (the lowest plan allows one a second). */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: PROVIDER,
    baseUrl: runtime.providers.serpstat.apiUrl,
    classify: classifySerpstat,
    counters: runtime.counters,
    concurrency: 1,
  }),
);
/** The login check: one attempt, a short wait. */
const checker = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: PROVIDER,
    baseUrl: runtime.providers.serpstat.apiUrl,
    classify: classifySerpstat,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
);

/** A JSON-RPC request; the id only pairs an answer with its request, so a counter per process is enough. */
let nextId = 0;
function rpc(method: string, params: Record<string, unknown>) {
  nextId += 1;
  return { id: String(nextId), method, params };
}

function call<T>(source: SourceHandle, method: string, params: Record<string, unknown>, schema: z.ZodType<T>) {
  return client(source.runtime).request({
    method: "POST",
    path: "/v4/",
    query: { token: source.credentials.token ?? "" },
    json: rpc(method, params),
    schema,
    limitKey: `source:${source.id}`,
  });
}

const numberOf = (value: unknown): number | null => {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : null;
};

/**
 * Credits left, as the answer told them: logged and, when low, a notice on the widget ("Data as of …
 * — Serpstat has N API credits left"). The product has no per-source status to put them in.
 */
function creditsNotice(source: SourceHandle, left: number | undefined): TTable["notice"] {
  if (left === undefined || left >= SERPSTAT_LOW_CREDITS) return undefined;
  source.runtime.logger?.warn({ sourceId: source.id, leftLines: left }, "Serpstat credits running low");
  return { asOf: new Date().toISOString(), message: `Serpstat has ${left} API credits left` };
}

export const serpstatConnector: Connector = {
  key: "serpstat",
  logo,
  settings: serpstatSettings,
  displayName: "SerpStat",
  order: 13,
  authKind: "account+token",
  available: true,
  note: null,
  settlingDays: SERPSTAT_SETTLING_DAYS,
  widgetTypes: [DOMAIN_TYPE, KEYWORDS_TYPE],

  async verify({ credentials, runtime }) {
    // Free: tells the credits left and the login, and refuses a wrong token.
    const stats = await checker(runtime).request({
      method: "POST",
      path: "/v4/",
      query: { token: credentials.token ?? "" },
      json: rpc("SerpstatLimitsProcedure.getStats", {}),
      schema: ZStats,
      limitKey: "verify",
    });
    if (stats.result.left_lines !== undefined && stats.result.left_lines < SERPSTAT_LOW_CREDITS) {
      runtime.logger?.warn({ leftLines: stats.result.left_lines }, "Serpstat credits running low");
    }
    return undefined;
  },

  async options(kind, { source, form }) {
    const type = typeof form.type === "string" ? form.type : DOMAIN_TYPE.type;
    if (kind === "metrics") return toOptions(metricsOf(type));
    if (kind === "dimensions") {
      return type === KEYWORDS_TYPE.type
        ? [{ value: "keyword", label: "Keyword" }]
        : [{ value: "date", label: "Date" }];
    }
    if (kind !== "searchEngines") throw AppError.notFound("Unknown option list.");
    const answer = await call(source, "SerpstatDatabaseProcedure.getDatabaseInfo", {}, ZDatabases);
    return answer.result
      .map(
        (entry): TOption => ({
          value: entry.db_name,
          label: entry.domain_name
            ? `${entry.country_name} (${entry.domain_name})`
            : entry.country_name || entry.db_name,
        }),
      )
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    const se = typeof inputs.se === "string" ? inputs.se : "";
    if (!/^[a-z]{1,3}_[a-z]{2,3}$/.test(se))
      throw AppError.validation({ se: ["The search engine field is required."] });
    const offered = metricsOf(type);
    const metrics = (Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [])
      .map((key) => offered.find((metric) => metric.key === key))
      .filter((metric): metric is SerpstatMetric => metric !== undefined);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const target = domainOf(inputs, source);

    if (type === KEYWORDS_TYPE.type) {
      if (dimension && dimension !== "keyword") {
        throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
      }
      const answer = await domainRows(source, "SerpstatDomainProcedure.getDomainKeywords", {
        domain: target,
        se,
        page: 1,
        size: KEYWORD_LINES,
        sort: { traff: "desc" },
      });
      const rows = answer.result.data;
      const values = rows.map((row) => metrics.map((metric) => numberOf(row[metric.field])));
      const notice = creditsNotice(source, answer.result.summary_info.left_lines);
      const emptyReason = answer.empty ? notFoundReason(target, se) : undefined;
      return {
        dimension: dimension ? { key: "keyword", label: "Keyword", kind: "string" } : null,
        metrics: metrics.map((metric) => metricHeader(metric)),
        rows: dimension
          ? rows.map((row, index) => ({ dimension: String(row.keyword ?? ""), values: values[index] }))
          : [],
        totals: metrics.map((metric, m) =>
          metric.total === "sum" && !emptyReason ? values.reduce((sum, row) => sum + (row[m] ?? 0), 0) : null,
        ),
        ...(notice ? { notice } : {}),
        ...(emptyReason ? { emptyReason } : {}),
      };
    }

    if (dimension && dimension !== "date")
      throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    // Newest first, only as far back as the point before the range (about one every two weeks).
    const today = new Date().toISOString().slice(0, 10);
    const days = Math.max(0, (Date.parse(today) - Date.parse(range.startDate)) / 86_400_000);
    const size = Math.min(MAX_HISTORY_LINES, Math.ceil(days / 14) + 2);
    const answer = await domainRows(source, "SerpstatDomainProcedure.getDomainsHistory", {
      domain: target,
      se,
      page: 1,
      size,
      sort: { date: "desc" },
    });
    const points = answer.result.data
      .map((row) => ({
        day: typeof row.date === "string" ? row.date.slice(0, 10) : "",
        values: metrics.map((metric) => numberOf(row[metric.field])),
      }))
      .filter((point) => /^\d{4}-\d{2}-\d{2}$/.test(point.day))
      .sort((a, b) => a.day.localeCompare(b.day));
    // Visibility and keyword counts are standings: the total is the last point on or before the range's end.
    const standing = points.filter((point) => point.day <= range.endDate).at(-1);
    const notice = creditsNotice(source, answer.result.summary_info.left_lines);
    return {
      dimension: dimension ? { key: "date", label: "Date", kind: "date" } : null,
      metrics: metrics.map((metric) => metricHeader(metric)),
      rows: dimension
        ? points
            .filter((point) => point.day >= range.startDate && point.day <= range.endDate)
            .map((point) => ({ dimension: point.day, values: point.values }))
        : [],
      totals: standing ? standing.values : metrics.map(() => null),
      ...(notice ? { notice } : {}),
      ...(answer.empty ? { emptyReason: notFoundReason(target, se) } : {}),
    };
  },
};

/**
 * A domain procedure's rows. "Data not found" (a new or small domain) is an answer, and a paid one: no
 * rows, `empty` set, kept and stored like any other so the credit is not spent again on the next view.
 */
async function domainRows(
  source: SourceHandle,
  method: string,
  params: Record<string, unknown>,
): Promise<z.infer<typeof ZRows> & { empty: boolean }> {
  try {
    return { ...(await call(source, method, params, ZRows)), empty: false };
  } catch (error) {
    if (!isDataNotFound(error)) throw error;
    return { result: { data: [], summary_info: {} }, empty: true };
  }
}

/** What the widget's "No data" says for Serpstat's "Data not found". */
function notFoundReason(domain: string, se: string): string {
  return `Serpstat has no data for ${domain} in its ${se} database yet (new and small sites are often not in it).`;
}
