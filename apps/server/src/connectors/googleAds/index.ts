import type { TOption, TTable } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { classifyGoogle } from "../google/classify";
import type { GoogleProviderConfig } from "../google/settings";
import { googleSettings } from "../google/settings";
import { googleAuthorization, googleOAuthAdapter, missingGoogleConfig } from "../google/shared";
import { createProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError } from "../http/errors";
import { nextPacificMidnight, pacificDay } from "../http/google-reset";
import { perRuntime } from "../http/per-runtime";
import { cachedCurrency } from "../kit/currency";
import { widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, SourceHandle } from "../types";
import { logo } from "./logo";
import {
  type AdsRow,
  adLabel,
  dimensionOptions,
  idOf,
  metricOptions,
  planReport,
  REPORT_TYPES,
  type ReportType,
  tableOf,
  words,
  ZAdsRow,
} from "./report";

/**
 * Google Ads (docs/connectors.md): accounts from `customers:listAccessibleCustomers` and, under each
 * manager, GAQL `FROM customer_client`; campaigns, ad groups, ads and numbers from
 * `customers/{id}/googleAds:searchStream`. Every call carries the server's `developer-token`, and a
 * client reached through a manager carries the manager as `login-customer-id`. Required inputs
 * (docs/product.md §5): property (the account), reportType, metrics.
 */

/** Google Ads keeps attributing conversions to the days of their clicks; it reports 1–3 days late (docs/connectors.md). */
export const GOOGLE_ADS_SETTLING_DAYS = 3;
/** The days before today whose conversions are still arriving ("1–3 days late": docs/connectors.md, its Google Ads section). */
export const GOOGLE_ADS_LAG_DAYS = 2;

const ZAccessible = z.object({ resourceNames: z.array(z.string()).default([]) });
const ZClientRow = z.object({
  customerClient: z
    .object({
      id: z.union([z.string(), z.number()]).transform(String),
      descriptiveName: z.string(),
      currencyCode: z.string(),
      manager: z.boolean(),
      level: z.union([z.string(), z.number()]).transform(Number),
    })
    .partial()
    .optional(),
});

/** `searchStream` answers a JSON array of batches (up to 10,000 rows each); an empty answer is one batch without results. */
const streamOf = <T extends z.ZodTypeAny>(row: T) =>
  z.array(
    z.object({
      results: z.array(row).default([]),
      fieldMask: z.string().optional(),
      requestId: z.string().optional(),
    }),
  );

/** Managers' clients one level down: nested managers are listed only when the login reaches them directly. */
const CLIENTS_QUERY =
  "SELECT customer_client.id, customer_client.descriptive_name, customer_client.currency_code, customer_client.manager, customer_client.level FROM customer_client WHERE customer_client.level <= 1";

/** Accessible customers whose clients are listed: a login reaching more directly is not expected. */
const MAX_ACCESSIBLE = 50;

/**
 * An account as the property picker stores it. Google Ads answers for a client reached through a
 * manager only when the manager is named as `login-customer-id`, so the value carries both:
 * "managerId:clientId"; an account the login reaches directly is its id alone.
 */
export interface AdsAccount {
  customer: string;
  login: string | null;
}

export const accountValue = (customer: string, login: string | null): string =>
  login && login !== customer ? `${login}:${customer}` : customer;

export function accountOf(value: unknown): AdsAccount {
  if (typeof value !== "string" || value === "") {
    throw AppError.validation({ property: ["The property field is required."] });
  }
  const match = /^(?:(\d{1,20}):)?(\d{1,20})$/.exec(value);
  if (!match) throw AppError.validation({ property: ["The selected account is invalid."] });
  return { customer: match[2] as string, login: match[1] ?? null };
}

/** Customer ids as Google Ads shows them: 123-456-7890. */
export const formattedId = (id: string) => id.replace(/^(\d{3})(\d{3})(\d{4})$/, "$1-$2-$3");

const REPORT_OPTIONS: TOption[] = Object.entries(REPORT_TYPES).map(([value, type]) => ({ value, label: type.label }));

const WIDGET_TYPE = widgetTypeConfig({
  type: "googleAds.report",
  label: "Ads report",
  connector: "googleAds",
  params: [
    { key: "property", label: "Account", kind: "select", required: true, remote: "properties" },
    { key: "reportType", label: "Report", kind: "select", required: true, options: REPORT_OPTIONS },
    // Narrowing is nested: an ad group belongs to the chosen campaign, an ad to the chosen ad group.
    {
      key: "campaign",
      label: "Campaign",
      kind: "select",
      required: false,
      remote: "campaigns",
      children: [
        {
          key: "adGroup",
          label: "Ad group",
          kind: "select",
          required: false,
          remote: "adGroups",
          children: [{ key: "ad", label: "Ad", kind: "select", required: false, remote: "ads" }],
        },
      ],
    },
    { key: "dimension", label: "Dimension", kind: "select", required: false, remote: "dimensions" },
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "metrics" },
  ],
});

