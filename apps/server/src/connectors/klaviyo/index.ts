import { createHash } from "node:crypto";
import type { TOption, TTable } from "@app/core";
import { shiftDay, todayInTimezone } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { createProviderClient, type ProviderClient, type QuotaBucket } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { cachedCurrency } from "../kit/currency";
import { daysOf, startOfDayIn } from "../kit/inputs";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { openApiLoader } from "../kit/openapi";
import { widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, CredentialsCheck, SourceHandle } from "../types";
import { classifyJsonApi } from "./classify";
import { logo } from "./logo";
import { klaviyoSettings } from "./settings";

/**
 * Klaviyo [beta] (docs/connectors.md): the account name plus a private API key, sent as
 * `Authorization: Klaviyo-API-Key …` with the `revision` header (KLAVIYO_REVISION). Campaign and flow
 * targets read the Reporting API's values reports (`POST /api/campaign-values-reports/`,
 * `/api/flow-values-reports/`), which need a conversion metric (the picker lists `GET /api/metrics/`);
 * flows over at most 60 days read one daily series report (`POST /api/flow-series-reports/`) covering
 * the range and its comparison together, shared by both periods' calls (see `flowSeries`);
 * the account target counts Klaviyo's own e-mail events by day (`POST /api/metric-aggregates/`), which
 * needs none (docs/product.md §5: the conversion metric is required only for campaign or flow targets).
 * The values reports allow about 225 requests a day per account: a daily and a per-minute bucket guard
 * them, and results are kept in the result store (`settlingDays`).
 */

const ZMetrics = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      attributes: z.object({
        name: z.string(),
        integration: z.object({ name: z.string().optional() }).nullish(),
      }),
    }),
  ),
  links: z.object({ next: z.string().nullish() }).partial().default({}),
});
const ZAccounts = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      attributes: z.object({
        contact_information: z.object({ organization_name: z.string().optional() }).partial().default({}),
        preferred_currency: z.string().optional(),
      }),
    }),
  ),
});
const ZValuesReport = z.object({
  data: z.object({
    attributes: z.object({
      results: z.array(
        z.object({
          groupings: z.record(z.string(), z.string().nullish()),
          statistics: z.record(z.string(), z.number().nullish()),
        }),
      ),
    }),
  }),
});
const ZSeriesReport = z.object({
  data: z.object({
    attributes: z.object({
      results: z.array(
        z.object({
          groupings: z.record(z.string(), z.string().nullish()),
          statistics: z.record(z.string(), z.array(z.number().nullish())),
        }),
      ),
      date_times: z.array(z.string()),
    }),
  }),
});
type SeriesReport = z.infer<typeof ZSeriesReport>["data"]["attributes"];
const ZAggregate = z.object({
  data: z.object({
    attributes: z.object({
      dates: z.array(z.string()),
      data: z.array(z.object({ measurements: z.record(z.string(), z.array(z.number())) })),
    }),
  }),
});
const ZNames = z.object({
  data: z.array(z.object({ id: z.string(), attributes: z.object({ name: z.string().default("") }) })),
  links: z.object({ next: z.string().nullish() }).partial().default({}),
});

/** Conversions keep being attributed for days after a send (Klaviyo's default window is 5 days). */
export const KLAVIYO_SETTLING_DAYS = 7;

type Target = "account" | "campaign" | "flow";

interface ReportMetric extends MetricDeclaration {
  format: "number" | "percent" | "money";
  /** A rate: a row shows Klaviyo's own (a fraction, shown ×100); the total is `of` over `per`. */
  rate?: { of: string; per: string };
}

/** Statistics of the values reports (Reporting API); rates over delivered as Klaviyo computes them. */
const REPORT_METRICS: ReportMetric[] = [
  { key: "recipients", label: "Recipients", format: "number" },
  { key: "delivered", label: "Delivered", format: "number" },
  { key: "opens_unique", label: "Unique opens", format: "number" },
  { key: "open_rate", label: "Open rate", format: "percent", rate: { of: "opens_unique", per: "delivered" } },
  { key: "clicks_unique", label: "Unique clicks", format: "number" },
  { key: "click_rate", label: "Click rate", format: "percent", rate: { of: "clicks_unique", per: "delivered" } },
  { key: "conversions", label: "Conversions", format: "number" },
  { key: "conversion_value", label: "Conversion value", format: "money" },
  {
    key: "conversion_rate",
    label: "Conversion rate",
    format: "percent",
    rate: { of: "conversion_uniques", per: "delivered" },
  },
  { key: "unsubscribes", label: "Unsubscribes", format: "number", lowerIsBetter: true },
  {
    key: "unsubscribe_rate",
    label: "Unsubscribe rate",
    format: "percent",
    lowerIsBetter: true,
    rate: { of: "unsubscribe_uniques", per: "delivered" },
  },
];

