import { daysBetween, type TOption, type TTable } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { cachedCurrency } from "../kit/currency";
import { daysOf } from "../kit/inputs";
import { metricHeader, requireMetrics } from "../kit/metrics";
import { followCursor } from "../kit/paging";
import { classifyMeta } from "../meta/classify";
import { graphAuth, metaOAuth, missingMetaConfig } from "../meta/oauth";
import { metaSettings } from "../meta/settings";
import { metaOAuthAdapter, metaUsageHeld, withMetaUsage } from "../meta/shared";
import { verifySystemUserToken } from "../meta/system-user";
import { toOptions, widgetTypeConfig } from "../options";
import type { Connector, SourceHandle } from "../types";
import { facebookAdsDescription } from "./description";
import { logo } from "./logo";
import { addRow, emptyParts, fieldsOf, type InsightRow, METRICS, metricByKey, ZInsightRow } from "./metrics";

/**
 * Facebook Ads (docs/connectors.md): ad accounts from `/me/adaccounts`, campaigns from
 * `/act_{id}/campaigns`, numbers from the Marketing API's `/act_{id}/insights`, synchronously, or as
 * an asynchronous report run when the request is large (`asyncNeeded`). Required inputs
 * (docs/product.md §5): property (the ad account), metrics.
 */

/** Meta revises conversions (attribution windows up to 28 days after the click) for that long. */
export const FACEBOOK_ADS_SETTLING_DAYS = 28;
/** Meta's insights arrive up to 48 hours late (docs/connectors.md, Instagram's settling): yesterday is not final yet. */
export const FACEBOOK_ADS_LAG_DAYS = 1;

export const LEVELS = [
  { key: "account", label: "Account" },
  { key: "campaign", label: "Campaign" },
  { key: "adset", label: "Ad set" },
  { key: "ad", label: "Ad" },
] as const;
type Level = (typeof LEVELS)[number]["key"];

/**
 * Rows of the table. Campaign, ad set and ad rows are Meta's rows at that level (the dimension decides
 * the level of that request); date and the delivery breakdowns are folded from rows at the chosen level.
 */
const DIMENSIONS: ReadonlyArray<{ key: string; label: string; level?: Level; breakdown?: boolean }> = [
  { key: "date", label: "Date" },
  { key: "campaign", label: "Campaign", level: "campaign" },
  { key: "adset", label: "Ad set", level: "adset" },
  { key: "ad", label: "Ad", level: "ad" },
  { key: "age", label: "Age", breakdown: true },
  { key: "gender", label: "Gender", breakdown: true },
  { key: "country", label: "Country", breakdown: true },
  { key: "publisher_platform", label: "Platform", breakdown: true },
  { key: "device_platform", label: "Device", breakdown: true },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "facebookAds.insights",
  label: "Facebook Ads insights",
  connector: "facebookAds",
  params: [
    { key: "property", label: "Ad account", kind: "select", required: true, remote: "properties" },
    { key: "level", label: "Level", kind: "select", required: false, options: toOptions(LEVELS), default: "account" },
    { key: "campaign", label: "Campaign", kind: "select", required: false, remote: "campaigns" },
    { key: "dimension", label: "Dimension", kind: "select", required: false, remote: "dimensions" },
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "metrics" },
  ],
});

const ZPaging = z
  .object({ cursors: z.object({ after: z.string().optional() }).partial().optional(), next: z.string().optional() })
  .optional();
const ZAdAccounts = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        account_id: z.string(),
        name: z.string().default(""),
        currency: z.string().optional(),
        timezone_name: z.string().optional(),
        account_status: z.number().optional(),
      }),
    )
    .default([]),
  paging: ZPaging,
});
const ZCampaigns = z.object({
  data: z.array(z.object({ id: z.string(), name: z.string().default(""), effective_status: z.string().optional() })),
  paging: ZPaging,
});
const ZInsights = z.object({ data: z.array(ZInsightRow).default([]), paging: ZPaging });
const ZReportRun = z.object({ report_run_id: z.string() });
const ZRunStatus = z.object({
  id: z.string(),
  async_status: z.string(),
  async_percent_completion: z.number().default(0),
  error_code: z.number().optional(),
  error_message: z.string().optional(),
});
const ZAccount = z.object({ id: z.string(), currency: z.string().optional() });

