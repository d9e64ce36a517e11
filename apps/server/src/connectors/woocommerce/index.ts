import type { TTable } from "@app/core";
import { daysBetween } from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { createProviderClient, type ProviderClient, type ProviderRequest } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import { cachedCurrency } from "../kit/currency";
import { daysOf } from "../kit/inputs";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";
import { numberedPages } from "../kit/paging";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, ConnectorRuntime, CredentialsCheck, SourceHandle } from "../types";
import { classifyWooCommerce, isWordPressNoRoute } from "./classify";
import { wooCommerceDescriptionLoader } from "./description";
import { logo } from "./logo";

/**
 * WooCommerce (docs/connectors.md): the shop's own WordPress REST API at the site address the user
 * typed, with a consumer key and secret (`consumer key|consumer secret`, HTTP Basic over HTTPS, or in the
 * query string where the host strips the Authorization header: `shopRequest`). Numbers
 * come from WooCommerce Analytics (`wc-analytics/reports/revenue/stats` and `orders/stats` by day, the
 * `reports/products` and `reports/categories` leaderboards); a shop without Analytics (WooCommerce Admin
 * switched off, WooCommerce before 4.0) answers `rest_no_route`, and the legacy `wc/v3/reports/sales`
 * serves what it can. The address is user-supplied, so every request goes through the outbound guard:
 * no private, loopback or link-local address (after DNS), no redirect followed, HTTPS only (plain HTTP
 * only for hosts the operator allow-listed in OUTBOUND_ALLOW_HOSTS, which is how the tests reach the fake).
 */

const ZMoney = z.union([z.number(), z.string()]).transform((value) => Number(value) || 0);
const ZSubtotals = z.record(z.string(), z.unknown());
const ZStats = z.object({
  totals: ZSubtotals,
  intervals: z.array(z.object({ interval: z.string(), date_start: z.string(), subtotals: ZSubtotals })).default([]),
});
const ZLeaders = z.array(
  z.object({
    product_id: z.number().optional(),
    category_id: z.number().optional(),
    items_sold: z.number().default(0),
    net_revenue: ZMoney.default(0),
    orders_count: z.number().default(0),
    extended_info: z.object({ name: z.string().optional() }).partial().default({}),
  }),
);
const ZLegacyDay = z.object({
  sales: ZMoney,
  orders: z.number(),
  items: z.number(),
  tax: ZMoney,
  shipping: ZMoney,
  discount: ZMoney,
});
type LegacyDay = z.infer<typeof ZLegacyDay>;
const ZLegacySales = z.array(
  z.object({
    total_sales: ZMoney,
    net_sales: ZMoney,
    total_orders: z.number(),
    total_items: z.number(),
    total_tax: ZMoney,
    total_shipping: ZMoney,
    total_refunds: ZMoney,
    total_discount: ZMoney,
    // PHP's empty array: `[]` rather than `{}` for a range without days.
    totals: z
      .union([z.record(z.string(), ZLegacyDay), z.array(z.never()).transform((): Record<string, LegacyDay> => ({}))])
      .default({}),
  }),
);
type LegacySales = z.infer<typeof ZLegacySales>[number];
const ZSystemStatus = z.object({
  environment: z.object({ site_url: z.string().optional() }).partial().default({}),
  settings: z.object({ currency: z.string().optional() }).partial().default({}),
});

/**
 * Orders and refunds keep changing for days after they happen (late payments, refunds, the Analytics
 * import running through Action Scheduler): a day is stored as final after a week.
 */
export const WOOCOMMERCE_SETTLING_DAYS = 7;

interface Metric extends MetricDeclaration {
  format: "money" | "number";
  /** The Analytics report holding it: revenue/stats or orders/stats. */
  report: "revenue" | "orders";
  /** Its field in the products and categories leaderboards, when they have it. */
  leader?: "net_revenue" | "items_sold" | "orders_count";
  /** From the legacy sales report: its totals and, when it reports it by day, one day. */
  legacy?: { total: (sales: LegacySales) => number | null; day?: (day: LegacyDay) => number };
}

