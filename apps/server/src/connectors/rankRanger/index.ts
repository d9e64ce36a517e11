import type { DayRange, TOption, TTable } from "@app/core";
import type { z } from "zod";
import { AppError } from "../../infra/errors";
import { sha256 } from "../../infra/security";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { trimmedText as text } from "../kit/inputs";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { storedToken } from "../kit/token";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import { RANK_METRICS, type RankMetric, type RankSeries, rankTable } from "../rank-tracking";
import type { Connector, ConnectorRuntime, QueryInputs, SourceHandle } from "../types";
import { classifyRankRanger } from "./classify";
import { logo } from "./logo";
import { rankrangerSettings } from "./settings";
import { type Campaign, type RankRow, type VisibilityRow, ZCampaigns, ZRank, ZVisibility } from "./shapes";

/**
 * Rank Ranger (docs/connectors.md): the Reporting API v2, `GET /api/v2/?<method>&key=…&output=json`
 * (what is verified and what is assumed: ./shapes.ts). Campaigns, their domains and search engines from
 * `package_campaigns`; positions per keyword, search engine and day from `rank` over the range (one call,
 * where `rank_stats` would be one call per day); visibility from `get_visibility_trend`. The positions
 * are summed up by ../rank-tracking.ts: average position lower-is-better and never summed, keyword
 * counts a state (the last checked day's), never a sum over days.
 *
 * The key is in the query string. The HTTP layer never puts a URL in an error or a log line, and every
 * error of this connector is scrubbed of the key before it goes up, in case Rank Ranger echoes it.
 */

const PROVIDER = "rankranger";
const API = "/api/v2/";

/** Positions of past days do not change once checked; the current day may still be checked later. */
export const RANKRANGER_SETTLING_DAYS = 1;

interface Metric extends MetricDeclaration {
  format: "number";
  lowerIsBetter?: true;
}

const VISIBILITY: Metric = { key: "visibility", label: "Visibility", format: "number" };
const STATS_METRICS: readonly Metric[] = [...RANK_METRICS, VISIBILITY];
const KEYWORD_METRICS: readonly RankMetric[] = [
  { key: "position", label: "Position", format: "number", lowerIsBetter: true },
  ...RANK_METRICS.filter((metric) => metric.top !== undefined && metric.top !== 30),
];

const STATS_DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "searchEngine", label: "Search engine" },
  { key: "domain", label: "Domain" },
];
const KEYWORD_DIMENSIONS = [{ key: "keyword", label: "Keyword" }];

const campaignParam = {
  key: "property",
  label: "Campaign",
  kind: "select",
  required: true,
  remote: "properties",
} as const;
const domainParam = {
  key: "domain",
  label: "Domain (default: the campaign's)",
  kind: "select",
  required: false,
  remote: "domains",
} as const;

const STATS_TYPE = widgetTypeConfig({
  type: "rankRanger.rankStats",
  label: "Rank stats",
  connector: "rankRanger",
  params: [
    campaignParam,
    domainParam,
    {
      key: "searchEngine",
      label: "Search engine (default: all)",
      kind: "select",
      required: false,
      remote: "searchEngines",
    },
    dimensionParam(STATS_DIMENSIONS, { required: true }),
    metricsParam(STATS_METRICS),
  ],
});

const KEYWORDS_TYPE = widgetTypeConfig({
  type: "rankRanger.keywords",
  label: "Keyword rankings",
  connector: "rankRanger",
  params: [
    campaignParam,
    domainParam,
    { key: "searchEngine", label: "Search engine", kind: "select", required: true, remote: "searchEngines" },
    dimensionParam(KEYWORD_DIMENSIONS),
    metricsParam(KEYWORD_METRICS),
  ],
});

