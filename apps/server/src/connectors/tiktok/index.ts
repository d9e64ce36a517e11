import { minDay, shiftDay, type TOption, type TTable } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { createProviderClient, type ProviderClient } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { metricHeader, requireMetrics } from "../kit/metrics";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, SourceHandle } from "../types";
import { logo } from "./logo";
import { addMetrics, emptyParts, METRICS, metricByKey, type Parts, partsOf } from "./metrics";
import {
  classifyTikTok,
  missingTikTokConfig,
  pacedClient,
  TIKTOK_APP_QUOTAS,
  tiktokApp,
  tiktokEnvelope,
  tiktokOAuthAdapter,
  tiktokToken,
} from "./oauth";
import { tiktokSettings } from "./settings";

/**
 * TikTok Ads through TikTok API for Business v1.3 (docs/connectors.md, "TikTok"): advertisers from
 * `/oauth2/advertiser/get/` named by `/advertiser/info/`, numbers from the synchronous integrated
 * report `/report/integrated/get/` (report_type BASIC). Every call carries the long-lived advertiser
 * token as the `Access-Token` header; every answer is read for TikTok's `code` (errors come as HTTP 200).
 */

/** Conversions are credited to the day of the click for TikTok's attribution window (7 days by default). */
export const TIKTOK_SETTLING_DAYS = 7;
/** Yesterday's conversions are still being credited: not judged until the day after. (insights and widget alerts, `lagDays`) */
export const TIKTOK_LAG_DAYS = 1;

/**
 * Rows of the table and how TikTok is asked for them: the data level and the report dimension. Names of
 * campaigns, ad groups and ads come as attribute metrics (`campaign_name` …) of the same report.
 */
const DIMENSIONS = [
  { key: "date", label: "Date", level: "AUCTION_ADVERTISER", id: "stat_time_day", name: null },
  { key: "campaign", label: "Campaign", level: "AUCTION_CAMPAIGN", id: "campaign_id", name: "campaign_name" },
  { key: "adgroup", label: "Ad group", level: "AUCTION_ADGROUP", id: "adgroup_id", name: "adgroup_name" },
  { key: "ad", label: "Ad", level: "AUCTION_AD", id: "ad_id", name: "ad_name" },
] as const;
type Dimension = (typeof DIMENSIONS)[number];

const WIDGET_TYPE = widgetTypeConfig({
  type: "tiktok.report",
  label: "TikTok Ads report",
  connector: "tiktok",
  params: [
    { key: "property", label: "Advertiser", kind: "select", required: true, remote: "properties" },
    dimensionParam(DIMENSIONS),
    metricsParam(METRICS),
  ],
});

/**
 * Days per report request: TikTok refuses a range longer than 30 days when `stat_time_day` is a
 * dimension and longer than 365 days otherwise (report/integrated/get); longer ranges are stitched
 * from windows, which is exact because only additive metrics are asked.
 */
const DAILY_WINDOW_DAYS = 30;
const WINDOW_DAYS = 365;
/** Rows per page (TikTok's maximum) and pages followed at most per window (100,000 rows). */
const PAGE_SIZE = 1000;
const MAX_PAGES = 100;

const ZAdvertisers = tiktokEnvelope(
  z.object({
    list: z.array(z.object({ advertiser_id: z.coerce.string(), advertiser_name: z.string().optional() })).default([]),
  }),
);
const ZAdvertiserInfo = tiktokEnvelope(
  z.object({
    list: z
      .array(
        z.object({
          advertiser_id: z.coerce.string(),
          name: z.string().optional(),
          currency: z.string().optional(),
          timezone: z.string().optional(),
          status: z.string().optional(),
        }),
      )
      .default([]),
  }),
);
const ZReport = tiktokEnvelope(
  z.object({
    list: z
      .array(
        z.object({
          dimensions: z.record(z.string(), z.union([z.string(), z.number()])),
          metrics: z.record(z.string(), z.unknown()),
        }),
      )
      .default([]),
    page_info: z
      .object({ page: z.number().optional(), total_page: z.number().optional(), total_number: z.number().optional() })
      .optional(),
  }),
);