/** The account target: Klaviyo's own e-mail metrics (by their names in `/api/metrics/`), counted by day. */
const ACCOUNT_METRICS = [
  { key: "received", label: "Emails received", name: "Received Email" },
  { key: "opened", label: "Emails opened", name: "Opened Email" },
  { key: "clicked", label: "Emails clicked", name: "Clicked Email" },
  { key: "unsubscribed", label: "Unsubscribes", name: "Unsubscribed", lowerIsBetter: true },
];

const DIMENSIONS: Record<Target, { key: string; label: string }> = {
  account: { key: "date", label: "Date" },
  campaign: { key: "campaign", label: "Campaign" },
  flow: { key: "flow", label: "Flow" },
};

const TARGETS: TOption[] = [
  { value: "account", label: "Account" },
  { value: "campaign", label: "Campaigns" },
  { value: "flow", label: "Flows" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "klaviyo.report",
  label: "Klaviyo report",
  connector: "klaviyo",
  params: [
    { key: "target", label: "Report on", kind: "select", required: true, options: TARGETS },
    {
      key: "conversionMetric",
      label: "Conversion metric",
      kind: "select",
      required: true,
      remote: "conversionMetrics",
      unless: "target!:campaign|flow",
    },
    { key: "dimension", label: "Dimension", kind: "select", required: false, remote: "dimensions" },
    { key: "metrics", label: "Metrics", kind: "multiselect", required: true, remote: "metrics" },
  ],
});

/** A series answer asked for several periods, and the periods whose call has not taken it yet. */
interface SharedSeries {
  answer: Promise<SeriesReport>;
  pending: Set<string>;
}

/**
 * How long a flow series answer is kept for the other period's call: the two calls of one widget request
 * arrive together, so a minute is ample, and far shorter than a settled range is kept in the result store.
 */
const SERIES_SHARED_MS = 60_000;

/** One client per process: the per-key concurrency and Klaviyo's waits hold across requests. */
const clients = perRuntime((runtime: ConnectorRuntime) => ({
  data: createProviderClient({
    provider: "klaviyo",
    baseUrl: runtime.providers.klaviyo.apiUrl,
    classify: classifyJsonApi,
    counters: runtime.counters,
    concurrency: 2,
  }),
  verify: createProviderClient({
    provider: "klaviyo",
    baseUrl: runtime.providers.klaviyo.apiUrl,
    classify: classifyJsonApi,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 5000,
  }),
  currencies: new LRUCache<string, string>({ max: 1000, ttl: 3_600_000 }),
  /** Flow series answers asked for two periods, each kept until the other period's call takes it. */
  series: new LRUCache<string, SharedSeries>({ max: 500, ttl: SERIES_SHARED_MS }),
}));

/** Limits and caches count per Klaviyo account, named by a digest of its key (never the key itself). */
const keyId = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 16);

const headers = (runtime: ConnectorRuntime, key: string) => ({
  authorization: `Klaviyo-API-Key ${key}`,
  revision: runtime.providers.klaviyo.revision,
  accept: "application/vnd.api+json",
});

/**
 * The values reports: 1 a second in bursts, 2 a minute steady, 225 a day per account (Klaviyo's
 * reference for these endpoints). A used-up day is a quota: stored results are served until it resets.
 */
const reportQuotas = (account: string): QuotaBucket[] => [
  { key: `reports-minute:${account}`, max: 2, windowMs: 60_000, kind: "rate" },
  { key: `reports-day:${account}`, max: 225, windowMs: 86_400_000, kind: "quota" },
];
/**
 * The values and series reports' burst, 1 a second: each is sent a second after the account's previous
 * report answered, one at a time across processes (the client's `paceMs`), rather than counted and refused.
 */
const REPORTS_BURST_MS = 1_000;
/** metric-aggregates: 3 a second, 60 a minute steady. */
const aggregateQuotas = (account: string): QuotaBucket[] => [
  { key: `aggregates-minute:${account}`, max: 60, windowMs: 60_000, kind: "rate" },
];