/** Rank Ranger publishes no request limit: a few requests in flight per key, as a dashboard needs. */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: PROVIDER,
    baseUrl: runtime.providers.rankranger.apiUrl,
    classify: classifyRankRanger,
    counters: runtime.counters,
    concurrency: 3,
  }),
);
/** Checking a typed key: one attempt, a short wait (the sources form is waiting). */
const checkClient = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: PROVIDER,
    baseUrl: runtime.providers.rankranger.apiUrl,
    classify: classifyRankRanger,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
);

/** Limits count by a digest of the key, never the key itself (it would end up in counters' names). */
const keyId = (token: string) => `key:${sha256(token).slice(0, 16)}`;

/** The same error without the key, should Rank Ranger's words or a URL ever carry it. */
function withoutKey(error: unknown, token: string): unknown {
  if (!(error instanceof ProviderError) || !token || !error.reason.includes(token)) return error;
  return new ProviderError(PROVIDER, error.kind, error.reason.replaceAll(token, "[key]"), {
    httpStatus: error.httpStatus,
    retryAfterMs: error.retryAfterMs,
    field: error.field,
  });
}

async function call<T>(
  api: ProviderClient,
  token: string,
  method: string,
  params: Record<string, string | undefined>,
  schema: z.ZodType<T>,
): Promise<T> {
  try {
    return await api.request({
      path: API,
      // The method is a bare flag (`?rank&key=…`); `rank=` is the same to Rank Ranger.
      query: { [method]: "", key: token, ...params, output: "json", json_strict: "true" },
      schema,
      limitKey: keyId(token),
    });
  } catch (error) {
    throw withoutKey(error, token);
  }
}

const required = (field: string, label: string) =>
  AppError.validation({ [field]: [`The ${label} field is required.`] });

const campaigns = (source: SourceHandle) =>
  call(client(source.runtime), storedToken(source.credentials, PROVIDER), "package_campaigns", {}, ZCampaigns).then(
    (answer) => answer.result,
  );

async function campaignOf(source: SourceHandle, id: string): Promise<Campaign> {
  const found = (await campaigns(source)).find((campaign) => campaign.campaign_id === id);
  if (!found) throw AppError.validation({ property: ["RankRanger has no such campaign for this API key."] });
  return found;
}

/** The campaign's domains: its own first, then the competitors it tracks. */
const domainsOf = (campaign: Campaign) =>
  [campaign.campaign_domain ?? "", ...campaign.competitors].map((domain) => domain.trim()).filter(Boolean);

const engineLabel = (row: { se_name?: string | null; se?: string | null; se_id?: string | null }) =>
  row.se_name || row.se || row.se_id || "Unknown search engine";

const mean = (values: number[]): number | null =>
  values.length > 0 ? Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100 : null;

interface Scope {
  source: SourceHandle;
  campaign: string;
  engine: string;
  range: DayRange;
}

const period = (scope: Scope, domain: string) => ({
  start_date: scope.range.startDate,
  end_date: scope.range.endDate,
  campaign_id: scope.campaign,
  domain,
  se_id: scope.engine || undefined,
});

async function rankRows(scope: Scope, domain: string): Promise<RankRow[]> {
  const answer = await call(
    client(scope.source.runtime),
    storedToken(scope.source.credentials, PROVIDER),
    "rank",
    period(scope, domain),
    ZRank,
  );
  // Narrowed by Rank Ranger too (assumed); rows that tell their engine are checked here as well.
  return answer.result.filter((row) => !scope.engine || !row.se_id || row.se_id === scope.engine);
}

async function visibilityRows(scope: Scope, domain: string): Promise<VisibilityRow[]> {
  const api = client(scope.source.runtime);
  const answer = await call(
    api,
    storedToken(scope.source.credentials, PROVIDER),
    "get_visibility_trend",
    period(scope, domain),
    ZVisibility,
  );
  return answer.result.filter((row) => !scope.engine || !row.se_id || row.se_id === scope.engine);
}

