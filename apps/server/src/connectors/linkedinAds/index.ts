import { daysBetween, shiftDay, type TOption, type TTable } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { perRuntime } from "../http/per-runtime";
import { cachedCurrency } from "../kit/currency";
import { metricHeader, requireMetrics } from "../kit/metrics";
import { followCursor } from "../kit/paging";
import { linkedinSettings } from "../linkedin/settings";
import {
  encoded,
  linkedinAdsOAuthAdapter,
  linkedinApi,
  linkedinHeaders,
  list,
  missingLinkedInAds,
  restliDate,
  restliQuery,
  urnId,
} from "../linkedin/shared";
import { dimensionParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, SourceHandle } from "../types";
import { logo } from "./logo";
import {
  ANALYTICS_FIELDS,
  addElement,
  emptyParts,
  METRICS,
  metricByKey,
  type Parts,
  ZAnalyticsElement,
} from "./metrics";

/**
 * LinkedIn Ads (docs/connectors.md): ad accounts from `GET /rest/adAccounts?q=search`, campaigns from
 * `/rest/adAccounts/{id}/adCampaigns?q=search`, numbers from `GET /rest/adAnalytics?q=analytics` with one
 * pivot (ACCOUNT, CAMPAIGN, CAMPAIGN_GROUP or CREATIVE) and DAILY or ALL granularity. adAnalytics has no
 * paging: one request answers the whole table. Required inputs (docs/product.md §5): property (the ad
 * account), metrics.
 */

/** Conversions are credited to the click's day and keep arriving for a day or two. */
export const LINKEDIN_ADS_SETTLING_DAYS = 2;
/** Yesterday's conversions are still arriving: not judged until the day after. (insights and widget alerts, `lagDays`) */
export const LINKEDIN_ADS_LAG_DAYS = 1;

/** Table rows: the date (DAILY granularity of the account) or one of LinkedIn's entity pivots. */
const DIMENSIONS = [
  { key: "date", label: "Date", pivot: "ACCOUNT" },
  { key: "campaign", label: "Campaign", pivot: "CAMPAIGN" },
  { key: "campaignGroup", label: "Campaign group", pivot: "CAMPAIGN_GROUP" },
  { key: "creative", label: "Ad (creative)", pivot: "CREATIVE" },
] as const;
type Dimension = (typeof DIMENSIONS)[number];

const WIDGET_TYPE = widgetTypeConfig({
  type: "linkedinAds.analytics",
  label: "LinkedIn Ads analytics",
  connector: "linkedinAds",
  params: [
    { key: "property", label: "Ad account", kind: "select", required: true, remote: "properties" },
    { key: "campaign", label: "Campaign", kind: "select", required: false, remote: "campaigns" },
    dimensionParam(DIMENSIONS),
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, options: toOptions(METRICS) },
  ],
});

/** LinkedIn's cursor paging of finders (`pageSize`, `pageToken`, `metadata.nextPageToken`). */
const paged = <T extends z.ZodType>(element: T) =>
  z.object({
    elements: z.array(element).default([]),
    metadata: z.object({ nextPageToken: z.string().nullish() }).partial().optional(),
  });
const ZAccount = z.object({
  id: z.number(),
  name: z.string().default(""),
  currency: z.string().optional(),
  status: z.string().optional(),
});
const ZEntity = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string().optional(),
  status: z.string().optional(),
});
const ZAnalytics = z.object({ elements: z.array(ZAnalyticsElement).default([]) });

const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/** The ad account's currency per process for an hour (money columns say it). */
const currencyCache = perRuntime(() => new LRUCache<string, string>({ max: 1000, ttl: 3_600_000 }));

