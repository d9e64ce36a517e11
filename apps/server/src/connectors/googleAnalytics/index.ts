import type { TOption, TTable, TTableMetric, TWidgetTypeConfig } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { classifyGoogle } from "../google/classify";
import { googleSettings } from "../google/settings";
import { googleAuthorization, googleOAuthAdapter, missingGoogleConfig } from "../google/shared";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { ga4DomainMetrics } from "./domain-metrics";
import { logo } from "./logo";
import {
  assertPropertyOpen,
  holdExhaustedProperty,
  notePropertyQuota,
  propertyQuotaState,
  type QuotaCategory,
  ZPropertyQuota,
} from "./quota";

/**
 * Google Analytics 4 (docs/connectors.md): accounts and properties from the Admin API's
 * `accountSummaries`, metrics and dimensions from the Data API's `properties/{id}/metadata`, numbers
 * from `properties/{id}:runReport`. Required inputs (docs/product.md §5): property (the GA account),
 * profile (the GA4 property), metrics.
 */

const ZAccountSummaries = z.object({
  accountSummaries: z
    .array(
      z.object({
        account: z.string(),
        displayName: z.string().default(""),
        propertySummaries: z.array(z.object({ property: z.string(), displayName: z.string().default("") })).default([]),
      }),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});

const ZMetadata = z.object({
  dimensions: z.array(z.object({ apiName: z.string(), uiName: z.string().default("") })).default([]),
  metrics: z
    .array(z.object({ apiName: z.string(), uiName: z.string().default(""), type: z.string().optional() }))
    .default([]),
});
type Metadata = z.infer<typeof ZMetadata>;

const ZValue = z.object({ value: z.string().default("") });
const ZReport = z.object({
  dimensionHeaders: z.array(z.object({ name: z.string() })).default([]),
  metricHeaders: z.array(z.object({ name: z.string(), type: z.string().default("TYPE_STANDARD") })).default([]),
  rows: z
    .array(z.object({ dimensionValues: z.array(ZValue).default([]), metricValues: z.array(ZValue).default([]) }))
    .default([]),
  totals: z.array(z.object({ metricValues: z.array(ZValue).default([]) })).default([]),
  metadata: z.object({ currencyCode: z.string().optional() }).partial().default({}),
  propertyQuota: ZPropertyQuota.optional(),
});

const ZDataStreams = z.object({
  dataStreams: z
    .array(
      z.object({
        name: z.string(),
        type: z.string().default("DATA_STREAM_TYPE_UNSPECIFIED"),
        webStreamData: z.object({ defaultUri: z.string().default("") }).optional(),
      }),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});

/** GA4 keeps processing a day's data for about 3 days (docs/connectors.md, settling window). */
export const GA4_SETTLING_DAYS = 3;

/** GA4 is still processing yesterday (GA4, Google Ads and Search Console report a day's numbers 1–3 days late: docs/connectors.md). */
export const GA4_LAG_DAYS = 1;

/** Metrics where a fall is good news. */
const LOWER_IS_BETTER = new Set(["bounceRate"]);

/**
 * Whether a metric is a fraction (0.05) the product shows as a percentage (5 %). GA4's metadata gives
 * each metric a value type (`MetricType`) but has no type for percentages: its rates are `TYPE_FLOAT`
 * holding 0–1 (docs/connectors.md). The API schema names them `…Rate` (`bounceRate`, `engagementRate`,
 * `sessionKeyEventRate`, `userKeyEventRate`, `purchaserRate`, …), key-event-specific ones with the event
 * after a colon (`sessionKeyEventRate:purchase`), and documents the active-user ratios `dauPerMau`,
 * `dauPerWau` and `wauPerMau` as percents. Custom metrics are never `TYPE_FLOAT` (their types are
 * standard, currency, distance and time), so a custom metric named like a rate stays a number.
 */
export function isFractionMetric(apiName: string, type: string): boolean {
  if (type !== "TYPE_FLOAT") return false;
  const base = apiName.split(":")[0] ?? apiName;
  return /Rate$/.test(base) || /^(dau|wau)Per(Wau|Mau)$/.test(base);
}

/** A metric's column format, from its type (the property's metadata, else the report's header). */
export function formatOf(apiName: string, type: string): TTableMetric["format"] {
  if (isFractionMetric(apiName, type)) return "percent";
  if (type === "TYPE_CURRENCY") return "money";
  if (type === "TYPE_SECONDS" || type === "TYPE_MILLISECONDS" || type === "TYPE_MINUTES" || type === "TYPE_HOURS") {
    return "time";
  }
  return "number";
}

/** A metric value as the product stores it: seconds for times, 0–100 for rates, null when unreadable. */
export function metricValue(raw: string, apiName: string, type: string): number | null {
  const value = Number(raw);
  if (raw === "" || !Number.isFinite(value)) return null;
  if (isFractionMetric(apiName, type)) return value * 100;
  if (type === "TYPE_MILLISECONDS") return value / 1000;
  if (type === "TYPE_MINUTES") return value * 60;
  if (type === "TYPE_HOURS") return value * 3600;
  return value;
}

const idOf = (name: string) => name.split("/").pop() ?? name;

/**
 * The filter input, written as `dimension==value` (exact) or `dimension=@value` (contains), as a GA4
 * `dimensionFilter`; an empty filter is none. Anything else is a 422 on the field.
 */
export function parseFilter(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  const match = /^\s*([A-Za-z][\w:]*)\s*(==|=@)\s*(.+?)\s*$/.exec(text);
  if (!match) {
    throw AppError.validation({
      filter: ["The filter must look like dimension==value or dimension=@value (for example country==Germany)."],
    });
  }
  const [, fieldName, operator, value] = match;
  return {
    filter: {
      fieldName,
      stringFilter: { matchType: operator === "==" ? "EXACT" : "CONTAINS", value, caseSensitive: false },
    },
  };
}

/** The filter input in words ("country is “Germany”"), or null when there is none or it does not parse. */
export function describeGa4Filter(text: unknown): string | null {
  let parsed: ReturnType<typeof parseFilter>;
  try {
    parsed = parseFilter(text);
  } catch {
    return null;
  }
  const filter = parsed?.filter as
    | { fieldName: string; stringFilter: { matchType: string; value: string } }
    | undefined;
  if (!filter) return null;
  const verb = filter.stringFilter.matchType === "EXACT" ? "is" : "contains";
  return `${filter.fieldName} ${verb} “${filter.stringFilter.value}”`;
}

/** docs/product.md §5: GA4 needs its account (`property`) and its GA4 property (`profile`). */
const ACCOUNT_AND_PROPERTY: TWidgetTypeConfig["params"] = [
  { key: "property", label: "Account", kind: "select", required: true, remote: "properties" },
  { key: "profile", label: "Property", kind: "select", required: true, remote: "profiles" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "googleAnalytics.ga4",
  label: "Google Analytics 4",
  connector: "googleAnalytics",
  params: [
    ...ACCOUNT_AND_PROPERTY,
    { key: "dimension", label: "Dimension", kind: "select", required: false, remote: "dimensions" },
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "metrics" },
    { key: "filter", label: "Filter", kind: "text", required: false },
  ],
});

/** What GA4's Realtime API offers (a subset of the Data API's): the last 30 minutes. */
const REALTIME_METRICS = [
  { key: "activeUsers", label: "Active users" },
  { key: "screenPageViews", label: "Views" },
  { key: "eventCount", label: "Event count" },
  { key: "keyEvents", label: "Key events" },
];
const REALTIME_DIMENSIONS = [
  { key: "minutesAgo", label: "Minutes ago" },
  { key: "country", label: "Country" },
  { key: "deviceCategory", label: "Device category" },
  { key: "unifiedScreenName", label: "Page title and screen name" },
];

/** Live visitors for the realtime view (docs/product.md §4): refreshed on its clock, never stored. */
const REALTIME_TYPE = widgetTypeConfig({
  type: "googleAnalytics.ga4realtime",
  label: "Google Analytics 4: realtime (last 30 minutes)",
  connector: "googleAnalytics",
  params: [...ACCOUNT_AND_PROPERTY, dimensionParam(REALTIME_DIMENSIONS), metricsParam(REALTIME_METRICS)],
  realtime: true,
});

const ZRealtimeReport = z.object({
  rows: z
    .array(z.object({ dimensionValues: z.array(ZValue).default([]), metricValues: z.array(ZValue).default([]) }))
    .default([]),
  totals: z.array(z.object({ metricValues: z.array(ZValue).default([]) })).default([]),
  propertyQuota: ZPropertyQuota.optional(),
});

/**
 * A report request to a property within its token quotas (./quota.ts): refused here, before anything is
 * sent (not even a token refresh), while the property is held; the `propertyQuota` of the answer sets the next hold, and a
 * RESOURCE_EXHAUSTED refusal holds the property for every process until the reset it implies.
 */
async function reportWithinQuota<T extends { propertyQuota?: z.infer<typeof ZPropertyQuota> }>(
  source: SourceHandle,
  property: string,
  category: QuotaCategory,
  ask: (headers: Record<string, string>) => Promise<T>,
): Promise<{ report: T; headers: Record<string, string> }> {
  const counters = source.runtime.counters;
  await assertPropertyOpen(counters, property, category, Date.now());
  try {
    const headers = await googleAuthorization(source);
    const report = await ask(headers);
    await notePropertyQuota(counters, property, category, report.propertyQuota, Date.now());
    return { report, headers };
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "quota" && error.retryAfterMs) {
      await holdExhaustedProperty(counters, property, category, error.retryAfterMs);
    }
    throw error;
  }
}

