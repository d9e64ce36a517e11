import { createHash } from "node:crypto";
import type { DayRange, TTable } from "@app/core";
import { daysBetween } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { trimmedText as text } from "../kit/inputs";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, QueryInputs, SourceHandle } from "../types";
import { classifyAhrefs } from "./classify";
import { AHREFS_COUNTRIES, ALL_COUNTRIES, countryOptions } from "./countries";
import { ahrefsDescriptionLoader } from "./description";
import { ahrefsDomainMetrics } from "./domain-metrics";
import { logo } from "./logo";
import { ahrefsSettings } from "./settings";

/**
 * Ahrefs API v3 (docs/connectors.md): one connector, two widget types.
 * - `ahrefsV3.site` (Site Explorer): `metrics`, `domain-rating` and `backlinks-stats` give a snapshot on
 *   one `date`, the range's last day; with the date dimension, `metrics-history` and
 *   `domain-rating-history` give the points between `date_from` and `date_to`. Required (docs/product.md
 *   §5): target, mode, country, metrics.
 * - `ahrefsV3.ranks` (Rank Tracker): `rank-tracker/overview` of a project on the range's last day, the
 *   project picked from `management/projects`. Required: the project (property), device, dimension, metrics.
 * Site Explorer calls spend the workspace's API units (money): results are stored and a range that has
 * settled is never asked again (`settlingDays`).
 */

const nullableNumber = z.number().nullable().optional();
const ZMetrics = z.object({
  metrics: z.object({
    org_keywords: nullableNumber,
    org_keywords_1_3: nullableNumber,
    org_traffic: nullableNumber,
    org_cost: nullableNumber,
    paid_keywords: nullableNumber,
    paid_pages: nullableNumber,
    paid_traffic: nullableNumber,
    paid_cost: nullableNumber,
  }),
});
const ZDomainRating = z.object({
  domain_rating: z.object({ domain_rating: nullableNumber, ahrefs_rank: nullableNumber }),
});
const ZBacklinksStats = z.object({
  metrics: z.object({
    live: nullableNumber,
    all_time: nullableNumber,
    live_refdomains: nullableNumber,
    all_time_refdomains: nullableNumber,
  }),
});
const ZMetricsHistory = z.object({
  metrics: z.array(z.object({ date: z.string() }).catchall(z.number().nullable())),
});
const ZDomainRatingHistory = z.object({
  domain_ratings: z.array(z.object({ date: z.string(), domain_rating: nullableNumber })),
});
const ZProjects = z.object({
  projects: z.array(
    z.object({
      project_id: z.union([z.string(), z.number()]).transform(String),
      project_name: z.string().default(""),
      url: z.string().nullable().optional(),
      keyword_count: z.number().nullable().optional(),
    }),
  ),
});
const ZOverview = z.object({
  overviews: z.array(
    z.object({
      keyword: z.string().nullable().optional(),
      location: z.string().nullable().optional(),
      url: z.string().nullable().optional(),
      tags: z.array(z.string()).nullable().optional(),
      position: nullableNumber,
      traffic: nullableNumber,
      volume: nullableNumber,
    }),
  ),
});
const ZLimits = z.object({
  limits_and_usage: z.object({ subscription: z.string().nullable().optional() }).passthrough(),
});

/**
 * Ahrefs fills in the last days (crawls, traffic estimates, rank checks) for a short while; a range
 * ended three days ago is final and, since its numbers cost API units, never asked again.
 */
export const AHREFS_SETTLING_DAYS = 3;
/** The last two days are still being filled in (crawls, estimates): not judged yet. (insights and widget alerts, `lagDays`) */
export const AHREFS_LAG_DAYS = 2;

/** The Site Explorer endpoint a metric's snapshot comes from. */
type Snapshot = "metrics" | "domain-rating" | "backlinks-stats";
/** The history endpoint that gives a metric per date, when there is one. */
type History = "metrics-history" | "domain-rating-history";

interface SiteMetric extends MetricDeclaration {
  snapshot: Snapshot;
  /** The field in Ahrefs' answer. */
  field: string;
  history?: History;
  /** Ahrefs gives money in USD cents. */
  cents?: boolean;
}

