import { type DayRange, shiftDay, type TTable } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { siteHost } from "../kit/domain-metrics";
import { text } from "../kit/inputs";
import { sharedAccessToken } from "../oauth/single-refresh";
import { toOptions, widgetTypeConfig } from "../options";
import {
  chosenRankMetrics,
  RANK_METRICS,
  type RankSeries,
  rankTable,
  rankTrackerDomainMetrics,
} from "../rank-tracking";
import type { Connector, ConnectorRuntime, QueryInputs, SourceHandle } from "../types";
import { logo } from "./logo";
import {
  accurankerOAuthAdapter,
  accurankerOrigin,
  accurankerTokens,
  classifyAccuRanker,
  missingAccuRankerConfig,
} from "./oauth";
import { accurankerSettings } from "./settings";

/**
 * AccuRanker (docs/connectors.md): rank tracking through the Read API v4. Domains from
 * `GET /api/v4/domains/?fields=id,domain,display_name`, keywords with their daily ranks from
 * `GET /api/v4/domains/{id}/keywords/?fields=…&period_from=&period_to=`. Every read names its `fields`
 * (without them AccuRanker answers empty objects); a period is at most 100 days, so longer ranges are
 * asked in 100-day windows and stitched per keyword. Average rank is lower-is-better and never summed;
 * keyword counts (top 3/10/100) are a state (connectors/rank-tracking.ts).
 */

/** Ranks of past days do not change once checked; the current day may still be checked later. */
export const ACCURANKER_SETTLING_DAYS = 1;
/** AccuRanker's longest period per request (days, both ends included). */
export const WINDOW_DAYS = 100;

const ZDomains = z.array(
  z.object({ id: z.coerce.string(), domain: z.string().nullish(), display_name: z.string().nullish() }),
);
const ZKeywords = z.array(
  z.object({
    id: z.coerce.string(),
    keyword: z.string(),
    search_volume: z.object({ search_volume: z.number().nullish() }).nullish(),
    ranks: z
      .array(z.object({ rank: z.number().nullish(), created_at: z.string() }))
      .nullish()
      .transform((value) => value ?? []),
  }),
);
type Keyword = z.infer<typeof ZKeywords>[number];

/** The fields every keywords request names (AccuRanker's projection; nothing else comes back). */
export const KEYWORD_FIELDS = "id,keyword,search_volume.search_volume,ranks.rank,ranks.created_at";

const RANK_DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "keyword", label: "Keyword" },
];
/** The keyword table's columns: the last rank in the range, its change over the range, the search volume. */
const TABLE_METRICS = [
  { key: "rank", label: "Rank" },
  { key: "change", label: "Change" },
  { key: "searchVolume", label: "Search volume" },
];

const domainParam = { key: "property", label: "Domain", kind: "select", required: true, remote: "properties" } as const;
const RANKINGS_TYPE = widgetTypeConfig({
  type: "accuranker.rankings",
  label: "Rankings",
  connector: "accuranker",
  params: [
    domainParam,
    { key: "dimension", label: "Dimension", kind: "select", required: true, options: toOptions(RANK_DIMENSIONS) },
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, options: toOptions(RANK_METRICS) },
  ],
});
const KEYWORDS_TYPE = widgetTypeConfig({
  type: "accuranker.keywords",
  label: "Keyword table",
  connector: "accuranker",
  params: [
    domainParam,
    { key: "metrics", label: "Columns", kind: "multiselect", required: true, options: toOptions(TABLE_METRICS) },
  ],
});

/**
 * AccuRanker allows at most 4 simultaneous connections and 100 requests a minute (per IP: one server's
 * address is shared by every source), so one limiter key for the process and one bucket for the server.
 */
const SERVER_KEY = "server";
const QUOTAS: QuotaBucket[] = [{ key: SERVER_KEY, max: 100, windowMs: 60_000, kind: "rate" }];

const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "accuranker",
    baseUrl: accurankerOrigin(runtime.providers.accuranker),
    classify: classifyAccuRanker,
    counters: runtime.counters,
    concurrency: 4,
  }),
);

async function api(source: SourceHandle) {
  const runtime = source.runtime;
  // The account the source is scoped to stays beside the refreshed tokens.
  const token = await sharedAccessToken(accurankerTokens(runtime.providers.accuranker, runtime.counters), source, {
    account_id: source.credentials.account_id ?? "",
  });
  return <T>(path: string, schema: z.ZodType<T>, query: Record<string, string>) =>
    client(runtime).request({
      path: `/api/v4${path}`,
      query,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      schema,
      limitKey: SERVER_KEY,
      quotas: QUOTAS,
    });
}

/** The range cut in windows of at most 100 days (AccuRanker's limit), oldest first. */
export function windows(range: DayRange): DayRange[] {
  const result: DayRange[] = [];
  for (let start = range.startDate; start <= range.endDate; start = shiftDay(start, WINDOW_DAYS)) {
    const end = shiftDay(start, WINDOW_DAYS - 1);
    // Days as yyyy-mm-dd text: the earlier of the two sorts first.
    result.push({ startDate: start, endDate: end.localeCompare(range.endDate) < 0 ? end : range.endDate });
  }
  return result;
}

/** The AccuRanker domain id the widget names (its `property`). */
function domainIdOf(inputs: QueryInputs): string {
  const domain = text(inputs.property);
  if (!/^\d+$/.test(domain)) throw AppError.validation({ property: ["The property field is required."] });
  return domain;
}