/** One series per tracked keyword, search engine and domain, named by the table's dimension. */
function series(
  rows: { domain: string; row: RankRow }[],
  labelOf: (entry: { domain: string; row: RankRow }) => string,
) {
  const byKey = new Map<string, RankSeries & { checks: { date: string; pos: number | null }[] }>();
  for (const entry of rows) {
    const key = `${entry.domain}\u0000${entry.row.se_id ?? entry.row.se ?? entry.row.se_name}\u0000${entry.row.keyword}`;
    let found = byKey.get(key);
    if (!found) {
      found = { label: labelOf(entry), checks: [] };
      byKey.set(key, found);
    }
    found.checks.push({ date: entry.row.date, pos: entry.row.rank });
  }
  return [...byKey.values()];
}

/**
 * Visibility is a score per day and engine: a day's value is the mean of its scores, a row's the mean on
 * its last scored day in the range, the total the mean on the range's last scored day. Never a sum.
 */
function visibilityBy(points: { label: string; date: string; score: number }[], range: DayRange) {
  const inRange = points.filter((point) => point.date >= range.startDate && point.date <= range.endDate);
  const onDay = (list: typeof inRange, day: string) => mean(list.filter((p) => p.date === day).map((p) => p.score));
  // ISO days sort as text.
  const lastDay = (list: typeof inRange) =>
    list
      .map((point) => point.date)
      .sort()
      .at(-1) ?? "";
  const byLabel = new Map<string, number | null>();
  for (const label of new Set(inRange.map((point) => point.label))) {
    const own = inRange.filter((point) => point.label === label);
    byLabel.set(label, onDay(own, lastDay(own)));
  }
  return {
    day: (day: string) => onDay(inRange, day),
    label: (label: string) => byLabel.get(label) ?? null,
    labels: [...byLabel.keys()],
    total: inRange.length > 0 ? onDay(inRange, lastDay(inRange)) : null,
  };
}

function chosen<T extends { key: string }>(inputs: QueryInputs, offered: readonly T[]): T[] {
  const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
  const metrics = keys.flatMap((key) => offered.filter((metric) => metric.key === key));
  if (metrics.length === 0) throw required("metrics", "metrics");
  return metrics;
}

