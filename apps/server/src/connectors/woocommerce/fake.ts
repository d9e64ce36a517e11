import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault } from "../../../test/fakes/kit";

/**
 * A WooCommerce shop's WordPress REST API, as a part of the fakes app (./app.ts), answering in the shapes of:
 * - WooCommerce Analytics: https://woocommerce.com/wc-apidocs/files/woocommerce-src-admin-api-reports-revenue-stats-controller.html
 *   (`GET /wp-json/wc-analytics/reports/revenue/stats` and `orders/stats`: `{totals, intervals[{interval,
 *   date_start, subtotals}]}`, `interval`, `after`/`before` in the shop's time, `per_page` ≤ 100, paging
 *   headers `X-WP-Total`/`X-WP-TotalPages`; `reports/products` and `reports/categories` with `extended_info`),
 * - the legacy sales report: https://woocommerce.github.io/code-reference/files/woocommerce-includes-rest-api-controllers-version1-class-wc-rest-report-sales-v1-controller.html
 *   (`GET /wp-json/wc/v3/reports/sales?date_min&date_max`: `[{total_sales, net_sales, …, totals{day: {…}}}]`),
 * - `GET /wp-json/wc/v3/system_status` (settings.currency, environment.site_url), and WordPress' errors
 *   `{code, message, data: {status}}`: a wrong consumer key or secret is 401
 *   `woocommerce_rest_authentication_error`, no credentials 401 `woocommerce_rest_cannot_view`, a bad
 *   parameter 400 `rest_invalid_param`, an unknown route 404 `rest_no_route`.
 * Three shops live on the fakes' origin: the site root (WooCommerce with Analytics), `/legacy` (without
 * Analytics: its routes answer `rest_no_route`) and `/moved` (every request redirected to the cloud
 * metadata address, which the connector must not follow). The real API takes Basic auth only over HTTPS;
 * the fake is plain HTTP on 127.0.0.1 (allow-listed in OUTBOUND_ALLOW_HOSTS), a test-only exception;
 * tests that need HTTPS put a TLS front before it (test/tls-front.ts). `stripAuthorization` plays a host
 * that drops the Authorization header.
 */

export interface FakeWooCommerce {
  /** consumer key → consumer secret accepted by every shop. */
  keys: Map<string, string>;
  currency: string;
  failNext: FakeFault[];
  /** Analytics and legacy report requests, in order (path and query), for tests asserting shapes and counts. */
  reports: { path: string; query: Record<string, string> }[];
  /**
   * A host or proxy in front of the shop that drops the Authorization header (Apache without
   * `CGIPassAuth`, some CDNs): every shop then sees requests without it, as WooCommerce would.
   */
  stripAuthorization: boolean;
}

export const WOO_KEY = "ck_5f3c1a9b2e7d4c6f8a0b1c2d3e4f5a6b7c8d9e0f";
export const WOO_SECRET = "cs_0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b";

const PRODUCTS = [
  { id: 11, name: "Hoodie", category: 21 },
  { id: 12, name: "Beanie", category: 21 },
  { id: 13, name: "Poster", category: 22 },
];
const CATEGORIES = [
  { id: 21, name: "Clothing" },
  { id: 22, name: "Decor" },
];
const PRICE = 12.5;

const hash = (text: string) => [...text].reduce((value, char) => (value * 31 + char.charCodeAt(0)) % 100_003, 7);

/** One day of the shop (deterministic, in whole units so sums are exact), as tests compute it too. */
export function fakeWooDay(day: string) {
  const h = hash(day);
  const orders = 3 + (h % 7);
  const items = orders * 2 + (h % 3);
  const gross = items * PRICE;
  const coupons = (h % 4) * 5;
  const refunds = h % 5 === 0 ? 25 : 0;
  const taxes = items * 2;
  const shipping = orders * 5;
  const net = gross - coupons - refunds;
  const newCustomers = Math.ceil(orders / 3);
  return {
    orders_count: orders,
    num_items_sold: items,
    gross_sales: gross,
    coupons,
    refunds,
    taxes,
    shipping,
    net_revenue: net,
    total_sales: net + taxes + shipping,
    num_new_customers: newCustomers,
    num_returning_customers: orders - newCustomers,
  };
}

/** Items of one product on one day: half the day's items to the first, a quarter to the second, the rest to the third. */
export function fakeWooProductItems(productId: number, day: string): number {
  const items = fakeWooDay(day).num_items_sold;
  const first = Math.floor(items / 2);
  const second = Math.floor(items / 4);
  return productId === 11 ? first : productId === 12 ? second : items - first - second;
}