/** Every keyword of the domain with its ranks over the range, windows asked together and stitched per keyword. */
async function keywords(source: SourceHandle, domain: string, range: DayRange): Promise<Keyword[]> {
  const ask = await api(source);
  const answers = await Promise.all(
    windows(range).map((window) =>
      ask(`/domains/${domain}/keywords/`, ZKeywords, {
        fields: KEYWORD_FIELDS,
        period_from: window.startDate,
        period_to: window.endDate,
      }),
    ),
  );
  const stitched = new Map<string, Keyword>();
  for (const answer of answers) {
    for (const keyword of answer) {
      const known = stitched.get(keyword.id);
      if (known) known.ranks.push(...keyword.ranks);
      else stitched.set(keyword.id, { ...keyword, ranks: [...keyword.ranks] });
    }
  }
  return [...stitched.values()];
}

/** A keyword's checks by day (the last check of a day counts), inside the range. */
function checksOf(keyword: Keyword, range: DayRange): { date: string; pos: number | null }[] {
  const byDay = new Map<string, number | null>();
  for (const rank of [...keyword.ranks].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const day = rank.created_at.slice(0, 10);
    if (day >= range.startDate && day <= range.endDate) byDay.set(day, rank.rank && rank.rank > 0 ? rank.rank : null);
  }
  return [...byDay.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([date, pos]) => ({ date, pos }));
}

/** The keyword table: the last rank of the range, positions gained since the first check (up is positive). */
function keywordTable(all: readonly Keyword[], inputs: QueryInputs, range: DayRange): TTable {
  const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
  const metrics = keys.flatMap((key) => TABLE_METRICS.filter((metric) => metric.key === key));
  if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
  const rows = all.map((keyword) => {
    const ranked = checksOf(keyword, range).filter((check) => check.pos !== null);
    const first = ranked[0]?.pos ?? null;
    const last = ranked.at(-1)?.pos ?? null;
    const values: Record<string, number | null> = {
      rank: last,
      change: first !== null && last !== null ? first - last : null,
      searchVolume: keyword.search_volume?.search_volume ?? null,
    };
    return { keyword: keyword.keyword, last, values: metrics.map((metric) => values[metric.key] ?? null) };
  });
  rows.sort(
    (a, b) => (a.last ?? Number.MAX_VALUE) - (b.last ?? Number.MAX_VALUE) || a.keyword.localeCompare(b.keyword),
  );
  return {
    dimension: { key: "keyword", label: "Keyword", kind: "string" },
    metrics: metrics.map((metric) => ({
      key: metric.key,
      label: metric.label,
      format: "number" as const,
      ...(metric.key === "rank" ? { lowerIsBetter: true as const } : {}),
    })),
    rows: rows.map((row) => ({ dimension: row.keyword, values: row.values })),
    // A table of positions has no meaningful total (ranks are never summed).
    totals: metrics.map(() => null),
  };
}

/** The account's domains with the host each tracks (`domain`), for Mission Control to find a domain's. */
export async function accurankerDomains(source: SourceHandle): Promise<{ id: string; domain: string }[]> {
  const ask = await api(source);
  const domains = await ask("/domains/", ZDomains, { fields: "id,domain,display_name" });
  return domains.map((entry) => ({ id: entry.id, domain: entry.domain ?? "" }));
}

/**
 * Mission Control's rank metrics from AccuRanker (docs/decisions.md, "Mission Control metric sources"):
 * the account's domain that is the group's domain. Asked after SE Ranking's.
 */
const domainMetrics = rankTrackerDomainMetrics(5, RANKINGS_TYPE.type, async (source, domain) => {
  const domains = await source.call(accurankerDomains);
  const project = domains.find((entry) => siteHost(entry.domain) === domain);
  // No search engine to name: the plan keeps its empty last part.
  return project ? { plan: `accuranker:${source.id}:${project.id}:`, inputs: { property: project.id } } : null;
});

export const accurankerConnector: Connector = {
  key: "accuranker",
  logo,
  settings: accurankerSettings,
  displayName: "AccuRanker",
  order: 20,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: accurankerOAuthAdapter,
  oauthAccount: "AccuRanker account",
  settlingDays: ACCURANKER_SETTLING_DAYS,
  widgetTypes: [RANKINGS_TYPE, KEYWORDS_TYPE],
  domainMetrics,
  missingConfig: (providers) => missingAccuRankerConfig(providers.accuranker),

  async options(kind, { source }) {
    if (kind === "metrics") return toOptions(RANK_METRICS);
    if (kind === "dimensions") return toOptions(RANK_DIMENSIONS);
    if (kind !== "properties") throw AppError.notFound("Unknown option list.");
    const ask = await api(source);
    const domains = await ask("/domains/", ZDomains, { fields: "id,domain,display_name" });
    return domains
      .map((domain) => ({ value: domain.id, label: domain.display_name || domain.domain || domain.id }))
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    const domain = domainIdOf(inputs);
    if (type === KEYWORDS_TYPE.type) {
      return keywordTable(await keywords(source, domain, range), inputs, range);
    }
    const dimension = RANK_DIMENSIONS.find((entry) => entry.key === inputs.dimension);
    if (!inputs.dimension) throw AppError.validation({ dimension: ["The dimension field is required."] });
    if (!dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const metrics = chosenRankMetrics(inputs);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const series: RankSeries[] = (await keywords(source, domain, range)).map((keyword) => ({
      label: keyword.keyword,
      checks: checksOf(keyword, range),
    }));
    return rankTable(series, metrics, dimension, range);
  },
};