async function allPages<T extends z.ZodType>(
  source: SourceHandle,
  headers: Record<string, string>,
  path: string,
  params: Record<string, string>,
  element: T,
  limitKey: string,
): Promise<z.infer<T>[]> {
  const api = linkedinApi(source.runtime);
  const pages = await followCursor(
    MAX_PAGES,
    (pageToken) =>
      api.request({
        path: `${path}?${restliQuery({ ...params, pageSize: String(PAGE_SIZE), pageToken: pageToken && encoded(pageToken) })}`,
        headers,
        schema: paged(element),
        limitKey,
      }),
    (answer) => answer.metadata?.nextPageToken,
  );
  return pages.flatMap((answer) => answer.elements as z.infer<T>[]);
}

const accountOf = (value: unknown, field = "property"): string => {
  const id = typeof value === "string" ? value.replace(/^urn:li:sponsoredAccount:/, "") : "";
  if (!/^\d+$/.test(id)) throw AppError.validation({ [field]: ["The property field is required."] });
  return id;
};

/** Entity lists per pivot, for the names of pivot values (LinkedIn answers URNs only). */
const ENTITY_LISTS: Record<string, { path: (account: string) => string; q: string; fallback: string }> = {
  CAMPAIGN: { path: (a) => `/rest/adAccounts/${a}/adCampaigns`, q: "search", fallback: "Campaign" },
  CAMPAIGN_GROUP: { path: (a) => `/rest/adAccounts/${a}/adCampaignGroups`, q: "search", fallback: "Campaign group" },
  CREATIVE: { path: (a) => `/rest/adAccounts/${a}/creatives`, q: "criteria", fallback: "Creative" },
};

/** Pivot value URN → name for one pivot of one account. */
async function namesOf(
  source: SourceHandle,
  headers: Record<string, string>,
  account: string,
  pivot: string,
): Promise<Map<string, string>> {
  const entities = ENTITY_LISTS[pivot];
  if (!entities) return new Map();
  const found = await allPages(
    source,
    headers,
    entities.path(account),
    { q: entities.q },
    ZEntity,
    `account:${account}`,
  );
  return new Map(
    found.filter((entity) => entity.name).map((entity) => [urnId(String(entity.id)), entity.name as string]),
  );
}

async function currencyOf(
  source: SourceHandle,
  headers: Record<string, string>,
  account: string,
): Promise<string | null> {
  return cachedCurrency(currencyCache(source.runtime), account, async () => {
    const answer = await linkedinApi(source.runtime).request({
      path: `/rest/adAccounts/${account}`,
      headers,
      schema: ZAccount,
      limitKey: `account:${account}`,
    });
    return answer.currency;
  });
}

