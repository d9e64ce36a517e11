import type { TTable } from "@app/core";
import { parseCsv } from "@app/core/csv/parse";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { readDateColumn, readNumberCell } from "../grid/cells";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { domainOf } from "../kit/domain";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { classifySemrush, isNothingFound } from "./classify";
import { isSemrushDatabase, SEMRUSH_DATABASES } from "./databases";
import { logo } from "./logo";
import { semrushSettings } from "./settings";

/**
 * SEMrush (docs/connectors.md): the Standard API v3, one GET dispatcher (`/?type=…&key=…`) answering
 * `;`-separated CSV with a header row, read with the product's CSV parser. Domain overview from
 * `domain_rank_history` (monthly snapshots), organic keywords from `domain_organic`. Required inputs
 * (docs/product.md §5): database, metrics; the domain is the source's account unless the widget names
 * another. Every line costs API units (money), so results are kept and closed periods never asked twice.
 */

const PROVIDER = "semrush";

interface SemrushMetric extends MetricDeclaration {
  /** SEMrush's export column code. */
  column: string;
  /** SEMrush estimates costs in US dollars whatever the database. */
  currency?: string;
  /** How the keyword rows add up: summed, or no total (a position or a CPC does not add up). */
  total?: "sum";
}

const DOMAIN_METRICS: SemrushMetric[] = [
  { key: "rank", column: "Rk", label: "SEMrush rank", format: "number", lowerIsBetter: true },
  { key: "organicKeywords", column: "Or", label: "Organic keywords", format: "number" },
  { key: "organicTraffic", column: "Ot", label: "Organic traffic", format: "number" },
  { key: "organicCost", column: "Oc", label: "Organic traffic cost", format: "money", currency: "USD" },
  { key: "paidKeywords", column: "Ad", label: "Paid keywords", format: "number" },
  { key: "paidTraffic", column: "At", label: "Paid traffic", format: "number" },
  { key: "paidCost", column: "Ac", label: "Paid traffic cost", format: "money", currency: "USD" },
];

const KEYWORD_METRICS: SemrushMetric[] = [
  { key: "position", column: "Po", label: "Position", format: "number", lowerIsBetter: true },
  { key: "searchVolume", column: "Nq", label: "Search volume", format: "number", total: "sum" },
  { key: "cpc", column: "Cp", label: "CPC", format: "money", currency: "USD", lowerIsBetter: true },
  { key: "trafficShare", column: "Tr", label: "Traffic share", format: "percent", total: "sum" },
  { key: "trafficCostShare", column: "Tc", label: "Traffic cost share", format: "percent", total: "sum" },
];

/** Keywords asked per widget: each line costs 10 units (50 for a past month). */
const KEYWORD_LINES = 50;
/** Monthly snapshots asked at most per widget (ten years). */
const MAX_HISTORY_LINES = 120;

/**
 * SEMrush takes a monthly snapshot of each database; the running month keeps changing until the next
 * one is taken. A month after a range ends its snapshot is final, and the stored result is served for good.
 */
export const SEMRUSH_SETTLING_DAYS = 31;

const database = { key: "database", label: "Database", kind: "select" as const, required: true, remote: "databases" };
const domain = {
  key: "domain",
  label: "Domain (default: the source's account)",
  kind: "text" as const,
  required: false,
};

function widgetType(key: string, label: string, dimension: { key: string; label: string }, metrics: SemrushMetric[]) {
  return widgetTypeConfig({
    type: `semrush.${key}`,
    label,
    connector: "semrush",
    params: [database, domain, dimensionParam([dimension]), metricsParam(metrics)],
  });
}

const DOMAIN_TYPE = widgetType("domain", "Domain overview", { key: "date", label: "Date" }, DOMAIN_METRICS);
const KEYWORDS_TYPE = widgetType("keywords", "Organic keywords", { key: "keyword", label: "Keyword" }, KEYWORD_METRICS);

const metricsOf = (type: string) => (type === KEYWORDS_TYPE.type ? KEYWORD_METRICS : DOMAIN_METRICS);

/** One client per process, so the per-account limit and SEMrush's waits hold across requests. */
const api = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: PROVIDER,
    baseUrl: runtime.providers.semrush.apiUrl,
    classify: classifySemrush,
    counters: runtime.counters,
    concurrency: 10,
  }),
);

/** The free unit-balance call, used to check a typed key: one attempt, a short wait. */
const units = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: PROVIDER,
    baseUrl: runtime.providers.semrush.unitsUrl,
    classify: classifySemrush,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
);

/** SEMrush allows 10 requests a second per account (the source stands for its account). */
const quotas = (source: SourceHandle): QuotaBucket[] => [
  { key: `source:${source.id}`, max: 10, windowMs: 1000, kind: "rate" },
];

/** A CSV answer as rows of cells by the export columns asked for, in that order. */
function readCsv(body: string, columns: readonly string[]): string[][] {
  const parsed = parseCsv(body, { delimiter: ";" });
  if (!parsed.ok) throw new ProviderError(PROVIDER, "server", `unreadable CSV: ${parsed.error}`, { retryable: false });
  const [header, ...rows] = parsed.rows;
  if (!header || header.length !== columns.length) {
    throw new ProviderError(PROVIDER, "server", `expected ${columns.length} columns, got ${header?.length ?? 0}`, {
      retryable: false,
    });
  }
  return rows;
}

const number = (cell: string | undefined): number | null => readNumberCell(cell ?? "")?.value ?? null;

const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;

const CSV_BODY = z.string();