const wpError = (reply: FastifyReply, status: number, code: string, message: string, extra = {}) =>
  reply.code(status).send({ code, message, data: { status, ...extra } });

/**
 * A date and a time, as WordPress' `rest_parse_date` takes an argument of format `date-time` (the
 * Analytics reports' `after` and `before`): a date alone is refused, as WooCommerce refuses it.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}(?::\d{2})?)?$/;
function daysBetween(after: string, before: string): string[] {
  const out: string[] = [];
  const end = before.slice(0, 10);
  for (let day = new Date(`${after.slice(0, 10)}T00:00:00Z`); ; day.setUTCDate(day.getUTCDate() + 1)) {
    const text = day.toISOString().slice(0, 10);
    if (text > end) break;
    out.push(text);
  }
  return out;
}

const query = (request: FastifyRequest) => request.query as Record<string, string>;

export function wooCommerceFake(): FakePart<FakeWooCommerce> {
  const state: FakeWooCommerce = {
    keys: new Map([[WOO_KEY, WOO_SECRET]]),
    currency: "EUR",
    failNext: [],
    reports: [],
    stripAuthorization: false,
  };

  /**
   * The key as WooCommerce reads it (`WC_REST_Authentication::perform_basic_authentication`, HTTPS only):
   * `consumer_key` and `consumer_secret` from the query string first, else the Basic header; neither
   * leaves the request a visitor's, which every route refuses with 401 `woocommerce_rest_cannot_view`.
   * Then the key ("Consumer key is invalid.") and the secret are checked. The fake's own origin is
   * plain HTTP, where WooCommerce only takes OAuth 1.0a signatures: it stands in for HTTPS requests,
   * except that query-string keys count only when a TLS front says the request came over HTTPS
   * (`X-Forwarded-Proto: https`, as WordPress behind a proxy is told), so a key sent in the clear fails.
   */
  function refused(request: FastifyRequest, reply: FastifyReply) {
    const params = query(request);
    const overTls = request.headers["x-forwarded-proto"] === "https";
    const header = state.stripAuthorization ? "" : String(request.headers.authorization ?? "");
    let key: string;
    let given: string;
    if (overTls && params.consumer_key && params.consumer_secret) {
      key = params.consumer_key;
      given = params.consumer_secret;
    } else if (header.startsWith("Basic ")) {
      const [basicKey = "", ...rest] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":");
      key = basicKey;
      given = rest.join(":");
    } else {
      return wpError(reply, 401, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources.");
    }
    const secret = state.keys.get(key);
    if (secret === undefined) {
      return wpError(reply, 401, "woocommerce_rest_authentication_error", "Consumer key is invalid.");
    }
    if (given !== secret) {
      return wpError(reply, 401, "woocommerce_rest_authentication_error", "Consumer secret is invalid.");
    }
    return null;
  }

  /** `per_page`, `page`, `after`, `before` as WordPress validates them (rest_invalid_param). */
  function badParams(params: Record<string, string>, dated: boolean): Record<string, string> | null {
    const bad: Record<string, string> = {};
    const perPage = params.per_page === undefined ? 10 : Number(params.per_page);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      bad.per_page = "per_page must be between 1 (inclusive) and 100 (inclusive)";
    if (params.page !== undefined && !(Number(params.page) >= 1)) bad.page = "page must be greater than or equal to 1";
    if (dated) {
      for (const name of ["after", "before"]) {
        if (params[name] !== undefined && !DATE_TIME.test(params[name] ?? "")) bad[name] = "Invalid date.";
      }
    }
    return Object.keys(bad).length > 0 ? bad : null;
  }

  function invalid(reply: FastifyReply, bad: Record<string, string>) {
    return wpError(reply, 400, "rest_invalid_param", `Invalid parameter(s): ${Object.keys(bad).join(", ")}`, {
      params: bad,
    });
  }

  /** One page of a list, with WordPress' paging headers. */
  function paged<T>(reply: FastifyReply, params: Record<string, string>, items: T[]) {
    const perPage = Number(params.per_page ?? 10);
    const page = Number(params.page ?? 1);
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    reply.header("X-WP-Total", String(items.length)).header("X-WP-TotalPages", String(pages));
    return items.slice((page - 1) * perPage, page * perPage);
  }

  function stats(report: "revenue" | "orders", params: Record<string, string>) {
    const days = daysBetween(params.after ?? "", params.before ?? "");
    const pick = (day: ReturnType<typeof fakeWooDay>) =>
      report === "revenue"
        ? {
            orders_count: day.orders_count,
            num_items_sold: day.num_items_sold,
            gross_sales: day.gross_sales,
            total_sales: day.total_sales,
            coupons: day.coupons,
            coupons_count: day.coupons > 0 ? 1 : 0,
            refunds: day.refunds,
            taxes: day.taxes,
            shipping: day.shipping,
            net_revenue: day.net_revenue,
          }
        : {
            orders_count: day.orders_count,
            num_items_sold: day.num_items_sold,
            avg_items_per_order: day.num_items_sold / day.orders_count,
            avg_order_value: day.net_revenue / day.orders_count,
            net_revenue: day.net_revenue,
            num_returning_customers: day.num_returning_customers,
            num_new_customers: day.num_new_customers,
          };
    const all = days.map(fakeWooDay);
    const sum = (key: keyof ReturnType<typeof fakeWooDay>) => all.reduce((total, day) => total + day[key], 0);
    const orders = sum("orders_count");
    const totals =
      report === "revenue"
        ? {
            orders_count: orders,
            num_items_sold: sum("num_items_sold"),
            gross_sales: sum("gross_sales"),
            total_sales: sum("total_sales"),
            coupons: sum("coupons"),
            coupons_count: all.filter((day) => day.coupons > 0).length,
            refunds: sum("refunds"),
            taxes: sum("taxes"),
            shipping: sum("shipping"),
            net_revenue: sum("net_revenue"),
            products: PRODUCTS.length,
            segments: [],
          }
        : {
            orders_count: orders,
            num_items_sold: sum("num_items_sold"),
            avg_items_per_order: orders > 0 ? sum("num_items_sold") / orders : 0,
            avg_order_value: orders > 0 ? sum("net_revenue") / orders : 0,
            net_revenue: sum("net_revenue"),
            num_returning_customers: sum("num_returning_customers"),
            num_new_customers: sum("num_new_customers"),
            segments: [],
          };
    const intervals = days.map((day) => ({
      interval: day,
      date_start: `${day} 00:00:00`,
      date_start_gmt: `${day} 00:00:00`,
      date_end: `${day} 23:59:59`,
      date_end_gmt: `${day} 23:59:59`,
      subtotals: { ...pick(fakeWooDay(day)), segments: [] },
    }));
    return { totals, intervals: params.order === "desc" || !params.order ? intervals.reverse() : intervals };
  }

  function leaders(kind: "products" | "categories", params: Record<string, string>) {
    const days = daysBetween(params.after ?? "", params.before ?? "");
    const product = (id: number) => {
      const items = days.reduce((sum, day) => sum + fakeWooProductItems(id, day), 0);
      return { items, revenue: items * PRICE, orders: Math.ceil(items / 2) };
    };
    const extended = params.extended_info === "true";
    const rows =
      kind === "products"
        ? PRODUCTS.map((entry) => {
            const numbers = product(entry.id);
            return {
              product_id: entry.id,
              items_sold: numbers.items,
              net_revenue: numbers.revenue,
              orders_count: numbers.orders,
              ...(extended && { extended_info: { name: entry.name, price: PRICE } }),
            };
          })
        : CATEGORIES.map((category) => {
            const members = PRODUCTS.filter((entry) => entry.category === category.id).map((entry) =>
              product(entry.id),
            );
            return {
              category_id: category.id,
              items_sold: members.reduce((sum, entry) => sum + entry.items, 0),
              net_revenue: members.reduce((sum, entry) => sum + entry.revenue, 0),
              orders_count: members.reduce((sum, entry) => sum + entry.orders, 0),
              products_count: members.length,
              ...(extended && { extended_info: { name: category.name } }),
            };
          });
    const key = params.orderby === "net_revenue" ? "net_revenue" : "items_sold";
    const sign = params.order === "asc" ? 1 : -1;
    return rows.sort((a, b) => sign * (a[key] - b[key]));
  }

  function legacySales(params: Record<string, string>) {
    const days = daysBetween(params.date_min ?? "", params.date_max ?? "");
    const all = days.map((day) => [day, fakeWooDay(day)] as const);
    const sum = (key: keyof ReturnType<typeof fakeWooDay>) => all.reduce((total, [, day]) => total + day[key], 0);
    const money = (value: number) => value.toFixed(2);
    return [
      {
        total_sales: money(sum("total_sales")),
        net_sales: money(sum("net_revenue")),
        average_sales: money(sum("total_sales") / Math.max(1, days.length)),
        total_orders: sum("orders_count"),
        total_items: sum("num_items_sold"),
        total_tax: money(sum("taxes")),
        total_shipping: money(sum("shipping")),
        total_refunds: sum("refunds"),
        total_discount: money(sum("coupons")),
        totals_grouped_by: "day",
        totals: Object.fromEntries(
          all.map(([day, numbers]) => [
            day,
            {
              sales: money(numbers.total_sales),
              orders: numbers.orders_count,
              items: numbers.num_items_sold,
              tax: money(numbers.taxes),
              shipping: money(numbers.shipping),
              discount: money(numbers.coupons),
              customers: 0,
            },
          ]),
        ),
        total_customers: 0,
      },
    ];
  }

  function shop(app: FastifyInstance, prefix: string, withAnalytics: boolean) {
    const noRoute = (_request: FastifyRequest, reply: FastifyReply) =>
      wpError(reply, 404, "rest_no_route", "No route was found matching the URL and request method.");
    const record = (request: FastifyRequest) =>
      state.reports.push({ path: new URL(request.url, "http://fake").pathname, query: { ...query(request) } });

    app.get(`${prefix}/wp-json/wc/v3/system_status`, async (request, reply) => {
      const denied = refused(request, reply);
      if (denied) return denied;
      const fault = answerFault(state.failNext, reply, `${prefix}/wp-json/wc/v3/system_status`);
      if (fault) return fault;
      const full = {
        environment: { home_url: `${prefix || "/"}`, site_url: "https://shop.example.com", version: "9.4.2" },
        database: { wc_database_version: "9.4.2" },
        settings: { currency: state.currency, currency_symbol: "&euro;", api_enabled: true },
      };
      const fields = query(request)._fields?.split(",");
      return fields ? Object.fromEntries(Object.entries(full).filter(([key]) => fields.includes(key))) : full;
    });

    app.get(`${prefix}/wp-json/wc/v3/reports/sales`, async (request, reply) => {
      const denied = refused(request, reply);
      if (denied) return denied;
      record(request);
      const fault = answerFault(state.failNext, reply, `${prefix}/wp-json/wc/v3/reports/sales`);
      if (fault) return fault;
      const params = query(request);
      for (const name of ["date_min", "date_max"]) {
        if (params[name] !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(params[name] ?? "")) {
          return invalid(reply, { [name]: `${name} is not a valid date.` });
        }
      }
      return legacySales(params);
    });

    for (const report of ["revenue", "orders"] as const) {
      const path = `${prefix}/wp-json/wc-analytics/reports/${report}/stats`;
      app.get(path, async (request, reply) => {
        if (!withAnalytics) return noRoute(request, reply);
        const denied = refused(request, reply);
        if (denied) return denied;
        record(request);
        const fault = answerFault(state.failNext, reply, path);
        if (fault) return fault;
        const params = query(request);
        const bad = badParams(params, true) ?? {};
        const intervals = ["hour", "day", "week", "month", "quarter", "year"];
        if (params.interval !== undefined && !intervals.includes(params.interval)) {
          bad.interval = "interval is not one of hour, day, week, month, quarter, and year.";
        }
        if (Object.keys(bad).length > 0) return invalid(reply, bad);
        const answer = stats(report, params);
        return { totals: answer.totals, intervals: paged(reply, params, answer.intervals) };
      });
    }

    for (const kind of ["products", "categories"] as const) {
      const path = `${prefix}/wp-json/wc-analytics/reports/${kind}`;
      app.get(path, async (request, reply) => {
        if (!withAnalytics) return noRoute(request, reply);
        const denied = refused(request, reply);
        if (denied) return denied;
        record(request);
        const fault = answerFault(state.failNext, reply, path);
        if (fault) return fault;
        const params = query(request);
        const bad = badParams(params, true) ?? {};
        // Each controller's own `orderby` enum (Products/Controller.php, Categories/Controller.php).
        const orderby =
          kind === "products"
            ? ["date", "net_revenue", "orders_count", "items_sold", "product_name", "variations", "sku"]
            : ["category_id", "items_sold", "net_revenue", "orders_count", "products_count", "category"];
        if (params.orderby !== undefined && !orderby.includes(params.orderby)) {
          bad.orderby = `orderby is not one of ${orderby.join(", ")}.`;
        }
        if (Object.keys(bad).length > 0) return invalid(reply, bad);
        return paged<object>(reply, params, leaders(kind, params));
      });
    }
  }

  return {
    state,
    register(app) {
      shop(app, "", true);
      shop(app, "/legacy", false);
      // A shop that moved: WordPress answers every request with a redirect, here to the cloud metadata address.
      app.get("/moved/*", async (_request, reply) =>
        reply.code(301).header("location", "http://169.254.169.254/latest/meta-data/").send(""),
      );
    },
    // The shop's address is typed by the user, not configured: only the allow-list lets the server reach it.
    env: () => ({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1" }),
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "woocommerce",
  build: () => wooCommerceFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (origin: string) => ({ site: origin, token: `${WOO_KEY}|${WOO_SECRET}` });