async function rankStats(scope: Scope, inputs: QueryInputs): Promise<TTable> {
  const dimension = STATS_DIMENSIONS.find((entry) => entry.key === inputs.dimension);
  if (!inputs.dimension) throw required("dimension", "dimension");
  if (!dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
  const metrics = chosen(inputs, STATS_METRICS);
  const rankMetrics = metrics.filter((metric): metric is RankMetric => metric !== VISIBILITY);
  const wantsVisibility = metrics.includes(VISIBILITY);

  const typed = text(inputs.domain);
  const domains =
    dimension.key === "domain"
      ? domainsOf(await campaignOf(scope.source, scope.campaign))
      : [typed || (domainsOf(await campaignOf(scope.source, scope.campaign))[0] ?? "")];
  const ranks = rankMetrics.length
    ? (
        await Promise.all(
          domains.map(async (domain) => (await rankRows(scope, domain)).map((row) => ({ domain, row }))),
        )
      ).flat()
    : [];
  const scores = wantsVisibility
    ? (
        await Promise.all(
          domains.map(async (domain) => (await visibilityRows(scope, domain)).map((row) => ({ domain, row }))),
        )
      ).flat()
    : [];

  const labelOf = (entry: {
    domain: string;
    row: { se_name?: string | null; se?: string | null; se_id?: string | null };
  }) => (dimension.key === "domain" ? entry.domain : dimension.key === "searchEngine" ? engineLabel(entry.row) : "");
  const ranked = rankTable(series(ranks, labelOf), rankMetrics, dimension, scope.range);
  const visibility = visibilityBy(
    scores.map((entry) => ({ label: labelOf(entry), date: entry.row.date, score: entry.row.visibility_score })),
    scope.range,
  );

  // The ranked rows' order (every day, or best average first), then labels only visibility knows.
  const rows = [
    ...ranked.rows.map((row) => String(row.dimension ?? "")),
    ...(dimension.key === "date"
      ? []
      : visibility.labels.filter((label) => !ranked.rows.some((row) => row.dimension === label)).sort()),
  ];
  const rankColumn = (metric: Metric) => rankMetrics.indexOf(metric as RankMetric);
  const cell = (metric: Metric, label: string, rowIndex: number): number | null => {
    if (metric === VISIBILITY) return dimension.key === "date" ? visibility.day(label) : visibility.label(label);
    return ranked.rows[rowIndex]?.values[rankColumn(metric)] ?? null;
  };
  return {
    dimension: ranked.dimension,
    metrics: metrics.map((metric) => metricHeader(metric)),
    rows: rows.map((label, index) => ({
      dimension: label,
      values: metrics.map((metric) => cell(metric, label, index)),
    })),
    totals: metrics.map((metric) =>
      metric === VISIBILITY ? visibility.total : (ranked.totals[rankColumn(metric)] ?? null),
    ),
  };
}

async function keywordRankings(scope: Scope, inputs: QueryInputs): Promise<TTable> {
  if (!scope.engine) throw required("searchEngine", "search engine");
  const metrics = chosen(inputs, KEYWORD_METRICS);
  const domain = text(inputs.domain) || domainsOf(await campaignOf(scope.source, scope.campaign))[0] || "";
  const rows = (await rankRows(scope, domain)).map((row) => ({ domain, row }));
  return rankTable(
    series(rows, (entry) => entry.row.keyword),
    metrics,
    KEYWORD_DIMENSIONS[0] ?? { key: "keyword", label: "Keyword" },
    scope.range,
  );
}

export const rankRangerConnector: Connector = {
  key: "rankRanger",
  logo,
  settings: rankrangerSettings,
  displayName: "RankRanger",
  order: 12,
  authKind: "account+token",
  available: true,
  note: null,
  settlingDays: RANKRANGER_SETTLING_DAYS,
  widgetTypes: [STATS_TYPE, KEYWORDS_TYPE],

  async verify({ account, credentials, runtime }) {
    const token = credentials.token ?? "";
    // The cheapest call that needs a working key: the campaign list.
    await call(checkClient(runtime), token, "package_campaigns", {}, ZCampaigns);
    // Rank Ranger names no account in its answers: the account is the one typed.
    const typed = account?.trim();
    return typed ? { account: typed } : undefined;
  },

  async options(kind, { source, form }) {
    const type = text(form.type) || STATS_TYPE.type;
    const keywords = type === KEYWORDS_TYPE.type;
    if (kind === "metrics") return toOptions(keywords ? KEYWORD_METRICS : STATS_METRICS);
    if (kind === "dimensions") return toOptions(keywords ? KEYWORD_DIMENSIONS : STATS_DIMENSIONS);
    if (kind === "properties") {
      return (await campaigns(source))
        .map((campaign): TOption => {
          const name = campaign.campaign_name || campaign.campaign_id;
          return {
            value: campaign.campaign_id,
            label: campaign.campaign_domain ? `${name} (${campaign.campaign_domain})` : name,
          };
        })
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (kind !== "domains" && kind !== "searchEngines") throw AppError.notFound("Unknown option list.");
    const id = text(form.property);
    if (!id) throw required("property", "property");
    const campaign = await campaignOf(source, id);
    if (kind === "domains") return domainsOf(campaign).map((domain) => ({ value: domain, label: domain }));
    return campaign.search_engines.map((engine) => ({ value: engine.se_id, label: engineLabel(engine) }));
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    const campaign = text(inputs.property);
    if (!campaign) throw required("property", "property");
    const scope: Scope = { source, campaign, engine: text(inputs.searchEngine), range };
    return type === KEYWORDS_TYPE.type ? keywordRankings(scope, inputs) : rankStats(scope, inputs);
  },
};