/** One client per process, so the per-account limit and Google's waits hold across requests. */
const client = perRuntime((runtime: ConnectorRuntime) =>
  createProviderClient({
    provider: "google-ads",
    baseUrl: runtime.providers.google.adsUrl,
    classify: classifyGoogle,
    counters: runtime.counters,
    concurrency: 5,
  }),
);

/**
 * The operations per day of the server's access level (GOOGLE_ADS_ACCESS_LEVEL: Explorer 2,880, Basic
 * 15,000), shared by every source of this server and counted before each call, the pickers' included
 * (Google counts every request, a query as one): once spent, the stored results are served until the
 * count resets. Google resets it at midnight Pacific time, so the counter is the Pacific day's (its key
 * names the day) and lasts until that midnight, not a rolling 24 hours from the first call.
 */
export const adsOperationsBucket = (max: number, now: number): QuotaBucket => ({
  key: `developer-token:${pacificDay(now).day}`,
  max,
  windowMs: Math.max(1, nextPacificMidnight(now) - now),
  kind: "quota",
});

/** The bucket every call spends from; none under Standard access, whose operations Google does not cap. */
const operations = (google: GoogleProviderConfig): QuotaBucket[] =>
  google.adsDailyOperations === null ? [] : [adsOperationsBucket(google.adsDailyOperations, Date.now())];

async function adsHeaders(source: SourceHandle, login: string | null): Promise<Record<string, string>> {
  const token = source.runtime.providers.google.adsDeveloperToken;
  if (!token) {
    throw new ProviderError("google-ads", "server", "GOOGLE_ADS_DEVELOPER_TOKEN is not set", { retryable: false });
  }
  return {
    ...(await googleAuthorization(source)),
    "developer-token": token,
    ...(login && { "login-customer-id": login }),
  };
}

/** One GAQL query's rows, all batches together. */
async function search<T extends z.ZodTypeAny>(
  source: SourceHandle,
  account: AdsAccount,
  query: string,
  row: T,
): Promise<z.infer<T>[]> {
  const google = source.runtime.providers.google;
  const batches = await client(source.runtime).request({
    method: "POST",
    path: `/${google.adsVersion}/customers/${account.customer}/googleAds:searchStream`,
    headers: await adsHeaders(source, account.login),
    json: { query },
    schema: streamOf(row),
    limitKey: `customer:${account.customer}`,
    quotas: operations(google),
  });
  return batches.flatMap((batch) => batch.results as z.infer<T>[]);
}