export const semrushConnector: Connector = {
  key: "semrush",
  logo,
  settings: semrushSettings,
  displayName: "SEMrush",
  order: 11,
  authKind: "account+token",
  available: true,
  note: null,
  settlingDays: SEMRUSH_SETTLING_DAYS,
  widgetTypes: [DOMAIN_TYPE, KEYWORDS_TYPE],

  async verify({ credentials, runtime }) {
    // Free (0 units), unlike any report; a wrong key answers `ERROR 120 :: WRONG KEY - ID PAIR`.
    const balance = await units(runtime).request({
      path: "/users/countapiunits.html",
      query: { key: credentials.token ?? "" },
      schema: CSV_BODY,
      limitKey: "verify",
    });
    if (number(balance.trim()) === null) {
      throw new ProviderError(PROVIDER, "server", `unexpected unit balance: ${balance.slice(0, 80)}`);
    }
    return undefined;
  },

  async options(kind, { form }) {
    if (kind === "databases") return [...SEMRUSH_DATABASES];
    const type = typeof form.type === "string" ? form.type : DOMAIN_TYPE.type;
    if (kind === "metrics") return toOptions(metricsOf(type));
    if (kind === "dimensions") {
      return type === KEYWORDS_TYPE.type
        ? [{ value: "keyword", label: "Keyword" }]
        : [{ value: "date", label: "Date" }];
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    const db = typeof inputs.database === "string" ? inputs.database : "";
    if (!db) throw AppError.validation({ database: ["The database field is required."] });
    if (!isSemrushDatabase(db)) throw AppError.validation({ database: ["The selected database is invalid."] });
    const offered = metricsOf(type);
    const metrics = (Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [])
      .map((key) => offered.find((metric) => metric.key === key))
      .filter((metric): metric is SemrushMetric => metric !== undefined);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const target = domainOf(inputs, source);
    const today = new Date().toISOString().slice(0, 10);
    // Nothing found (a new or small domain) is an answer: no rows, and the reason the widget shows.
    let emptyReason: string | undefined;
    const ask = async (query: Record<string, string | number>, columns: readonly string[]) => {
      let body: string;
      try {
        body = await api(source.runtime).request({
          path: "/",
          query: {
            ...query,
            key: source.credentials.token ?? "",
            domain: target,
            database: db,
            export_columns: columns.join(","),
          },
          schema: CSV_BODY,
          limitKey: `source:${source.id}`,
          quotas: quotas(source),
        });
      } catch (error) {
        if (!isNothingFound(error)) throw error;
        emptyReason = nothingFoundReason(target, db);
        return [];
      }
      return readCsv(body, columns);
    };

    if (type === KEYWORDS_TYPE.type) {
      if (dimension && dimension !== "keyword")
        throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
      const columns = ["Ph", ...metrics.map((metric) => metric.column)];
      // A month before this one is a historical report (SEMrush's snapshot of the 15th); this month is live.
      const past = monthIndex(range.endDate) < monthIndex(today);
      const rows = await ask(
        {
          type: "domain_organic",
          display_limit: KEYWORD_LINES,
          display_sort: "tr_desc",
          ...(past ? { display_date: `${range.endDate.slice(0, 4)}${range.endDate.slice(5, 7)}15` } : {}),
        },
        columns,
      );
      const values = rows.map((cells) => metrics.map((_, index) => number(cells[index + 1])));
      return {
        dimension: dimension ? { key: "keyword", label: "Keyword", kind: "string" } : null,
        metrics: metrics.map((metric) => metricHeader(metric)),
        rows: dimension ? rows.map((cells, index) => ({ dimension: cells[0] ?? "", values: values[index] })) : [],
        totals: metrics.map((metric, m) =>
          metric.total === "sum" && !emptyReason ? values.reduce((sum, row) => sum + (row[m] ?? 0), 0) : null,
        ),
        ...(emptyReason ? { emptyReason } : {}),
      };
    }

    if (dimension && dimension !== "date")
      throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    // Snapshots newest first: skip the months after the range, take the range's months and the one before
    // it (the standing at the range's start), so no line is paid for outside the range.
    const columns = [...metrics.map((metric) => metric.column), "Dt"];
    const offset = Math.max(0, monthIndex(today) - monthIndex(range.endDate) - 1);
    const lines = Math.min(MAX_HISTORY_LINES, monthIndex(range.endDate) - monthIndex(range.startDate) + 3);
    const rows = await ask(
      { type: "domain_rank_history", display_sort: "dt_desc", display_offset: offset, display_limit: lines },
      columns,
    );
    const days = readDateColumn(rows.map((cells) => cells[columns.length - 1] ?? ""));
    const snapshots = rows
      .map((cells, index) => ({ day: days[index], values: metrics.map((_, m) => number(cells[m])) }))
      .filter((row): row is { day: string; values: (number | null)[] } => row.day !== null)
      .sort((a, b) => a.day.localeCompare(b.day));
    // Ranks and counts are standings, not flows: the total is the standing at the range's end.
    const standing = snapshots.filter((row) => row.day <= range.endDate).at(-1);
    return {
      dimension: dimension ? { key: "date", label: "Date", kind: "date" } : null,
      metrics: metrics.map((metric) => metricHeader(metric)),
      rows: dimension
        ? snapshots
            .filter((row) => row.day >= range.startDate && row.day <= range.endDate)
            .map((row) => ({ dimension: row.day, values: row.values }))
        : [],
      totals: standing ? standing.values : metrics.map(() => null),
      ...(emptyReason ? { emptyReason } : {}),
    };
  },
};

/** What the widget's "No data" says for SEMrush's `ERROR 50 :: NOTHING FOUND`. */
function nothingFoundReason(domain: string, database: string): string {
  return `SEMrush has no data for ${domain} in its ${database.toUpperCase()} database yet (new and small sites are often not in it).`;
}