const METRICS: Metric[] = [
  {
    key: "net_revenue",
    label: "Net sales",
    format: "money",
    report: "revenue",
    leader: "net_revenue",
    legacy: { total: (sales) => sales.net_sales },
  },
  { key: "gross_sales", label: "Gross sales", format: "money", report: "revenue" },
  {
    key: "total_sales",
    label: "Total sales",
    format: "money",
    report: "revenue",
    legacy: { total: (sales) => sales.total_sales, day: (day) => day.sales },
  },
  {
    key: "orders_count",
    label: "Orders",
    format: "number",
    report: "revenue",
    leader: "orders_count",
    legacy: { total: (sales) => sales.total_orders, day: (day) => day.orders },
  },
  {
    key: "num_items_sold",
    label: "Items sold",
    format: "number",
    report: "revenue",
    leader: "items_sold",
    legacy: { total: (sales) => sales.total_items, day: (day) => day.items },
  },
  {
    key: "avg_order_value",
    label: "Average order value",
    format: "money",
    report: "orders",
    legacy: { total: (sales) => (sales.total_orders > 0 ? sales.total_sales / sales.total_orders : null) },
  },
  {
    key: "refunds",
    label: "Returns",
    format: "money",
    lowerIsBetter: true,
    report: "revenue",
    legacy: { total: (sales) => sales.total_refunds },
  },
  {
    key: "coupons",
    label: "Coupons",
    format: "money",
    report: "revenue",
    legacy: { total: (sales) => sales.total_discount, day: (day) => day.discount },
  },
  {
    key: "taxes",
    label: "Taxes",
    format: "money",
    report: "revenue",
    legacy: { total: (sales) => sales.total_tax, day: (day) => day.tax },
  },
  {
    key: "shipping",
    label: "Shipping",
    format: "money",
    report: "revenue",
    legacy: { total: (sales) => sales.total_shipping, day: (day) => day.shipping },
  },
  { key: "num_new_customers", label: "New customers", format: "number", report: "orders" },
  { key: "num_returning_customers", label: "Returning customers", format: "number", report: "orders" },
];
const DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "product", label: "Product" },
  { key: "category", label: "Product category" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "woocommerce.sales",
  label: "Sales",
  connector: "woocommerce",
  params: [dimensionParam(DIMENSIONS), metricsParam(METRICS)],
});

/** Analytics answers at most 100 intervals or rows a page (`per_page`'s maximum). */
const PAGE_SIZE = 100;
/** Leaderboards stop after this many pages (the 500 best sellers): a widget shows far fewer. */
const LEADER_PAGES = 5;