interface Api {
  client: ProviderClient;
  headers: Record<string, string>;
  account: string;
  runtime: ConnectorRuntime;
}

function apiOf(source: SourceHandle): Api {
  const key = source.credentials.token ?? "";
  return {
    client: clients(source.runtime).data,
    headers: headers(source.runtime, key),
    account: keyId(key),
    runtime: source.runtime,
  };
}

/** Every page of a JSON:API list (`links.next` holds the next page's full address), at most `maxPages`. */
async function listAll<T extends { data: unknown[]; links: { next?: string | null } }>(
  api: Api,
  path: string,
  query: Record<string, string>,
  schema: z.ZodType<T>,
  maxPages = 20,
): Promise<T["data"]> {
  const items: T["data"] = [];
  let next: Record<string, string> | null = query;
  for (let page = 0; next && page < maxPages; page += 1) {
    const answer: T = await api.client.request({
      path,
      query: next,
      headers: api.headers,
      schema,
      limitKey: api.account,
    });
    items.push(...answer.data);
    const link = answer.links.next ? new URL(answer.links.next) : null;
    next = link ? Object.fromEntries(link.searchParams) : null;
  }
  return items;
}

async function metricsOf(api: Api) {
  return listAll(api, "/api/metrics/", {}, ZMetrics);
}

function currencyOf(api: Api): Promise<string | null> {
  return cachedCurrency(clients(api.runtime).currencies, api.account, async () => {
    const accounts = await api.client.request({
      path: "/api/accounts/",
      headers: api.headers,
      schema: ZAccounts,
      limitKey: api.account,
    });
    return accounts.data[0]?.attributes.preferred_currency;
  });
}

const targetOf = (value: unknown): Target | null =>
  value === "account" || value === "campaign" || value === "flow" ? value : null;

/**
 * Klaviyo reads timeframes as instants: the range is the viewer's days, from the start of the first to
 * the start of the day after the last in the dashboard's zone (exclusive), so a day means the same in
 * the values reports, the account counts and the viewer's calendar.
 */
const timeframe = (range: { startDate: string; endDate: string }, timezone: string) => ({
  start: startOfDayIn(range.startDate, timezone),
  end: startOfDayIn(shiftDay(range.endDate, 1), timezone),
});

/** The longest timeframe a values report takes (docs/connectors.md, "Klaviyo"): a year, as days. */
export const KLAVIYO_REPORT_MAX_DAYS = 365;

/** The range cut into consecutive windows of at most KLAVIYO_REPORT_MAX_DAYS days, oldest first. */
export function reportWindows(range: { startDate: string; endDate: string }) {
  const windows: { startDate: string; endDate: string }[] = [];
  for (let start = range.startDate; start <= range.endDate; ) {
    const last = shiftDay(start, KLAVIYO_REPORT_MAX_DAYS - 1);
    // The earlier of the two days (ISO days sort as text).
    const endDate = [last, range.endDate].sort()[0] ?? range.endDate;
    windows.push({ startDate: start, endDate });
    start = shiftDay(endDate, 1);
  }
  return windows;
}

async function valuesReport(
  api: Api,
  target: "campaign" | "flow",
  conversionMetric: string,
  metrics: ReportMetric[],
  named: boolean,
  range: { startDate: string; endDate: string },
  timezone: string,
) {
  const base = metrics.flatMap((metric) =>
    metric.rate ? [metric.key, metric.rate.of, metric.rate.per] : [metric.key],
  );
  const statistics = [...new Set(base)];
  // A timeframe of at most a year per report: a longer range is asked window by window, one after the
  // other (the allowance is 1 a second, 2 a minute), and the windows' counts added up below.
  const results: z.infer<typeof ZValuesReport>["data"]["attributes"]["results"] = [];
  for (const window of reportWindows(range)) {
    const report = await api.client.request({
      method: "POST",
      path: `/api/${target}-values-reports/`,
      headers: { ...api.headers, "content-type": "application/vnd.api+json" },
      json: {
        data: {
          type: `${target}-values-report`,
          attributes: {
            statistics,
            timeframe: timeframe(window, timezone),
            conversion_metric_id: conversionMetric,
            filter: 'equals(send_channel,"email")',
          },
        },
      },
      schema: ZValuesReport,
      limitKey: `reports:${api.account}`,
      paceMs: REPORTS_BURST_MS,
      quotas: reportQuotas(api.account),
    });
    results.push(...report.data.attributes.results);
  }
  // A campaign or flow may hold several messages: rows add up per campaign or flow.
  const idKey = `${target}_id`;
  const byId = new Map<string, Record<string, number>>();
  for (const result of results) {
    const id = result.groupings[idKey] ?? "";
    const sums = byId.get(id) ?? {};
    for (const name of statistics) {
      if (metrics.some((metric) => metric.key === name && metric.rate)) continue;
      sums[name] = (sums[name] ?? 0) + (result.statistics[name] ?? 0);
    }
    byId.set(id, sums);
  }
  return reportTable(api, target, metrics, named, byId);
}