/** What Site Explorer answers today (docs.ahrefs.com OpenAPI schemas of the five endpoints). */
const SITE_METRICS: readonly SiteMetric[] = [
  {
    key: "domain_rating",
    label: "Domain Rating",
    format: "number",
    snapshot: "domain-rating",
    field: "domain_rating",
    history: "domain-rating-history",
  },
  {
    key: "ahrefs_rank",
    label: "Ahrefs Rank",
    format: "number",
    lowerIsBetter: true,
    snapshot: "domain-rating",
    field: "ahrefs_rank",
  },
  {
    key: "org_traffic",
    label: "Organic traffic",
    format: "number",
    snapshot: "metrics",
    field: "org_traffic",
    history: "metrics-history",
  },
  {
    key: "org_cost",
    label: "Organic traffic value",
    format: "money",
    snapshot: "metrics",
    field: "org_cost",
    history: "metrics-history",
    cents: true,
  },
  { key: "org_keywords", label: "Organic keywords", format: "number", snapshot: "metrics", field: "org_keywords" },
  {
    key: "org_keywords_1_3",
    label: "Organic keywords in top 3",
    format: "number",
    snapshot: "metrics",
    field: "org_keywords_1_3",
  },
  {
    key: "paid_traffic",
    label: "Paid traffic",
    format: "number",
    snapshot: "metrics",
    field: "paid_traffic",
    history: "metrics-history",
  },
  {
    key: "paid_cost",
    label: "Paid traffic cost",
    format: "money",
    snapshot: "metrics",
    field: "paid_cost",
    history: "metrics-history",
    cents: true,
  },
  { key: "paid_keywords", label: "Paid keywords", format: "number", snapshot: "metrics", field: "paid_keywords" },
  { key: "paid_pages", label: "Paid pages", format: "number", snapshot: "metrics", field: "paid_pages" },
  { key: "backlinks", label: "Backlinks", format: "number", snapshot: "backlinks-stats", field: "live" },
  {
    key: "backlinks_all_time",
    label: "Backlinks (all time)",
    format: "number",
    snapshot: "backlinks-stats",
    field: "all_time",
  },
  {
    key: "refdomains",
    label: "Referring domains",
    format: "number",
    snapshot: "backlinks-stats",
    field: "live_refdomains",
  },
  {
    key: "refdomains_all_time",
    label: "Referring domains (all time)",
    format: "number",
    snapshot: "backlinks-stats",
    field: "all_time_refdomains",
  },
];

const SITE_DIMENSIONS = [{ key: "date", label: "Date" }];

const MODES = [
  { key: "subdomains", label: "Domain with its subdomains" },
  { key: "domain", label: "Domain only" },
  { key: "prefix", label: "URL prefix (path)" },
  { key: "exact", label: "Exact URL" },
];

/** Rank Tracker numbers per keyword, and what a row of several keywords shows. */
const RANK_METRICS = [
  { key: "position", label: "Average position", format: "number" as const, lowerIsBetter: true },
  { key: "traffic", label: "Traffic", format: "number" as const },
  { key: "volume", label: "Search volume", format: "number" as const },
  { key: "keywords", label: "Tracked keywords", format: "number" as const },
  { key: "top3", label: "Keywords in top 3", format: "number" as const },
  { key: "top10", label: "Keywords in top 10", format: "number" as const },
];
const RANK_DIMENSIONS = [
  { key: "keyword", label: "Keyword" },
  { key: "location", label: "Location" },
  { key: "url", label: "Ranking URL" },
  { key: "tag", label: "Tag" },
];
const DEVICES = [
  { key: "desktop", label: "Desktop" },
  { key: "mobile", label: "Mobile" },
];

const SITE_TYPE = widgetTypeConfig({
  type: "ahrefsV3.site",
  label: "Site explorer",
  connector: "ahrefsV3",
  params: [
    { key: "target", label: "Target (domain or URL)", kind: "text", required: true },
    { key: "mode", label: "Mode", kind: "select", required: true, options: toOptions(MODES) },
    { key: "country", label: "Country", kind: "select", required: true, remote: "countries" },
    dimensionParam(SITE_DIMENSIONS),
    metricsParam(SITE_METRICS),
  ],
});