/** The shop's address as typed, made canonical: `https://host[/path]` without a trailing slash. */
export function siteAddress(raw: string, allow: readonly string[]): string {
  const typed = raw.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`);
  } catch {
    throw AppError.validation({ site: ["The site must be the shop's address, such as https://shop.example.com."] });
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  // Basic auth sends the secret with every request; WooCommerce itself refuses it over plain HTTP. Only a
  // host the operator allow-listed (the test fakes, an intranet shop) may be reached without TLS.
  const plainAllowed = url.protocol === "http:" && allow.includes(host);
  if (url.protocol !== "https:" && !plainAllowed) {
    throw AppError.validation({
      site: ["The site must be an https:// address: the key and secret travel with every request."],
    });
  }
  if (url.username || url.password) {
    throw AppError.validation({ site: ["The site address must not contain a user name or password."] });
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}

/** `consumer key|consumer secret`, split. */
function keyPair(token: string): { key: string; secret: string } {
  const [key = "", secret = ""] = token.split("|").map((part) => part.trim());
  return { key, secret };
}

/**
 * How long a shop whose host strips the Authorization header is asked with the key in the query string
 * straight away (one refused request saved per call; a host that changes its set-up is found again then).
 */
const KEY_IN_QUERY_MS = 24 * 3_600_000;

/**
 * Per process (runtime), per shop: one client for data requests (retried) and one for the sources
 * form's check (one attempt, five seconds); shared hosting is easily overwhelmed, so four at a time.
 * Also kept for an hour: the shop's currency, and that it has no Analytics routes (legacy report only).
 */
const shops = perRuntime((runtime: ConnectorRuntime) => {
  const made = new LRUCache<string, ProviderClient>({ max: 1000 });
  return {
    client(site: string, purpose: "data" | "verify"): ProviderClient {
      const key = `${purpose} ${site}`;
      let client = made.get(key);
      if (!client) {
        client = createProviderClient({
          provider: "woocommerce",
          baseUrl: site,
          classify: classifyWooCommerce,
          counters: runtime.counters,
          concurrency: 4,
          userSuppliedHost: { allow: runtime.outboundAllowHosts },
          ...(purpose === "verify" ? { attempts: 1, timeoutMs: 5000 } : {}),
        });
        made.set(key, client);
      }
      return client;
    },
    currencies: new LRUCache<string, string>({ max: 1000, ttl: 3_600_000 }),
    withoutAnalytics: new LRUCache<string, true>({ max: 1000, ttl: 3_600_000 }),
    /** Shops (by address) whose host strips the Authorization header: the key goes in the query string. */
    keyInQuery: new LRUCache<string, true>({ max: 1000, ttl: KEY_IN_QUERY_MS }),
  };
});

interface Shop {
  site: string;
  api: ProviderClient;
  known: ReturnType<typeof shops>;
  key: string;
  secret: string;
}

function shopOf(source: SourceHandle): Shop {
  const site = siteAddress(source.credentials.site ?? "", source.runtime.outboundAllowHosts);
  const known = shops(source.runtime);
  return { site, api: known.client(site, "data"), known, ...keyPair(source.credentials.token ?? "") };
}

/**
 * WooCommerce's answer when no key reached it: over HTTPS it reads the key from the Authorization header
 * or the query string and, finding neither, serves the request as a visitor's, which the route refuses
 * with 401 `woocommerce_rest_cannot_view` (a key that arrived but lacks read access is 403; a wrong one
 * `woocommerce_rest_authentication_error`). See docs/connectors.md, "WooCommerce".
 */
const isKeyMissing = (error: unknown): error is ProviderError =>
  error instanceof ProviderError && error.httpStatus === 401 && error.reason.endsWith("(woocommerce_rest_cannot_view)");

/**
 * One request to the shop with its key: HTTP Basic first; when the answer says no key arrived (hosts and
 * proxies that strip the Authorization header), the key and secret again as `consumer_key` and
 * `consumer_secret` in the query string, which WooCommerce documents for exactly this case, and only over
 * HTTPS (over plain HTTP the secret would sit in every proxy's log, and WooCommerce ignores it there
 * anyway). A shop where that worked is asked that way straight away for a day (`keyInQuery`).
 */
async function shopRequest<T>(shop: Shop, request: Omit<ProviderRequest<T>, "headers" | "limitKey">): Promise<T> {
  const inQuery = () =>
    shop.api.request({
      ...request,
      query: { ...request.query, consumer_key: shop.key, consumer_secret: shop.secret },
      limitKey: shop.site,
    });
  if (shop.known.keyInQuery.has(shop.site)) return inQuery();
  const basic = `Basic ${Buffer.from(`${shop.key}:${shop.secret}`).toString("base64")}`;
  try {
    return await shop.api.request({ ...request, headers: { authorization: basic }, limitKey: shop.site });
  } catch (error) {
    if (!isKeyMissing(error)) throw error;
    if (!shop.site.startsWith("https:")) {
      // The address is what needs changing, not the key: an `input` failure on `site`, so the source is
      // not marked invalid (re-authorising with the same address could not help).
      throw new ProviderError(
        "woocommerce",
        "input",
        "the shop did not receive the key: its host or a proxy in front of it removes the Authorization header. " +
          "Over https:// the key would be sent in the address instead; over http:// that would expose the secret, " +
          "so connect the shop's https:// address or ask the host to pass the Authorization header on",
        { httpStatus: error.httpStatus, field: "site" },
      );
    }
    const answer = await inQuery();
    shop.known.keyInQuery.set(shop.site, true);
    return answer;
  }
}

/** Every page of a paged route: the first page's `X-WP-TotalPages` says how many follow (at most `maxPages`). */
async function shopPages<T>(
  shop: Shop,
  path: string,
  query: Record<string, string | number>,
  schema: z.ZodType<T>,
  maxPages: number,
): Promise<T[]> {
  let pages = 1;
  return numberedPages(
    maxPages,
    (page) =>
      shopRequest(shop, {
        path,
        query: { ...query, per_page: PAGE_SIZE, page },
        schema,
        onHeaders: (headers) => {
          if (page === 1) pages = Number(headers.get("x-wp-totalpages") ?? "1") || 1;
        },
      }),
    () => pages,
  );
}

function currencyOf(shop: Shop): Promise<string | null> {
  return cachedCurrency(shop.known.currencies, shop.site, async () => {
    const status = await shopRequest(shop, {
      path: "/wp-json/wc/v3/system_status",
      query: { _fields: "environment,settings" },
      schema: ZSystemStatus,
    });
    return status.settings.currency;
  });
}

const numberOf = (value: unknown): number | null => {
  if (value === null || value === undefined || value === "") return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
};

/** Analytics' `after`/`before` are the shop's local time (ISO 8601 without an offset), as its reports are. */
const window = (start: string, end: string) => ({ after: `${start}T00:00:00`, before: `${end}T23:59:59` });

async function analytics(
  shop: Shop,
  metrics: Metric[],
  dimension: string | null,
  range: { startDate: string; endDate: string },
) {
  const reports = new Set(metrics.map((metric) => metric.report));
  // Totals come from revenue/stats whenever a leaderboard is asked: the shop's whole, not the best sellers'.
  if (dimension === "product" || dimension === "category") reports.add("revenue");
  const maxPages = dimension === "date" ? Math.ceil((daysBetween(range.startDate, range.endDate) + 1) / PAGE_SIZE) : 1;
  const stats = async (report: "revenue" | "orders") => {
    const pages = await shopPages(
      shop,
      `/wp-json/wc-analytics/reports/${report}/stats`,
      { interval: "day", order: "asc", ...window(range.startDate, range.endDate) },
      ZStats,
      maxPages,
    );
    const byDay = new Map<string, Record<string, unknown>>();
    for (const page of pages) for (const entry of page.intervals) byDay.set(entry.interval, entry.subtotals);
    return { totals: pages[0]?.totals ?? {}, byDay };
  };
  const [revenue, orders] = await Promise.all([
    reports.has("revenue") ? stats("revenue") : null,
    reports.has("orders") ? stats("orders") : null,
  ]);
  const of = (metric: Metric) => (metric.report === "revenue" ? revenue : orders);
  const totals = metrics.map((metric) => numberOf(of(metric)?.totals[metric.key]));
  if (dimension === "date") {
    const rows = daysOf(range.startDate, range.endDate).map((day) => ({
      dimension: day,
      values: metrics.map((metric) => numberOf(of(metric)?.byDay.get(day)?.[metric.key]) ?? 0),
    }));
    return { rows, totals };
  }
  if (dimension === "product" || dimension === "category") {
    const pages = await shopPages(
      shop,
      `/wp-json/wc-analytics/reports/${dimension === "product" ? "products" : "categories"}`,
      { orderby: "net_revenue", order: "desc", extended_info: "true", ...window(range.startDate, range.endDate) },
      ZLeaders,
      LEADER_PAGES,
    );
    const rows = pages.flat().map((entry) => ({
      dimension: entry.extended_info.name || `#${entry.product_id ?? entry.category_id ?? "?"}`,
      values: metrics.map((metric) => (metric.leader ? entry[metric.leader] : null)),
    }));
    return { rows, totals };
  }
  return { rows: [], totals };
}