/** Advertiser statuses other than STATUS_ENABLE a picker names. */
const STATUS: Record<string, string> = {
  STATUS_DISABLE: "disabled",
  STATUS_PENDING_CONFIRM: "pending review",
  STATUS_PENDING_VERIFIED: "pending verification",
  STATUS_CONFIRM_FAIL: "review failed",
  STATUS_LIMIT: "limited",
  STATUS_SELF_SERVICE_UNAUDITED: "unaudited",
};

const client = perRuntime((runtime) =>
  pacedClient(
    createProviderClient({
      provider: "tiktok",
      baseUrl: runtime.providers.tiktok.apiUrl,
      classify: classifyTikTok,
      counters: runtime.counters,
      // TikTok limits the app (10 per second on the Basic tier, counted in TIKTOK_APP_QUOTAS); a few at
      // once per advertiser keeps one dashboard from using the whole second.
      concurrency: 4,
    }),
  ),
);

/** An advertiser's currency and time zone per process for an hour (a report has no row to read them from). */
const infoCache = perRuntime(
  () => new LRUCache<string, { currency: string | null; timezone: string | null }>({ max: 1000, ttl: 3_600_000 }),
);

const json = (values: readonly string[]) => JSON.stringify(values);

interface Api {
  api: ProviderClient;
  source: SourceHandle;
}

async function advertiserInfo({ api, source }: Api, ids: readonly string[]) {
  return api.request({
    path: "/open_api/v1.3/advertiser/info/",
    query: { advertiser_ids: json(ids), fields: json(["name", "currency", "timezone", "status"]) },
    headers: { "access-token": tiktokToken(source.credentials) },
    schema: ZAdvertiserInfo,
    quotas: TIKTOK_APP_QUOTAS,
    limitKey: `source:${source.id}`,
  });
}

async function currencyOf(context: Api, advertiser: string): Promise<string | null> {
  const cached = infoCache(context.source.runtime).get(advertiser);
  if (cached) return cached.currency;
  const info = (await advertiserInfo(context, [advertiser])).data.list.find(
    (entry) => entry.advertiser_id === advertiser,
  );
  const value = { currency: info?.currency ?? null, timezone: info?.timezone ?? null };
  infoCache(context.source.runtime).set(advertiser, value);
  return value.currency;
}

const advertiserId = (value: unknown): string => {
  const id = typeof value === "string" ? value : "";
  if (!/^\d+$/.test(id)) throw AppError.validation({ property: ["The property field is required."] });
  return id;
};

/** The range cut into windows TikTok accepts, first to last. */
function windows(start: string, end: string, days: number): Array<{ start: string; end: string }> {
  const out: Array<{ start: string; end: string }> = [];
  for (let from = start; from <= end; from = shiftDay(from, days)) {
    out.push({ start: from, end: minDay(shiftDay(from, days - 1), end) });
  }
  return out;
}

/** One report over one window, every page of it. */
async function reportRows(
  { api, source }: Api,
  params: { advertiser: string; level: string; dimensions: string[]; metrics: string[]; start: string; end: string },
) {
  const rows: z.infer<typeof ZReport>["data"]["list"] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await api.request({
      path: "/open_api/v1.3/report/integrated/get/",
      query: {
        advertiser_id: params.advertiser,
        report_type: "BASIC",
        data_level: params.level,
        dimensions: json(params.dimensions),
        metrics: json(params.metrics),
        start_date: params.start,
        end_date: params.end,
        page,
        page_size: PAGE_SIZE,
      },
      headers: { "access-token": tiktokToken(source.credentials) },
      schema: ZReport,
      quotas: TIKTOK_APP_QUOTAS,
      limitKey: `advertiser:${params.advertiser}`,
    });
    rows.push(...answer.data.list);
    if (page >= (answer.data.page_info?.total_page ?? 1)) break;
  }
  return rows;
}