/** The counts a report's metrics need: rates are computed from their parts, never added up. */
const countsOf = (metrics: ReportMetric[]) => [
  ...new Set(metrics.flatMap((metric) => (metric.rate ? [metric.rate.of, metric.rate.per] : [metric.key]))),
];

/** The longest timeframe a daily series report takes (docs/connectors.md, "Klaviyo"), as days. */
export const KLAVIYO_SERIES_MAX_DAYS = 60;

/** The span from the earliest start to the latest end of some ranges (ISO days sort as text). */
function spanOf(ranges: readonly { startDate: string; endDate: string }[]) {
  const startDate = ranges.map((range) => range.startDate).sort()[0] ?? "";
  const endDate = ranges
    .map((range) => range.endDate)
    .sort()
    .at(-1);
  return { startDate, endDate: endDate ?? startDate };
}

/**
 * Whether a daily series can cover the span: at most 60 days, measured as Klaviyo measures the timeframe
 * (instants), so a span of 60 days across a clock change that adds an hour does not qualify.
 */
function seriesFits(span: { startDate: string; endDate: string }, timezone: string): boolean {
  const frame = timeframe(span, timezone);
  return Date.parse(frame.end) - Date.parse(frame.start) <= KLAVIYO_SERIES_MAX_DAYS * 86_400_000;
}

const periodKey = (range: { startDate: string; endDate: string }) => `${range.startDate}..${range.endDate}`;

/**
 * Flow statistics by day over `span` from one series report. The range's and the comparison's calls ask
 * the same span with the same statistics: the first call asks, and its answer waits (at most
 * SERIES_SHARED_MS) for the other periods' calls, each taking it once. Any other call asks anew, so a
 * query asked again (a stale stored result refreshed) is never answered from an earlier request.
 */
function flowSeries(
  api: Api,
  conversionMetric: string,
  statistics: string[],
  span: { startDate: string; endDate: string },
  periods: { own: { startDate: string; endDate: string }; others: readonly { startDate: string; endDate: string }[] },
  timezone: string,
): Promise<SeriesReport> {
  const shared = clients(api.runtime).series;
  const key = JSON.stringify([api.account, conversionMetric, statistics, span.startDate, span.endDate, timezone]);
  const kept = shared.get(key);
  if (kept?.pending.delete(periodKey(periods.own))) {
    if (kept.pending.size === 0) shared.delete(key);
    return kept.answer;
  }
  const asked = api.client
    .request({
      method: "POST",
      path: "/api/flow-series-reports/",
      headers: { ...api.headers, "content-type": "application/vnd.api+json" },
      json: {
        data: {
          type: "flow-series-report",
          attributes: {
            statistics,
            timeframe: timeframe(span, timezone),
            interval: "daily",
            conversion_metric_id: conversionMetric,
            filter: 'equals(send_channel,"email")',
          },
        },
      },
      schema: ZSeriesReport,
      limitKey: `reports:${api.account}`,
      paceMs: REPORTS_BURST_MS,
      quotas: reportQuotas(api.account),
    })
    .then((report) => report.data.attributes);
  const pending = new Set(periods.others.map(periodKey).filter((other) => other !== periodKey(periods.own)));
  if (pending.size > 0) {
    shared.set(key, { answer: asked, pending });
    // A failure is not kept: the other periods' calls ask again.
    asked.catch(() => {
      if (shared.get(key)?.answer === asked) shared.delete(key);
    });
  }
  return asked;
}