/**
 * Metadata per (source, property) in this process for an hour: the lists change rarely (custom
 * definitions). Keyed by source too, so one company's cached lists never answer another's request.
 * The promise is kept, so widgets loading together ask Google once.
 */
const metadataCaches = perRuntime(() => new LRUCache<string, Promise<Metadata>>({ max: 500, ttl: 3_600_000 }));
/** One pair of clients per process, so the per-property limit of 10 and Google's waits hold across requests. */
const clients = perRuntime((runtime: ConnectorRuntime) => {
  const google = runtime.providers.google;
  const common = { classify: classifyGoogle, counters: runtime.counters, concurrency: 10 };
  return {
    // GA4 counts server errors against the property (10 per hour): at most 5 retries an hour per process pair.
    data: createProviderClient({
      provider: "ga4",
      baseUrl: google.ga4DataUrl,
      ...common,
      retryBudget: { max: 5, windowMs: 3_600_000 },
    }),
    admin: createProviderClient({ provider: "ga4-admin", baseUrl: google.ga4AdminUrl, ...common }),
  };
});

async function accountSummaries(source: SourceHandle, admin: ProviderClient, headers: Record<string, string>) {
  const accounts: z.infer<typeof ZAccountSummaries>["accountSummaries"] = [];
  let pageToken: string | undefined;
  // At most 10 pages of 200: an agency with more than 2,000 GA accounts on one login is not expected.
  for (let page = 0; page < 10; page++) {
    const answer = await admin.request({
      path: "/v1beta/accountSummaries",
      query: { pageSize: 200, pageToken },
      headers,
      schema: ZAccountSummaries,
      limitKey: `source:${source.id}`,
    });
    accounts.push(...answer.accountSummaries);
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return accounts;
}

function metadataOf(source: SourceHandle, property: string, data: ProviderClient, headers: Record<string, string>) {
  const key = `${source.id}:${property}`;
  const metadataCache = metadataCaches(source.runtime);
  const cached = metadataCache.get(key);
  if (cached) return cached;
  const asked = data.request({
    path: `/v1beta/properties/${encodeURIComponent(property)}/metadata`,
    headers,
    schema: ZMetadata,
    limitKey: `property:${property}`,
  });
  metadataCache.set(key, asked);
  // A failure is not kept: the next request asks again.
  asked.catch(() => metadataCache.delete(key));
  return asked;
}

/** A GA4 property the login can read, with the default URIs of its web streams (app streams have none). */
export interface Ga4WebProperty {
  /** The account's id (the widget's `property` input). */
  account: string;
  /** The property's id (the widget's `profile` input). */
  property: string;
  uris: string[];
}

/**
 * Per source, its properties' web streams for an hour: Mission Control asks for every tracked domain,
 * and a property's streams change rarely. The promise is kept, so domains checked together ask once.
 */
const webPropertiesCaches = perRuntime(
  () => new LRUCache<string, Promise<Ga4WebProperty[]>>({ max: 500, ttl: 3_600_000 }),
);

async function dataStreamUris(admin: ProviderClient, headers: Record<string, string>, property: string) {
  const uris: string[] = [];
  let pageToken: string | undefined;
  // At most 5 pages of 200 streams: a property has a handful (Google allows 50 per property).
  for (let page = 0; page < 5; page++) {
    const answer = await admin.request({
      path: `/v1beta/properties/${encodeURIComponent(property)}/dataStreams`,
      query: { pageSize: 200, pageToken },
      headers,
      schema: ZDataStreams,
      limitKey: `property:${property}`,
    });
    for (const stream of answer.dataStreams) {
      if (stream.type === "WEB_DATA_STREAM" && stream.webStreamData?.defaultUri) {
        uris.push(stream.webStreamData.defaultUri);
      }
    }
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return uris;
}

/**
 * Every GA4 property of the source's login with its web streams' default URIs (Admin API
 * `properties/{id}/dataStreams`), so Mission Control can find the property of a domain. A property
 * whose streams Google refuses to list (403: the user's role on it was removed since the summaries
 * were read) simply has none; any other failure fails the whole list.
 */
export function ga4WebProperties(source: SourceHandle): Promise<Ga4WebProperty[]> {
  const webPropertiesCache = webPropertiesCaches(source.runtime);
  const cached = webPropertiesCache.get(source.id);
  if (cached) return cached;
  const asked = (async () => {
    const { admin } = clients(source.runtime);
    const headers = await googleAuthorization(source);
    const accounts = await accountSummaries(source, admin, headers);
    const properties = accounts.flatMap((account) =>
      account.propertySummaries.map((summary) => ({
        account: idOf(account.account),
        property: idOf(summary.property),
      })),
    );
    return Promise.all(
      properties.map(async (entry) => {
        const uris = await dataStreamUris(admin, headers, entry.property).catch((error: unknown) => {
          if (error instanceof ProviderError && error.kind === "input") return [];
          throw error;
        });
        return { ...entry, uris };
      }),
    );
  })();
  webPropertiesCache.set(source.id, asked);
  // A failure is not kept: the next request asks again.
  asked.catch(() => webPropertiesCache.delete(source.id));
  return asked;
}

/**
 * Whether pre-warm may ask for this GA4 widget instance now: not while its property is held, nor once
 * its tokens are down to the reserve kept for people looking at dashboards (./quota.ts). Instances of
 * other types are not GA4's to judge.
 */
export async function ga4PrewarmAllowed(
  counters: RateLimitStore,
  type: string,
  inputs: Readonly<Record<string, unknown>>,
): Promise<boolean> {
  if (type !== WIDGET_TYPE.type || typeof inputs.profile !== "string" || inputs.profile === "") return true;
  return (await propertyQuotaState(counters, inputs.profile, "core")).state === "open";
}

const requireText = (value: unknown, field: string, message: string): string => {
  if (typeof value === "string" && value !== "") return value;
  throw AppError.validation({ [field]: [message] });
};

export const googleAnalyticsConnector: Connector = {
  key: "googleAnalytics",
  logo,
  settings: googleSettings,
  prewarmAllowed: ga4PrewarmAllowed,
  displayName: "Google Analytics",
  order: 1,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: googleOAuthAdapter,
  settlingDays: GA4_SETTLING_DAYS,
  lagDays: GA4_LAG_DAYS,
  // Channels explain most traffic changes (the issue's own example); realtime has no history to ask.
  insightDimensions: { [WIDGET_TYPE.type]: { date: "date", breakdown: "sessionDefaultChannelGroup" } },
  describeFilter: (_type, inputs) => describeGa4Filter(inputs.filter),
  widgetTypes: [WIDGET_TYPE, REALTIME_TYPE],
  domainMetrics: ga4DomainMetrics(WIDGET_TYPE.type, ga4WebProperties),
  // Google's own description of the API, pinned in ./discovery (docs/connectors.md), for its tests and the live check.
  description: async () => (await import("./description")).description,
  missingConfig: (providers: ProvidersConfig) => missingGoogleConfig(providers),

  async options(kind, { source, form }): Promise<TOption[]> {
    const { data, admin } = clients(source.runtime);
    const headers = await googleAuthorization(source);
    if (kind === "properties") {
      return (await accountSummaries(source, admin, headers)).map((account) => ({
        value: idOf(account.account),
        label: account.displayName || idOf(account.account),
      }));
    }
    if (kind === "profiles") {
      const accountId = requireText(form.property, "property", "Choose an account first.");
      const account = (await accountSummaries(source, admin, headers)).find(
        (entry) => idOf(entry.account) === accountId,
      );
      return (account?.propertySummaries ?? []).map((property) => ({
        value: idOf(property.property),
        label: property.displayName || idOf(property.property),
      }));
    }
    if (form.type === REALTIME_TYPE.type && (kind === "metrics" || kind === "dimensions")) {
      return toOptions(kind === "metrics" ? REALTIME_METRICS : REALTIME_DIMENSIONS);
    }
    if (kind === "metrics" || kind === "dimensions") {
      const property = requireText(form.profile, "profile", "Choose a property first.");
      const metadata = await metadataOf(source, property, data, headers);
      const list = kind === "metrics" ? metadata.metrics : metadata.dimensions;
      return list.map((entry) => ({ value: entry.apiName, label: entry.uiName || entry.apiName }));
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, type, inputs, range }): Promise<TTable> {
    const { data } = clients(source.runtime);
    if (type === REALTIME_TYPE.type) return realtimeTable(source, data, inputs);
    const property = requireText(inputs.profile, "profile", "The profile field is required.");
    const metrics = Array.isArray(inputs.metrics) ? inputs.metrics.map(String).filter(Boolean) : [];
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const dimensionFilter = parseFilter(inputs.filter);
    const { report, headers } = await reportWithinQuota(source, property, "core", (headers) =>
      data.request({
        method: "POST",
        path: `/v1beta/properties/${encodeURIComponent(property)}:runReport`,
        headers,
        json: {
          dateRanges: [{ startDate: range.startDate, endDate: range.endDate }],
          dimensions: dimension ? [{ name: dimension }] : [],
          metrics: metrics.map((name) => ({ name })),
          ...(dimensionFilter && { dimensionFilter }),
          metricAggregations: ["TOTAL"],
          keepEmptyRows: dimension === "date",
          orderBys:
            dimension === "date"
              ? [{ dimension: { dimensionName: "date" } }]
              : [{ metric: { metricName: metrics[0] }, desc: true }],
          limit: dimension === "date" ? 1000 : 250,
          returnPropertyQuota: true,
        },
        schema: ZReport,
        limitKey: `property:${property}`,
      }),
    );
    // Names and types as the property's metadata gives them (cached per property for an hour): custom
    // metrics are the property's own. Without the metadata the report's headers give the types, and the
    // widget still draws.
    const metadata = await metadataOf(source, property, data, headers).catch(() => undefined);
    const described = (apiName: string) => metadata?.metrics.find((entry) => entry.apiName === apiName);
    const label = (apiName: string) => described(apiName)?.uiName || apiName;
    const headersOf = metrics.map((name) => {
      const header = report.metricHeaders.find((entry) => entry.name === name);
      return { name, type: described(name)?.type ?? header?.type ?? "TYPE_STANDARD" };
    });
    const currency = report.metadata.currencyCode ?? null;
    const table: TTable = {
      dimension: dimension
        ? {
            key: dimension,
            label: metadata?.dimensions.find((entry) => entry.apiName === dimension)?.uiName || dimension,
            kind: dimension === "date" ? "date" : "string",
          }
        : null,
      metrics: headersOf.map((header) => ({
        key: header.name,
        label: label(header.name),
        format: formatOf(header.name, header.type),
        ...(header.type === "TYPE_CURRENCY" && { currency }),
        ...(LOWER_IS_BETTER.has(header.name) && { lowerIsBetter: true }),
      })),
      // Without a dimension GA4 answers one row equal to the totals; the product's tables then have none.
      rows: (dimension ? report.rows : []).map((row) => {
        const raw = row.dimensionValues[0]?.value ?? "";
        return {
          dimension:
            dimension === "date" && /^\d{8}$/.test(raw) ? `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6)}` : raw,
          values: headersOf.map((header, index) =>
            metricValue(row.metricValues[index]?.value ?? "", header.name, header.type),
          ),
        };
      }),
      totals: headersOf.map((header, index) =>
        metricValue(report.totals[0]?.metricValues[index]?.value ?? "", header.name, header.type),
      ),
    };
    return table;
  },
};

/** `runRealtimeReport` over the last 30 minutes: minutes ago as a number dimension, active users and friends. */
async function realtimeTable(
  source: SourceHandle,
  data: ProviderClient,
  inputs: Readonly<Record<string, unknown>>,
): Promise<TTable> {
  const property = requireText(inputs.profile, "profile", "The profile field is required.");
  const metrics = (Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : []).filter((key) =>
    REALTIME_METRICS.some((metric) => metric.key === key),
  );
  if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
  const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
  const declared = REALTIME_DIMENSIONS.find((entry) => entry.key === dimension);
  if (dimension && !declared) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
  const { report } = await reportWithinQuota(source, property, "realtime", (headers) =>
    data.request({
      method: "POST",
      path: `/v1beta/properties/${encodeURIComponent(property)}:runRealtimeReport`,
      headers,
      json: {
        dimensions: declared ? [{ name: declared.key }] : [],
        metrics: metrics.map((name) => ({ name })),
        minuteRanges: [{ name: "last30", startMinutesAgo: 29, endMinutesAgo: 0 }],
        metricAggregations: ["TOTAL"],
        ...(declared?.key === "minutesAgo" && {
          orderBys: [{ dimension: { dimensionName: "minutesAgo", orderType: "NUMERIC" }, desc: true }],
        }),
        limit: 250,
        returnPropertyQuota: true,
      },
      schema: ZRealtimeReport,
      limitKey: `property:${property}`,
    }),
  );
  const number = (raw: string | undefined) =>
    raw === undefined || raw === "" || !Number.isFinite(Number(raw)) ? null : Number(raw);
  return {
    dimension: declared ? { key: declared.key, label: declared.label, kind: "string" } : null,
    metrics: metrics.map((key) => ({
      key,
      label: REALTIME_METRICS.find((metric) => metric.key === key)?.label ?? key,
      format: "number" as const,
    })),
    rows: declared
      ? report.rows.map((row) => ({
          dimension: row.dimensionValues[0]?.value ?? "",
          values: metrics.map((_, index) => number(row.metricValues[index]?.value)),
        }))
      : [],
    totals: metrics.map((_, index) => number(report.totals[0]?.metricValues[index]?.value)),
  };
}