const RANKS_TYPE = widgetTypeConfig({
  type: "ahrefsV3.ranks",
  label: "Rank tracker",
  connector: "ahrefsV3",
  params: [
    { key: "property", label: "Project", kind: "select", required: true, remote: "properties" },
    { key: "device", label: "Device", kind: "select", required: true, options: toOptions(DEVICES) },
    dimensionParam(RANK_DIMENSIONS, { required: true }),
    metricsParam(RANK_METRICS),
  ],
});

/** One client per process, so the per-key limit and "wait until the allowance is back" hold across requests. */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "ahrefs",
    baseUrl: runtime.providers.ahrefs.apiUrl,
    classify: classifyAhrefs,
    counters: runtime.counters,
    concurrency: 5,
  }),
);

/** The sources form's check: one attempt, a short time limit, so a wrong key is said within a second or so. */
const verifyClient = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "ahrefs",
    baseUrl: runtime.providers.ahrefs.apiUrl,
    classify: classifyAhrefs,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
);

/** Limits are per API key (several sources may share one): counted by a fingerprint, never the key itself. */
const keyOf = (token: string) => `key:${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;

/** Ahrefs allows 60 requests a minute per key (docs.ahrefs.com, "Introduction"). */
const quotas = (key: string): QuotaBucket[] => [{ key, max: 60, windowMs: 60_000, kind: "rate" }];

function credentials(source: SourceHandle) {
  const token = source.credentials.token ?? "";
  return { headers: { authorization: `Bearer ${token}` }, key: keyOf(token) };
}

type Query = Record<string, string | number | boolean | undefined>;

async function ask<T>(source: SourceHandle, path: string, query: Query, schema: z.ZodType<T>): Promise<T> {
  const { headers, key } = credentials(source);
  return client(source.runtime).request({
    path: `/v3${path}`,
    query: { ...query, output: "json" },
    headers,
    schema,
    limitKey: key,
    quotas: quotas(key),
  });
}

const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
const required = (field: string) => AppError.validation({ [field]: [`The ${field} field is required.`] });

function chosen<T extends { key: string }>(field: string, value: unknown, items: readonly T[], need = true): T | null {
  const key = text(value);
  if (!key) {
    if (need) throw required(field);
    return null;
  }
  const item = items.find((entry) => entry.key === key);
  if (!item) throw AppError.validation({ [field]: [`The selected ${field} is invalid.`] });
  return item;
}

/** Ahrefs answers money in US dollars (cents) whatever the target. */
const tableMetric = (metric: MetricDeclaration) => metricHeader(metric, "USD");

/** A number as the product shows it: money from USD cents to dollars, nothing as null. */
function shown(metric: SiteMetric, raw: unknown): number | null {
  if (typeof raw !== "number" || !Number.isFinite(raw)) return null;
  return metric.cents ? raw / 100 : raw;
}

/**
 * How many points a history asks for: Ahrefs charges per row, so a month is daily, half a year weekly,
 * anything longer monthly.
 */
export function historyGrouping(range: DayRange): "daily" | "weekly" | "monthly" {
  const days = daysBetween(range.startDate, range.endDate) + 1;
  if (days <= 31) return "daily";
  if (days <= 186) return "weekly";
  return "monthly";
}

interface SiteInputs {
  target: string;
  mode: string;
  country: string | undefined;
  metrics: SiteMetric[];
  byDate: boolean;
}

function siteInputs(inputs: QueryInputs): SiteInputs {
  const target = text(inputs.target);
  if (!target) throw required("target");
  const mode = chosen("mode", inputs.mode, MODES)?.key ?? "subdomains";
  const country = text(inputs.country);
  if (!country) throw required("country");
  if (country !== ALL_COUNTRIES && !AHREFS_COUNTRIES.includes(country)) {
    throw AppError.validation({ country: ["The selected country is invalid."] });
  }
  const metrics = list(inputs.metrics)
    .map((key) => SITE_METRICS.find((metric) => metric.key === key))
    .filter((metric): metric is SiteMetric => metric !== undefined);
  if (metrics.length === 0) throw required("metrics");
  const byDate = chosen("dimension", inputs.dimension, SITE_DIMENSIONS, false) !== null;
  if (byDate) {
    const without = metrics.filter((metric) => !metric.history);
    if (without.length > 0) {
      throw AppError.validation({
        metrics: [
          `Ahrefs keeps no history of ${without.map((metric) => metric.label).join(", ")}: remove ${without.length > 1 ? "them" : "it"} or choose no dimension.`,
        ],
      });
    }
  }
  return { target, mode, country: country === ALL_COUNTRIES ? undefined : country, metrics, byDate };
}

/** The range's last day in each snapshot endpoint the metrics need, asked at once. */
async function siteSnapshot(source: SourceHandle, site: SiteInputs, range: DayRange): Promise<(number | null)[]> {
  const needs = new Set(site.metrics.map((metric) => metric.snapshot));
  const date = range.endDate;
  const [metrics, rating, backlinks] = await Promise.all([
    needs.has("metrics")
      ? ask(
          source,
          "/site-explorer/metrics",
          { target: site.target, mode: site.mode, country: site.country, date },
          ZMetrics,
        )
      : null,
    needs.has("domain-rating")
      ? ask(source, "/site-explorer/domain-rating", { target: site.target, date }, ZDomainRating)
      : null,
    needs.has("backlinks-stats")
      ? ask(source, "/site-explorer/backlinks-stats", { target: site.target, mode: site.mode, date }, ZBacklinksStats)
      : null,
  ]);
  return site.metrics.map((metric) => {
    const answer: Record<string, unknown> | undefined =
      metric.snapshot === "metrics"
        ? metrics?.metrics
        : metric.snapshot === "domain-rating"
          ? rating?.domain_rating
          : backlinks?.metrics;
    return shown(metric, answer?.[metric.field]);
  });
}

/** The points of the range, from the history endpoints the metrics need; a date either lacks is null there. */
async function siteHistory(source: SourceHandle, site: SiteInputs, range: DayRange): Promise<TTable["rows"]> {
  const grouping = historyGrouping(range);
  const period = { date_from: range.startDate, date_to: range.endDate, history_grouping: grouping };
  const traffic = site.metrics.filter((metric) => metric.history === "metrics-history");
  const [history, ratings] = await Promise.all([
    traffic.length > 0
      ? ask(
          source,
          "/site-explorer/metrics-history",
          {
            target: site.target,
            mode: site.mode,
            country: site.country,
            ...period,
            // Ahrefs charges per field of every row: only what the widget shows.
            select: ["date", ...traffic.map((metric) => metric.field)].join(","),
          },
          ZMetricsHistory,
        )
      : null,
    site.metrics.some((metric) => metric.history === "domain-rating-history")
      ? ask(source, "/site-explorer/domain-rating-history", { target: site.target, ...period }, ZDomainRatingHistory)
      : null,
  ]);
  const byDate = new Map<string, Record<string, unknown>>();
  const put = (date: string, values: Record<string, unknown>) => {
    // Ahrefs writes dates as yyyy-mm-dd, sometimes with a time; the day is what the chart shows.
    const day = date.slice(0, 10);
    if (day < range.startDate || day > range.endDate) return;
    byDate.set(day, { ...byDate.get(day), ...values });
  };
  for (const point of history?.metrics ?? []) put(point.date, point);
  for (const point of ratings?.domain_ratings ?? []) put(point.date, { domain_rating: point.domain_rating });
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, values]) => ({
      dimension: date,
      values: site.metrics.map((metric) => shown(metric, values[metric.field])),
    }));
}

async function siteQuery(source: SourceHandle, inputs: QueryInputs, range: DayRange): Promise<TTable> {
  const site = siteInputs(inputs);
  const metrics = site.metrics.map(tableMetric);
  if (!site.byDate) {
    return { dimension: null, metrics, rows: [], totals: await siteSnapshot(source, site, range) };
  }
  const rows = await siteHistory(source, site, range);
  // Traffic and Domain Rating are levels (monthly estimates, a rating), never flows: the range's total is
  // its latest point, as the snapshot without a dimension would say, not a sum of points.
  const totals = site.metrics.map((_, index) => {
    for (let at = rows.length - 1; at >= 0; at -= 1) {
      const value = rows[at]?.values[index];
      if (value !== null && value !== undefined) return value;
    }
    return null;
  });
  return { dimension: { key: "date", label: "Date", kind: "date" }, metrics, rows, totals };
}

type Keyword = z.infer<typeof ZOverview>["overviews"][number];

/** The row values of some tracked keywords: average position of those ranking, sums, counts. */
function rankValues(keywords: Keyword[], metrics: readonly string[]): (number | null)[] {
  const ranked = keywords
    .map((keyword) => keyword.position)
    .filter((position): position is number => typeof position === "number");
  const sum = (field: "traffic" | "volume") =>
    keywords.reduce(
      (total, keyword) => total + (typeof keyword[field] === "number" ? (keyword[field] as number) : 0),
      0,
    );
  return metrics.map((metric) => {
    switch (metric) {
      case "position":
        return ranked.length > 0 ? ranked.reduce((total, position) => total + position, 0) / ranked.length : null;
      case "traffic":
        return sum("traffic");
      case "volume":
        return sum("volume");
      case "keywords":
        return keywords.length;
      case "top3":
        return ranked.filter((position) => position <= 3).length;
      default:
        return ranked.filter((position) => position <= 10).length;
    }
  });
}

/** The groups a keyword belongs to under a dimension (every tag it has; none without a ranking URL…). */
function groupsOf(keyword: Keyword, dimension: string): string[] {
  if (dimension === "tag") return keyword.tags && keyword.tags.length > 0 ? keyword.tags : ["(no tag)"];
  if (dimension === "url") return [keyword.url || "(not ranking)"];
  if (dimension === "location") return [keyword.location || "(unknown)"];
  return [keyword.keyword ?? ""];
}

async function ranksQuery(source: SourceHandle, inputs: QueryInputs, range: DayRange): Promise<TTable> {
  const project = text(inputs.property);
  if (!project) throw required("property");
  if (!/^\d+$/.test(project)) throw AppError.validation({ property: ["The selected property is invalid."] });
  const device = chosen("device", inputs.device, DEVICES)?.key ?? "desktop";
  const dimension = chosen("dimension", inputs.dimension, RANK_DIMENSIONS) ?? RANK_DIMENSIONS[0];
  const metrics = list(inputs.metrics).filter((key) => RANK_METRICS.some((metric) => metric.key === key));
  if (metrics.length === 0) throw required("metrics");
  const answer = await ask(
    source,
    "/rank-tracker/overview",
    {
      project_id: project,
      device,
      // A snapshot: the positions of the range's last day (the comparison asks for its own last day).
      date: range.endDate,
      select: "keyword,location,url,tags,position,traffic,volume",
      // The endpoint has no offset: one page as large as a project may be.
      limit: 10000,
    },
    ZOverview,
  );
  const groups = new Map<string, Keyword[]>();
  for (const keyword of answer.overviews) {
    for (const group of groupsOf(keyword, dimension.key)) groups.set(group, [...(groups.get(group) ?? []), keyword]);
  }
  return {
    dimension: { key: dimension.key, label: dimension.label, kind: "string" },
    metrics: metrics.map((key) => tableMetric(RANK_METRICS.find((metric) => metric.key === key) ?? RANK_METRICS[0])),
    rows: [...groups.entries()].map(([group, keywords]) => ({
      dimension: group,
      values: rankValues(keywords, metrics),
    })),
    totals: rankValues(answer.overviews, metrics),
  };
}

const ZRefdomainsHistory = z.object({
  refdomains: z.array(z.object({ date: z.string(), refdomains: nullableNumber })),
});
const ZKeywordsHistory = z.object({
  keywords: z.array(
    z.object({ date: z.string(), top3: nullableNumber, top4_10: nullableNumber, top11_plus: nullableNumber }),
  ),
});

/** One day of a domain's Site Explorer history (Mission Control); a field Ahrefs has no value for is absent. */
export interface AhrefsDomainDay {
  /** yyyy-mm-dd */
  day: string;
  domainRating?: number;
  refdomains?: number;
  /** Ahrefs' estimate of monthly organic visits, as of that day. */
  orgTraffic?: number;
  top3?: number;
  top4to10?: number;
  top11plus?: number;
}

/**
 * A domain's daily Site Explorer history over a range (Mission Control's metric sources, docs/decisions.md "Mission Control metric sources"): domain
 * rating, referring domains, organic traffic and organic keywords by position band, from the four
 * history endpoints, daily, the domain with its subdomains, every country. Goes through the connector's
 * client: the same per-key limit, quota buckets and error classification as the widgets.
 */
export async function ahrefsDomainHistory(
  source: SourceHandle,
  target: string,
  range: DayRange,
): Promise<AhrefsDomainDay[]> {
  const period = { target, date_from: range.startDate, date_to: range.endDate, history_grouping: "daily" };
  const [ratings, refdomains, traffic, keywords] = await Promise.all([
    ask(source, "/site-explorer/domain-rating-history", period, ZDomainRatingHistory),
    ask(source, "/site-explorer/refdomains-history", { ...period, mode: "subdomains" }, ZRefdomainsHistory),
    // Ahrefs charges per field of every row: only the organic traffic.
    ask(
      source,
      "/site-explorer/metrics-history",
      { ...period, mode: "subdomains", select: "date,org_traffic" },
      ZMetricsHistory,
    ),
    ask(
      source,
      "/site-explorer/keywords-history",
      { ...period, mode: "subdomains", select: "date,top3,top4_10,top11_plus" },
      ZKeywordsHistory,
    ),
  ]);
  const days = new Map<string, AhrefsDomainDay>();
  const put = (date: string, values: Omit<AhrefsDomainDay, "day">) => {
    const day = date.slice(0, 10);
    if (day < range.startDate || day > range.endDate) return;
    const known = Object.fromEntries(
      Object.entries(values).filter(([, value]) => typeof value === "number" && Number.isFinite(value)),
    );
    days.set(day, { ...days.get(day), ...known, day });
  };
  for (const point of ratings.domain_ratings) put(point.date, { domainRating: point.domain_rating ?? undefined });
  for (const point of refdomains.refdomains) put(point.date, { refdomains: point.refdomains ?? undefined });
  for (const point of traffic.metrics) {
    const value = point.org_traffic;
    put(point.date, { orgTraffic: typeof value === "number" ? value : undefined });
  }
  for (const point of keywords.keywords) {
    put(point.date, {
      top3: point.top3 ?? undefined,
      top4to10: point.top4_10 ?? undefined,
      top11plus: point.top11_plus ?? undefined,
    });
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

export const ahrefsConnector: Connector = {
  key: "ahrefsV3",
  logo,
  settings: ahrefsSettings,
  displayName: "Ahrefs V3",
  order: 10,
  authKind: "account+token",
  available: true,
  note: null,
  settlingDays: AHREFS_SETTLING_DAYS,
  lagDays: AHREFS_LAG_DAYS,
  widgetTypes: [SITE_TYPE, RANKS_TYPE],
  domainMetrics: ahrefsDomainMetrics(ahrefsDomainHistory),
  // API v3 as Ahrefs' official SDK describes it, trimmed to the endpoints used (docs/connectors.md).
  description: ahrefsDescriptionLoader,

  async verify({ credentials: typed, runtime }) {
    const token = typed.token ?? "";
    try {
      // Free of API units; answers only for a key that works.
      await verifyClient(runtime).request({
        path: "/v3/subscription-info/limits-and-usage",
        query: { output: "json" },
        headers: { authorization: `Bearer ${token}` },
        schema: ZLimits,
        limitKey: keyOf(token),
      });
    } catch (error) {
      // A key out of units still is a key: the form stores it, widgets say "quota reached" until the reset.
      if (error instanceof ProviderError && error.kind === "quota") return undefined;
      throw error;
    }
    return undefined;
  },

  async options(kind, { source }) {
    if (kind === "countries") return countryOptions();
    if (kind === "metrics") return toOptions(SITE_METRICS);
    if (kind === "dimensions") return toOptions(SITE_DIMENSIONS);
    if (kind !== "properties") throw AppError.notFound("Unknown option list.");
    // Management endpoints are free of API units.
    const answer = await ask(source, "/management/projects", { has_keywords: true }, ZProjects);
    return answer.projects
      .map((project) => ({
        value: project.project_id,
        label: project.url ? `${project.project_name} (${project.url})` : project.project_name,
      }))
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    if (type === RANKS_TYPE.type) return ranksQuery(source, inputs, range);
    return siteQuery(source, inputs, range);
  },
};