/** Flows from the daily series: each day's counts added up per flow over the range's own days. */
async function flowSeriesReport(
  api: Api,
  conversionMetric: string,
  metrics: ReportMetric[],
  named: boolean,
  range: { startDate: string; endDate: string },
  span: { startDate: string; endDate: string; others: readonly { startDate: string; endDate: string }[] },
  timezone: string,
) {
  const statistics = countsOf(metrics);
  const series = await flowSeries(
    api,
    conversionMetric,
    statistics,
    span,
    { own: range, others: span.others },
    timezone,
  );
  // Each bucket starts at one of the viewer's midnights (the timeframe starts at one): its day is the
  // viewer's day twelve hours after that instant, so a bucket a clock change moved by an hour (24-hour
  // steps across it) still falls on its own day.
  const inRange = series.date_times.map((at) => {
    const day = todayInTimezone(timezone, new Date(Date.parse(at) + 12 * 3_600_000));
    return day >= range.startDate && day <= range.endDate;
  });
  const byId = new Map<string, Record<string, number>>();
  for (const result of series.results) {
    const id = result.groupings.flow_id ?? "";
    const sums = byId.get(id) ?? {};
    for (const name of statistics) {
      const values = result.statistics[name] ?? [];
      sums[name] =
        (sums[name] ?? 0) + values.reduce<number>((sum, v, index) => sum + (inRange[index] ? (v ?? 0) : 0), 0);
    }
    byId.set(id, sums);
  }
  return reportTable(api, "flow", metrics, named, byId);
}

/** A report's table from its counts per campaign or flow: rows named, rates from the summed counts. */
async function reportTable(
  api: Api,
  target: "campaign" | "flow",
  metrics: ReportMetric[],
  named: boolean,
  byId: Map<string, Record<string, number>>,
) {
  const value = (sums: Record<string, number>, metric: ReportMetric): number | null => {
    if (!metric.rate) return sums[metric.key] ?? 0;
    const per = sums[metric.rate.per] ?? 0;
    return per > 0 ? ((sums[metric.rate.of] ?? 0) / per) * 100 : null;
  };
  const all: Record<string, number> = {};
  for (const sums of byId.values())
    for (const [name, amount] of Object.entries(sums)) all[name] = (all[name] ?? 0) + amount;
  const totals = metrics.map((metric) => value(all, metric));
  if (!named) return { rows: [], totals };
  const names = new Map(
    (
      await listAll(
        api,
        target === "campaign" ? "/api/campaigns/" : "/api/flows/",
        target === "campaign"
          ? { filter: "equals(messages.channel,'email')", "fields[campaign]": "name" }
          : { "fields[flow]": "name" },
        ZNames,
        10,
      )
    ).map((entry) => [entry.id, entry.attributes.name]),
  );
  const rows = [...byId.entries()]
    .map(([id, sums]) => ({ dimension: names.get(id) || id, values: metrics.map((metric) => value(sums, metric)) }))
    .sort(
      (a, b) => (b.values[0] ?? -1) - (a.values[0] ?? -1) || String(a.dimension).localeCompare(String(b.dimension)),
    );
  return { rows, totals };
}

async function accountCounts(
  api: Api,
  metrics: (typeof ACCOUNT_METRICS)[number][],
  byDate: boolean,
  range: { startDate: string; endDate: string },
  timezone: string,
) {
  const known = await metricsOf(api);
  const frame = timeframe(range, timezone);
  const series = await Promise.all(
    metrics.map(async (metric) => {
      const found = known.find(
        (entry) => entry.attributes.name === metric.name && entry.attributes.integration?.name === "Klaviyo",
      );
      if (!found) return new Map<string, number>();
      const answer = await api.client.request({
        method: "POST",
        path: "/api/metric-aggregates/",
        headers: api.headers,
        json: {
          data: {
            type: "metric-aggregate",
            attributes: {
              metric_id: found.id,
              measurements: ["count"],
              interval: "day",
              page_size: 500,
              // Days are bucketed in this zone (the dates come back as its midnights): the viewer's.
              timezone,
              filter: [`greater-or-equal(datetime,${frame.start})`, `less-than(datetime,${frame.end})`],
            },
          },
        },
        schema: ZAggregate,
        limitKey: api.account,
        quotas: aggregateQuotas(api.account),
      });
      const counts = answer.data.attributes.data[0]?.measurements.count ?? [];
      return new Map(answer.data.attributes.dates.map((date, index) => [date.slice(0, 10), counts[index] ?? 0]));
    }),
  );
  const days = daysOf(range.startDate, range.endDate);
  const totals = series.map((counts) => days.reduce((sum, day) => sum + (counts.get(day) ?? 0), 0));
  const rows = byDate
    ? days.map((day) => ({ dimension: day, values: series.map((counts) => counts.get(day) ?? 0) }))
    : [];
  return { rows, totals };
}