/** `account_status` values other than 1 (active) that a picker should name. */
const ACCOUNT_STATUS: Record<number, string> = {
  2: "disabled",
  3: "unsettled",
  7: "pending risk review",
  8: "pending settlement",
  9: "in grace period",
  100: "pending closure",
  101: "closed",
};

/** Rows per page Meta is asked for; Meta may answer fewer. Pages followed at most (25,000 rows). */
const PAGE_LIMIT = 500;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const MAX_PAGES = 50;

/** Waits between polls of a report run (ms), the last one repeated; the run is given up after RUN_TIMEOUT_MS. */
const POLL_DELAYS_MS = [250, 500, 1000, 2000, 4000, 5000];
const RUN_TIMEOUT_MS = 120_000;

/**
 * The rule for asking Meta asynchronously (Meta's best practices: large synchronous requests time out
 * or answer "Please reduce the amount of data"): a by-day request over more than 90 days at ad set or
 * ad level, or over more than a year at any level. Everything else is one synchronous request.
 */
export function asyncNeeded(level: Level, byDay: boolean, days: number): boolean {
  if (!byDay) return false;
  return days > 365 || (days > 90 && (level === "adset" || level === "ad"));
}

const client = perRuntime((runtime) =>
  // Usage near Meta's limit on a successful answer holds the ad account (meta/shared.ts, withMetaUsage).
  withMetaUsage(
    createProviderClient({
      provider: "facebook-ads",
      baseUrl: runtime.providers.meta.graphUrl,
      classify: classifyMeta,
      counters: runtime.counters,
      // Meta throttles per ad account (X-Ad-Account-Usage) and per Business Use Case: a few at once per account.
      concurrency: 4,
    }),
    "facebook-ads",
    runtime.counters,
  ),
);

/** The ad account's currency per process for an hour, for tables without a row to read it from. */
const currencyCache = perRuntime(() => new LRUCache<string, string>({ max: 1000, ttl: 3_600_000 }));

/**
 * The stored long-lived user token (Meta has no refresh: an expired one is an `auth` failure) as a
 * bearer header plus `appsecret_proof` (oauth/meta.ts).
 */
function metaAccess(source: SourceHandle): { headers: Record<string, string>; query: Record<string, string> } {
  const meta = source.runtime.providers.meta;
  const token = metaOAuth(meta, source.runtime.counters).userToken(source.credentials, Date.now());
  return graphAuth(meta, token);
}

/** Follows `paging.cursors.after` while Meta says there is a next page. */
const allPages = <T extends { paging?: z.infer<typeof ZPaging> }>(ask: (after: string | undefined) => Promise<T>) =>
  followCursor(MAX_PAGES, ask, (answer) => (answer.paging?.next ? answer.paging.cursors?.after : undefined));

const accountId = (value: unknown): string => {
  const id = typeof value === "string" ? value.replace(/^act_/, "") : "";
  if (!/^\d+$/.test(id)) throw AppError.validation({ property: ["The property field is required."] });
  return id;
};

interface Insights {
  api: ProviderClient;
  source: SourceHandle;
  account: string;
  sleep: (ms: number) => Promise<void>;
}

/** One insights request, synchronous or as a report run, every page of it. */
async function insights(
  { api, source, account, sleep }: Insights,
  params: Record<string, string>,
  runAsync: boolean,
): Promise<InsightRow[]> {
  const version = source.runtime.providers.meta.marketingVersion;
  const limitKey = `account:${account}`;
  const access = metaAccess(source);
  const page = (path: string, extra: Record<string, string>) => (after: string | undefined) =>
    api.request({
      path,
      query: { ...extra, ...access.query, limit: PAGE_LIMIT, after },
      headers: access.headers,
      schema: ZInsights,
      limitKey,
    });
  if (!runAsync) {
    const pages = await allPages(page(`/${version}/act_${account}/insights`, params));
    return pages.flatMap((answer) => answer.data);
  }
  const run = await api.request({
    method: "POST",
    path: `/${version}/act_${account}/insights`,
    form: { ...params, ...access.query },
    headers: access.headers,
    schema: ZReportRun,
    limitKey,
  });
  const started = Date.now();
  for (let poll = 0; ; poll++) {
    await sleep(POLL_DELAYS_MS[Math.min(poll, POLL_DELAYS_MS.length - 1)] ?? 5000);
    const status = await api.request({
      path: `/${version}/${encodeURIComponent(run.report_run_id)}`,
      query: access.query,
      headers: access.headers,
      schema: ZRunStatus,
      limitKey,
    });
    if (status.async_status === "Job Completed") break;
    if (status.async_status === "Job Failed" || status.async_status === "Job Skipped") {
      throw new ProviderError(
        "facebook-ads",
        "server",
        `report run ${run.report_run_id}: ${status.async_status}${status.error_message ? ` (${status.error_message})` : ""}`,
        { retryable: false },
      );
    }
    if (Date.now() - started > RUN_TIMEOUT_MS) {
      throw new ProviderError(
        "facebook-ads",
        "server",
        `report run ${run.report_run_id} still at ${status.async_percent_completion}% after ${RUN_TIMEOUT_MS / 1000} s`,
        { retryable: false },
      );
    }
  }
  const pages = await allPages(page(`/${version}/${encodeURIComponent(run.report_run_id)}/insights`, {}));
  return pages.flatMap((answer) => answer.data);
}