export const tiktokConnector: Connector = {
  key: "tiktok",
  logo,
  settings: tiktokSettings,
  displayName: "TikTok",
  order: 22,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: tiktokOAuthAdapter,
  settlingDays: TIKTOK_SETTLING_DAYS,
  lagDays: TIKTOK_LAG_DAYS,
  widgetTypes: [WIDGET_TYPE],
  missingConfig: (providers: ProvidersConfig) => missingTikTokConfig(providers.tiktok),

  async options(kind, { source }): Promise<TOption[]> {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind !== "properties") throw AppError.notFound("Unknown option list.");
    const context: Api = { api: client(source.runtime), source };
    // The advertisers this token was granted, then their names, currencies and states (100 per call).
    const granted = await context.api.request({
      path: "/open_api/v1.3/oauth2/advertiser/get/",
      query: tiktokApp(source.runtime.providers.tiktok),
      headers: { "access-token": tiktokToken(source.credentials) },
      schema: ZAdvertisers,
      quotas: TIKTOK_APP_QUOTAS,
      limitKey: `source:${source.id}`,
    });
    const ids = granted.data.list.map((entry) => entry.advertiser_id);
    const info = new Map<string, z.infer<typeof ZAdvertiserInfo>["data"]["list"][number]>();
    for (let at = 0; at < ids.length; at += 100) {
      for (const entry of (await advertiserInfo(context, ids.slice(at, at + 100))).data.list) {
        info.set(entry.advertiser_id, entry);
        infoCache(source.runtime).set(entry.advertiser_id, {
          currency: entry.currency ?? null,
          timezone: entry.timezone ?? null,
        });
      }
    }
    return granted.data.list
      .map((entry) => {
        const details = info.get(entry.advertiser_id);
        const name = details?.name || entry.advertiser_name || entry.advertiser_id;
        const status = details?.status ? STATUS[details.status] : undefined;
        return { value: entry.advertiser_id, label: status ? `${name} (${status})` : name };
      })
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const advertiser = advertiserId(inputs.property);
    const metrics = requireMetrics(inputs.metrics, metricByKey, "TikTok");
    const dimensionKey = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const dimension: Dimension | null = DIMENSIONS.find((entry) => entry.key === dimensionKey) ?? null;
    if (dimensionKey && !dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });

    const context: Api = { api: client(source.runtime), source };
    const parts = partsOf(metrics);
    const byDay = dimension?.key === "date";
    // Without a dimension the advertiser's own row (dimension advertiser_id) over the range.
    const level = dimension?.level ?? "AUCTION_ADVERTISER";
    const reportDimensions = [dimension?.id ?? "advertiser_id"];
    const asked = dimension?.name ? [...parts, dimension.name] : parts;

    const grouped = new Map<string, { label: string; parts: Parts }>();
    if (byDay) {
      for (let day = range.startDate; day <= range.endDate; day = shiftDay(day, 1)) {
        grouped.set(day, { label: day, parts: emptyParts() });
      }
    }
    // Windows one after the other: the app's per-second allowance is shared by every dashboard.
    for (const window of windows(range.startDate, range.endDate, byDay ? DAILY_WINDOW_DAYS : WINDOW_DAYS)) {
      const rows = await reportRows(context, {
        advertiser,
        level,
        dimensions: reportDimensions,
        metrics: asked,
        ...window,
      });
      for (const row of rows) {
        const id = String(row.dimensions[reportDimensions[0] ?? ""] ?? "");
        const key = byDay ? id.slice(0, 10) : id;
        const name = dimension?.name ? row.metrics[dimension.name] : undefined;
        const entry = grouped.get(key) ?? { label: typeof name === "string" && name ? name : key, parts: emptyParts() };
        addMetrics(entry.parts, row.metrics);
        grouped.set(key, entry);
      }
    }
    const totals = emptyParts();
    for (const entry of grouped.values()) addMetrics(totals, entry.parts);
    const ordered = [...grouped.values()];
    if (!byDay) ordered.sort((a, b) => b.parts.spend - a.parts.spend || a.label.localeCompare(b.label));
    const currency = metrics.some((metric) => metric.format === "money") ? await currencyOf(context, advertiser) : null;
    return {
      dimension: dimension ? { key: dimension.key, label: dimension.label, kind: byDay ? "date" : "string" } : null,
      metrics: metrics.map((metric) => metricHeader(metric, currency)),
      rows: dimension
        ? ordered.map((entry) => ({
            dimension: entry.label,
            values: metrics.map((metric) => metric.value(entry.parts)),
          }))
        : [],
      totals: metrics.map((metric) => metric.value(totals)),
    };
  },
};