export const klaviyoConnector: Connector = {
  key: "klaviyo",
  logo,
  settings: klaviyoSettings,
  displayName: "Klaviyo [beta]",
  order: 23,
  authKind: "account+token",
  available: true,
  note: "Beta.",
  settlingDays: KLAVIYO_SETTLING_DAYS,
  widgetTypes: [WIDGET_TYPE],
  // Klaviyo's OpenAPI document for the pinned revision, trimmed to the operations used (docs/connectors.md).
  description: openApiLoader(new URL("./openapi.json", import.meta.url), {
    ignoreTrailingSlash: true,
    sparseFieldsets: true,
  }),

  async verify({ credentials, runtime }: CredentialsCheck) {
    const key = credentials.token ?? "";
    const accounts = await clients(runtime).verify.request({
      path: "/api/accounts/",
      headers: headers(runtime, key),
      schema: ZAccounts,
      limitKey: keyId(key),
    });
    const account = accounts.data[0]?.attributes;
    if (account?.preferred_currency) clients(runtime).currencies.set(keyId(key), account.preferred_currency);
    const name = account?.contact_information.organization_name;
    return name ? { account: name } : undefined;
  },

  async options(kind, { source, form }) {
    const target = targetOf(form.target) ?? "campaign";
    if (kind === "metrics") {
      return target === "account"
        ? ACCOUNT_METRICS.map((metric) => ({ value: metric.key, label: metric.label }))
        : REPORT_METRICS.map((metric) => ({ value: metric.key, label: metric.label }));
    }
    if (kind === "dimensions") return [{ value: DIMENSIONS[target].key, label: DIMENSIONS[target].label }];
    if (kind !== "conversionMetrics") throw AppError.notFound("Unknown option list.");
    const metrics = await metricsOf(apiOf(source));
    return metrics
      .map((metric) => ({
        value: metric.id,
        label: metric.attributes.integration?.name
          ? `${metric.attributes.name} (${metric.attributes.integration.name})`
          : metric.attributes.name,
      }))
      .sort((a, b) => a.label.localeCompare(b.label));
  },

  async query({ source, inputs, range, timezone, companions }): Promise<TTable> {
    const target = targetOf(inputs.target);
    if (!target) throw AppError.validation({ target: ["The target field is required."] });
    const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const declared = DIMENSIONS[target];
    if (dimension && dimension !== declared.key) {
      throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    }
    const api = apiOf(source);
    const tableDimension = dimension
      ? {
          key: declared.key,
          label: declared.label,
          kind: target === "account" ? ("date" as const) : ("string" as const),
        }
      : null;
    if (target === "account") {
      const metrics = keys
        .map((key) => ACCOUNT_METRICS.find((metric) => metric.key === key))
        .filter((metric): metric is (typeof ACCOUNT_METRICS)[number] => metric !== undefined);
      if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
      const table = await accountCounts(api, metrics, dimension !== null, range, timezone);
      return {
        dimension: tableDimension,
        metrics: metrics.map((metric) => metricHeader({ ...metric, format: "number" }, null)),
        ...table,
      };
    }
    const conversionMetric = typeof inputs.conversionMetric === "string" ? inputs.conversionMetric : "";
    if (!conversionMetric)
      throw AppError.validation({ conversionMetric: ["The conversion metric field is required."] });
    const metrics = keys
      .map((key) => REPORT_METRICS.find((metric) => metric.key === key))
      .filter((metric): metric is ReportMetric => metric !== undefined);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    // Flows: one daily series over the range and its comparison when both fit in one (else the range
    // alone), so a widget with its comparison costs one report of the account's allowance, not two.
    const both = spanOf([range, ...(companions ?? [])]);
    const span = seriesFits(both, timezone)
      ? { ...both, others: companions ?? [] }
      : { ...spanOf([range]), others: [] };
    const table =
      target === "flow" && seriesFits(span, timezone)
        ? await flowSeriesReport(api, conversionMetric, metrics, dimension !== null, range, span, timezone)
        : await valuesReport(api, target, conversionMetric, metrics, dimension !== null, range, timezone);
    const currency = metrics.some((metric) => metric.format === "money") ? await currencyOf(api) : null;
    return { dimension: tableDimension, metrics: metrics.map((metric) => metricHeader(metric, currency)), ...table };
  },
};