/** The accounts a login can report on: the ones it reaches directly and its managers' clients, never a manager (it has no metrics of its own). */
async function accounts(source: SourceHandle): Promise<TOption[]> {
  const google = source.runtime.providers.google;
  const accessible = await client(source.runtime).request({
    path: `/${google.adsVersion}/customers:listAccessibleCustomers`,
    headers: await adsHeaders(source, null),
    schema: ZAccessible,
    limitKey: `source:${source.id}`,
    quotas: operations(google),
  });
  const ids = accessible.resourceNames
    .map((name) => name.split("/").pop() ?? "")
    .filter((id) => /^\d+$/.test(id))
    .slice(0, MAX_ACCESSIBLE);
  const trees = await Promise.all(
    ids.map((id) =>
      search(source, { customer: id, login: id }, CLIENTS_QUERY, ZClientRow).then(
        (rows) => ({ id, rows }),
        (error: unknown) => {
          // An accessible account that cannot be read (cancelled, access being removed) hides only itself.
          if (error instanceof ProviderError && error.kind === "input") return { id, rows: [] };
          throw error;
        },
      ),
    ),
  );
  const offered = new Map<string, { login: string | null; name: string }>();
  for (const { id, rows } of trees) {
    for (const { customerClient: entry } of rows) {
      if (!entry?.id || entry.manager) continue;
      // Level 0 is the accessible account itself: reached directly, without a manager.
      const login = entry.level === 0 ? null : id;
      const known = offered.get(entry.id);
      if (!known || (known.login !== null && login === null)) {
        offered.set(entry.id, { login, name: entry.descriptiveName ?? "" });
      }
    }
  }
  return [...offered.entries()]
    .map(([id, entry]) => ({
      value: accountValue(id, entry.login),
      label: entry.name ? `${entry.name} (${formattedId(id)})` : formattedId(id),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Paused campaigns and groups stay choosable (their history counts); removed ones are left out. */
const statusSuffix = (status: string | undefined) =>
  status && status !== "ENABLED" ? ` (${words(status).toLowerCase()})` : "";

async function entities(kind: string, source: SourceHandle, form: Record<string, unknown>): Promise<TOption[]> {
  const account = accountOf(form.property);
  if (kind === "campaigns") {
    const rows = await search(
      source,
      account,
      "SELECT campaign.id, campaign.name, campaign.status FROM campaign WHERE campaign.status != 'REMOVED' ORDER BY campaign.name",
      ZAdsRow,
    );
    return rows.map((row: AdsRow) => ({
      value: row.campaign?.id ?? "",
      label: `${row.campaign?.name ?? row.campaign?.id ?? ""}${statusSuffix(row.campaign?.status)}`,
    }));
  }
  if (kind === "adGroups") {
    const campaign = idOf(form.campaign, "campaign");
    if (!campaign) throw AppError.validation({ campaign: ["Choose a campaign first."] });
    const rows = await search(
      source,
      account,
      `SELECT ad_group.id, ad_group.name, ad_group.status FROM ad_group WHERE campaign.id = ${campaign} AND ad_group.status != 'REMOVED' ORDER BY ad_group.name`,
      ZAdsRow,
    );
    return rows.map((row: AdsRow) => ({
      value: row.adGroup?.id ?? "",
      label: `${row.adGroup?.name ?? row.adGroup?.id ?? ""}${statusSuffix(row.adGroup?.status)}`,
    }));
  }
  const adGroup = idOf(form.adGroup, "adGroup");
  if (!adGroup) throw AppError.validation({ adGroup: ["Choose an ad group first."] });
  const rows = await search(
    source,
    account,
    `SELECT ad_group_ad.ad.id, ad_group_ad.ad.name, ad_group_ad.ad.type FROM ad_group_ad WHERE ad_group.id = ${adGroup} AND ad_group_ad.status != 'REMOVED'`,
    ZAdsRow,
  );
  return rows.map((row: AdsRow) => ({ value: row.adGroupAd?.ad?.id ?? "", label: adLabel(row.adGroupAd?.ad) }));
}

/** Account currencies in this process for a day: they never change once an account is made. */
const currencyCache = perRuntime(() => new LRUCache<string, string>({ max: 5000, ttl: 86_400_000 }));

/** The account's currency when a report had no rows to carry it (one more operation, then cached). */
function currencyOf(source: SourceHandle, account: AdsAccount): Promise<string | null> {
  return cachedCurrency(currencyCache(source.runtime), account.customer, async () => {
    const rows = await search(source, account, "SELECT customer.currency_code FROM customer", ZAdsRow);
    return rows[0]?.customer?.currencyCode;
  });
}

const reportTypeIn = (form: Record<string, unknown>): ReportType | null =>
  typeof form.reportType === "string" && form.reportType in REPORT_TYPES ? (form.reportType as ReportType) : null;

export const googleAdsConnector: Connector = {
  key: "googleAds",
  logo,
  settings: googleSettings,
  displayName: "Google Ads",
  order: 3,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: googleOAuthAdapter,
  settlingDays: GOOGLE_ADS_SETTLING_DAYS,
  lagDays: GOOGLE_ADS_LAG_DAYS,
  // Every report type offers the date and the campaign (report.ts, DIMENSIONS).
  insightDimensions: { "googleAds.report": { date: "date", breakdown: "campaign" } },
  widgetTypes: [WIDGET_TYPE],
  // Google's own description of the API, pinned in ./description (docs/connectors.md), for its tests and the live check.
  description: async () => (await import("./description")).description,
  missingConfig: (providers: ProvidersConfig) => [
    ...missingGoogleConfig(providers),
    ...(providers.google.adsDeveloperToken ? [] : ["GOOGLE_ADS_DEVELOPER_TOKEN"]),
  ],

  async options(kind, { source, form }): Promise<TOption[]> {
    if (kind === "metrics") return metricOptions();
    if (kind === "dimensions") return dimensionOptions(reportTypeIn(form));
    if (kind === "properties") return accounts(source);
    if (kind === "campaigns" || kind === "adGroups" || kind === "ads") return entities(kind, source, form);
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const account = accountOf(inputs.property);
    const plan = planReport(inputs, range);
    const rows = await search(source, account, plan.query, ZAdsRow);
    let currency = rows.find((row: AdsRow) => row.customer?.currencyCode)?.customer?.currencyCode ?? null;
    if (currency) currencyCache(source.runtime).set(account.customer, currency);
    else if (plan.metrics.some((metric) => metric.format === "money")) currency = await currencyOf(source, account);
    return tableOf(plan, rows, range, currency);
  },
};