/** The legacy `wc/v3/reports/sales` (shops without Analytics): totals, and by day what it reports by day. */
async function legacy(
  shop: Shop,
  metrics: Metric[],
  dimension: string | null,
  range: { startDate: string; endDate: string },
) {
  const [sales] = await shopRequest(shop, {
    path: "/wp-json/wc/v3/reports/sales",
    query: { date_min: range.startDate, date_max: range.endDate },
    schema: ZLegacySales,
  });
  const totals = metrics.map((metric) => (sales && metric.legacy ? metric.legacy.total(sales) : null));
  if (dimension !== "date") return { rows: [], totals };
  const rows = daysOf(range.startDate, range.endDate).map((day) => ({
    dimension: day,
    values: metrics.map((metric) => {
      const pick = metric.legacy?.day;
      if (!pick) return null;
      const entry = sales?.totals[day];
      return entry ? pick(entry) : 0;
    }),
  }));
  return { rows, totals };
}

export const wooCommerceConnector: Connector = {
  key: "woocommerce",
  logo,
  displayName: "WooCommerce",
  order: 16,
  authKind: "site+key|secret",
  available: true,
  note: null,
  settlingDays: WOOCOMMERCE_SETTLING_DAYS,
  widgetTypes: [WIDGET_TYPE],
  description: wooCommerceDescriptionLoader,

  async verify({ credentials, runtime }: CredentialsCheck) {
    const site = siteAddress(credentials.site ?? "", runtime.outboundAllowHosts);
    try {
      // system_status needs the same read access as the reports (a manager's key) and names the shop.
      const known = shops(runtime);
      const shop: Shop = { site, api: known.client(site, "verify"), known, ...keyPair(credentials.token ?? "") };
      const status = await shopRequest(shop, {
        path: "/wp-json/wc/v3/system_status",
        query: { _fields: "environment,settings" },
        schema: ZSystemStatus,
      });
      if (status.settings.currency) known.currencies.set(site, status.settings.currency);
      return { account: new URL(status.environment.site_url || site).host };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (isWordPressNoRoute(error)) {
        throw new ProviderError("woocommerce", "input", `this site has no WooCommerce REST API (${error.reason})`, {
          field: "site",
        });
      }
      if (error.httpStatus !== null) throw error;
      // No HTTP answer: an address the outbound guard refused, or a site that cannot be reached.
      if (error.kind === "input") {
        throw AppError.validation({ site: [`${error.reason}: only shops on the public internet can be connected.`] });
      }
      throw AppError.validation({ site: [`The site could not be reached (${error.reason}).`] });
    }
  },

  async options(kind) {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const metrics = (Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [])
      .map((key) => METRICS.find((metric) => metric.key === key))
      .filter((metric): metric is Metric => metric !== undefined);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const declared = DIMENSIONS.find((entry) => entry.key === dimension);
    if (dimension && !declared) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    if ((dimension === "product" || dimension === "category") && metrics.some((metric) => !metric.leader)) {
      throw AppError.validation({
        metrics: [`Only net sales, orders and items sold can be split by ${declared?.label.toLowerCase()}.`],
      });
    }
    const shop = shopOf(source);
    let table: { rows: TTable["rows"]; totals: (number | null)[] };
    if (shop.known.withoutAnalytics.has(shop.site)) table = await legacyOrRefuse(shop, metrics, dimension, range);
    else {
      try {
        table = await analytics(shop, metrics, dimension, range);
      } catch (error) {
        if (!(error instanceof ProviderError) || !isWordPressNoRoute(error)) throw error;
        shop.known.withoutAnalytics.set(shop.site, true);
        table = await legacyOrRefuse(shop, metrics, dimension, range);
      }
    }
    const currency = metrics.some((metric) => metric.format === "money") ? await currencyOf(shop) : null;
    return {
      dimension: declared
        ? { key: declared.key, label: declared.label, kind: declared.key === "date" ? "date" : "string" }
        : null,
      metrics: metrics.map((metric) => metricHeader(metric, currency)),
      rows: table.rows,
      totals: table.totals,
    };
  },
};

/** The legacy report cannot split by product or category: say so rather than show nothing. */
function legacyOrRefuse(
  shop: Shop,
  metrics: Metric[],
  dimension: string | null,
  range: { startDate: string; endDate: string },
) {
  if (dimension === "product" || dimension === "category") {
    throw AppError.validation({
      dimension: ["This shop has no WooCommerce Analytics, so sales cannot be split by product or category."],
    });
  }
  return legacy(shop, metrics, dimension, range);
}