/** The ad account's currency: from the rows when Meta sent any, otherwise the account itself (cached). */
async function currencyOf(context: Insights, rows: InsightRow[]): Promise<string | null> {
  const fromRows = rows.find((row) => row.account_currency)?.account_currency;
  if (fromRows) {
    currencyCache(context.source.runtime).set(context.account, fromRows);
    return fromRows;
  }
  return cachedCurrency(currencyCache(context.source.runtime), context.account, async () => {
    const access = metaAccess(context.source);
    const answer = await context.api.request({
      path: `/${context.source.runtime.providers.meta.marketingVersion}/act_${context.account}`,
      query: { fields: "currency", ...access.query },
      headers: access.headers,
      schema: ZAccount,
      limitKey: `account:${context.account}`,
    });
    return answer.currency;
  });
}

export const facebookAdsConnector: Connector = {
  key: "facebookAds",
  logo,
  settings: metaSettings,
  displayName: "Facebook Ads",
  order: 5,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: metaOAuthAdapter,
  // The Marketing API objects as Meta's business SDK ships them for the pinned Graph version (docs/connectors.md).
  description: facebookAdsDescription,
  // An agency's Business Manager token, which does not expire (docs/connectors.md, "Meta tokens").
  tokenLogin: "System User token",
  verify: (check) => verifySystemUserToken("facebookAds", check),
  settlingDays: FACEBOOK_ADS_SETTLING_DAYS,
  lagDays: FACEBOOK_ADS_LAG_DAYS,
  insightDimensions: { [WIDGET_TYPE.type]: { date: "date", breakdown: "campaign" } },
  async prewarmAllowed(counters, _type, inputs) {
    const id = typeof inputs.property === "string" ? inputs.property.replace(/^act_/, "") : "";
    return id === "" || !(await metaUsageHeld(counters, `account:${id}`));
  },
  widgetTypes: [WIDGET_TYPE],
  missingConfig: (providers: ProvidersConfig) => missingMetaConfig(providers.meta),

  async options(kind, { source, form }): Promise<TOption[]> {
    if (kind === "metrics") return METRICS.map((metric) => ({ value: metric.key, label: metric.label }));
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind === "levels") return toOptions(LEVELS);
    const api = client(source.runtime);
    const version = source.runtime.providers.meta.marketingVersion;
    const access = metaAccess(source);
    if (kind === "properties") {
      const pages = await allPages((after) =>
        api.request({
          path: `/${version}/me/adaccounts`,
          query: {
            fields: "name,account_id,currency,timezone_name,account_status",
            limit: 100,
            after,
            ...access.query,
          },
          headers: access.headers,
          schema: ZAdAccounts,
          limitKey: `source:${source.id}`,
        }),
      );
      return pages
        .flatMap((answer) => answer.data)
        .map((account) => {
          const status = account.account_status ? ACCOUNT_STATUS[account.account_status] : undefined;
          const name = account.name || account.account_id;
          return { value: account.account_id, label: status ? `${name} (${status})` : name };
        })
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (kind === "campaigns") {
      const account = typeof form.property === "string" ? form.property.replace(/^act_/, "") : "";
      if (!/^\d+$/.test(account)) throw AppError.validation({ property: ["Choose an ad account first."] });
      const pages = await allPages((after) =>
        api.request({
          path: `/${version}/act_${account}/campaigns`,
          query: { fields: "id,name,effective_status", limit: 200, after, ...access.query },
          headers: access.headers,
          schema: ZCampaigns,
          limitKey: `account:${account}`,
        }),
      );
      return pages
        .flatMap((answer) => answer.data)
        .map((campaign) => ({
          value: campaign.id,
          label:
            campaign.effective_status && campaign.effective_status !== "ACTIVE"
              ? `${campaign.name} (${campaign.effective_status.toLowerCase().replace(/_/g, " ")})`
              : campaign.name,
        }));
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const account = accountId(inputs.property);
    const metrics = requireMetrics(inputs.metrics, metricByKey, "Facebook Ads");
    const level = LEVELS.find((entry) => entry.key === inputs.level)?.key ?? "account";
    if (inputs.level !== undefined && inputs.level !== "" && inputs.level !== level) {
      throw AppError.validation({ level: ["The selected level is invalid."] });
    }
    const dimensionKey = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const dimension = DIMENSIONS.find((entry) => entry.key === dimensionKey) ?? null;
    if (dimensionKey && !dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const campaign = typeof inputs.campaign === "string" && inputs.campaign !== "" ? inputs.campaign : null;

    const context: Insights = { api: client(source.runtime), source, account, sleep };
    const fields = fieldsOf(metrics);
    const common = {
      time_range: JSON.stringify({ since: range.startDate, until: range.endDate }),
      ...(campaign && { filtering: JSON.stringify([{ field: "campaign.id", operator: "IN", value: [campaign] }]) }),
    };
    // The totals: the account (or the chosen campaign) over the whole range in one row, so reach and
    // frequency are Meta's deduplicated figures (summing days or ads would count a person many times).
    const totalsRequest = insights(
      context,
      {
        ...common,
        level: "account",
        fields: [...fields, "account_currency"].join(","),
        time_increment: "all_days",
      },
      false,
    );
    const rowLevel: Level = dimension?.level ?? level;
    const byDay = dimension?.key === "date";
    const entityFields = dimension?.level ? [`${dimension.level}_id`, `${dimension.level}_name`] : [];
    const rowsRequest = dimension
      ? insights(
          context,
          {
            ...common,
            level: rowLevel,
            fields: [...entityFields, ...fields].join(","),
            time_increment: byDay ? "1" : "all_days",
            ...(dimension.breakdown && { breakdowns: dimension.key }),
          },
          asyncNeeded(rowLevel, byDay, daysBetween(range.startDate, range.endDate) + 1),
        )
      : Promise.resolve([]);
    const [totalRows, rows] = await Promise.all([totalsRequest, rowsRequest]);

    // Meta rows folded into table rows: per day, per breakdown value or per campaign, ad set or ad id.
    const grouped = new Map<string, { label: string; parts: ReturnType<typeof emptyParts> }>();
    if (byDay) {
      for (const day of daysOf(range.startDate, range.endDate)) grouped.set(day, { label: day, parts: emptyParts() });
    }
    for (const row of rows) {
      const { key, label } = rowKey(dimension?.key ?? "", row);
      const entry = grouped.get(key) ?? { label, parts: emptyParts() };
      addRow(entry.parts, row);
      grouped.set(key, entry);
    }
    const totals = totalRows.reduce(addRow, emptyParts());
    const ordered = [...grouped.values()];
    if (!byDay) ordered.sort((a, b) => b.parts.spend - a.parts.spend || a.label.localeCompare(b.label));
    const currency = await currencyOf(context, [...totalRows, ...rows]);
    return {
      dimension: dimension
        ? { key: dimension.key, label: dimension.label, kind: dimension.key === "date" ? "date" : "string" }
        : null,
      metrics: metrics.map((metric) => metricHeader(metric, currency)),
      rows: ordered.map((entry) => ({
        dimension: entry.label,
        values: metrics.map((metric) => metric.value(entry.parts)),
      })),
      totals: metrics.map((metric) => metric.value(totals)),
    };
  },
};

/** Which table row a Meta row belongs to, and the row's label. */
function rowKey(dimension: string, row: InsightRow): { key: string; label: string } {
  switch (dimension) {
    case "date":
      return { key: row.date_start ?? "", label: row.date_start ?? "" };
    case "campaign":
      return { key: row.campaign_id ?? "", label: row.campaign_name ?? row.campaign_id ?? "" };
    case "adset":
      return { key: row.adset_id ?? "", label: row.adset_name ?? row.adset_id ?? "" };
    case "ad":
      return { key: row.ad_id ?? "", label: row.ad_name ?? row.ad_id ?? "" };
    default: {
      const value = (row as Record<string, unknown>)[dimension];
      const text = typeof value === "string" ? value : "";
      return { key: text, label: text };
    }
  }
}