const dayOf = (date: { year: number; month: number; day: number }) =>
  `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;

export const linkedinAdsConnector: Connector = {
  key: "linkedinAds",
  logo,
  settings: linkedinSettings,
  displayName: "LinkedIn Ads",
  order: 17,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: linkedinAdsOAuthAdapter,
  settlingDays: LINKEDIN_ADS_SETTLING_DAYS,
  lagDays: LINKEDIN_ADS_LAG_DAYS,
  widgetTypes: [WIDGET_TYPE],
  missingConfig: missingLinkedInAds,

  async options(kind, { source, form }): Promise<TOption[]> {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    if (kind === "properties") {
      // Every ad account the member has a role on (LinkedIn's search finder answers only those).
      const accounts = await allPages(
        source,
        await linkedinHeaders(source),
        "/rest/adAccounts",
        { q: "search" },
        ZAccount,
        `source:${source.id}`,
      );
      return accounts
        .map((account) => {
          const name = account.name || String(account.id);
          const status = account.status && account.status !== "ACTIVE" ? account.status.toLowerCase() : null;
          return { value: String(account.id), label: status ? `${name} (${status.replace(/_/g, " ")})` : name };
        })
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (kind === "campaigns") {
      const account = typeof form.property === "string" ? form.property : "";
      if (!/^\d+$/.test(account)) throw AppError.validation({ property: ["Choose an ad account first."] });
      const campaigns = await allPages(
        source,
        await linkedinHeaders(source),
        `/rest/adAccounts/${account}/adCampaigns`,
        { q: "search" },
        ZEntity,
        `account:${account}`,
      );
      return campaigns.map((campaign) => {
        const name = campaign.name || `Campaign ${campaign.id}`;
        const status = campaign.status && campaign.status !== "ACTIVE" ? campaign.status.toLowerCase() : null;
        return { value: urnId(String(campaign.id)), label: status ? `${name} (${status.replace(/_/g, " ")})` : name };
      });
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const account = accountOf(inputs.property);
    const metrics = requireMetrics(inputs.metrics, metricByKey, "LinkedIn Ads");
    const dimensionKey = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const dimension: Dimension | null = DIMENSIONS.find((entry) => entry.key === dimensionKey) ?? null;
    if (dimensionKey && !dimension) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    const campaign = typeof inputs.campaign === "string" && inputs.campaign !== "" ? inputs.campaign : null;
    if (campaign && !/^\d+$/.test(campaign))
      throw AppError.validation({ campaign: ["The selected campaign is invalid."] });

    const byDay = dimension?.key === "date";
    const pivot = dimension?.pivot ?? "ACCOUNT";
    const query = restliQuery({
      q: "analytics",
      pivot,
      timeGranularity: byDay ? "DAILY" : "ALL",
      // Inclusive on both ends, in the account's days.
      dateRange: `(start:${restliDate(range.startDate)},end:${restliDate(range.endDate)})`,
      accounts: list([`urn:li:sponsoredAccount:${account}`]),
      campaigns: campaign ? list([`urn:li:sponsoredCampaign:${campaign}`]) : undefined,
      // Without `fields` LinkedIn answers impressions and clicks only.
      fields: ["dateRange", "pivotValues", ...ANALYTICS_FIELDS].join(","),
    });
    // One token for the three calls (a refresh, when due, happens once).
    const headers = await linkedinHeaders(source);
    const [answer, names, currency] = await Promise.all([
      linkedinApi(source.runtime).request({
        path: `/rest/adAnalytics?${query}`,
        headers,
        schema: ZAnalytics,
        limitKey: `account:${account}`,
      }),
      dimension && !byDay ? namesOf(source, headers, account, pivot) : Promise.resolve(new Map<string, string>()),
      currencyOf(source, headers, account),
    ]);

    // LinkedIn's elements folded into table rows: per day, or per pivot value.
    const grouped = new Map<string, { label: string; parts: Parts }>();
    if (byDay) {
      for (let index = 0; index <= daysBetween(range.startDate, range.endDate); index++) {
        const day = shiftDay(range.startDate, index);
        grouped.set(day, { label: day, parts: emptyParts() });
      }
    }
    const totals = emptyParts();
    for (const element of answer.elements) {
      addElement(totals, element);
      if (!dimension) continue;
      let key: string;
      let label: string;
      if (byDay) {
        key = element.dateRange ? dayOf(element.dateRange.start) : "";
        label = key;
      } else {
        const urn = element.pivotValues?.[0] ?? "";
        key = urnId(urn);
        const fallback = ENTITY_LISTS[pivot]?.fallback ?? "";
        label = names.get(key) ?? `${fallback} ${key}`.trim();
      }
      const entry = grouped.get(key) ?? { label, parts: emptyParts() };
      addElement(entry.parts, element);
      grouped.set(key, entry);
    }
    const rows = [...grouped.values()];
    if (!byDay) {
      rows.sort(
        (a, b) =>
          b.parts.costInLocalCurrency - a.parts.costInLocalCurrency ||
          b.parts.impressions - a.parts.impressions ||
          a.label.localeCompare(b.label),
      );
    }
    return {
      dimension: dimension ? { key: dimension.key, label: dimension.label, kind: byDay ? "date" : "string" } : null,
      metrics: metrics.map((metric) => metricHeader(metric, currency)),
      rows: rows.map((row) => ({ dimension: row.label, values: metrics.map((metric) => metric.value(row.parts)) })),
      totals: metrics.map((metric) => metric.value(totals)),
    };
  },
};
