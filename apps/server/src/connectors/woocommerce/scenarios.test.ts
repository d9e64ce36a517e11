import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { WOO_KEY, WOO_SECRET, wooCommerceFake } from "./fake";

const TOKEN = `${WOO_KEY}|${WOO_SECRET}`;
const sales = (metric: string) => ({ type: "woocommerce.sales", inputs: { metrics: [metric] } });
/** Ten: more than the client's three attempts (see `spareFaults`). */
const failing = (status: number, headers: Record<string, string>) =>
  Array.from({ length: 10 }, () => ({
    status,
    headers,
    pathIncludes: "/reports/revenue/stats",
    body: { code: "internal_server_error", message: "The site is experiencing technical difficulties." },
  }));

connectorScenarios({
  title: "WooCommerce",
  fakes: () => ({ woo: wooCommerceFake() }),
  part: "woo",
  connect: async (client, _env, fakes) => {
    const response = await client.api("POST", "/api/sources", { name: "woocommerce", site: fakes.url, token: TOKEN });
    return response.json().data.id;
  },
  // Revenue metrics first: the scripted faults are for revenue/stats.
  queries: [
    sales("gross_sales"),
    sales("coupons"),
    sales("net_revenue"),
    sales("total_sales"),
    sales("refunds"),
    sales("taxes"),
    sales("shipping"),
  ],
  upstream: (call) => call.path.startsWith("/wp-json/wc-analytics/reports/"),
  notices: {
    limited: "WooCommerce is limiting requests",
    down: "WooCommerce is not answering",
    reconnect: "WooCommerce needs to be reconnected",
  },
  typedKey: {
    connect: (client, key, fakes) =>
      client.api("POST", "/api/sources", { name: "woocommerce", site: fakes.url, token: key }),
    wrong: `${WOO_KEY}|cs_wrong`,
    errors: {
      token: [
        "WooCommerce refused these credentials: Consumer secret is invalid. (woocommerce_rest_authentication_error)",
      ],
    },
  },
  revoke: async (fakes) => {
    fakes.parts.woo.keys.delete(WOO_KEY);
    return () => {
      fakes.parts.woo.keys.set(WOO_KEY, WOO_SECRET);
    };
  },
  spareFaults: true,
  limited: failing(429, { "retry-after": "1" }),
  down: failing(503, {}),
  malformed: Array.from({ length: 10 }, () => ({
    status: 200,
    pathIncludes: "/reports/revenue/stats",
    body: '{"totals": {"gross_sales": ',
  })),
  settled: { query: sales("taxes"), range: { startDate: "2026-05-13", endDate: "2026-05-19" } },
  // The shop's currency (system_status' settings.currency): the fake's shop sells in euros.
  currency: { query: sales("net_revenue"), code: "EUR" },
  // Analytics' stats page their days 100 at a time (`per_page`, `X-WP-TotalPages`); the pages read
  // follow from the range's days, so no answer can hold the connector past them.
  paging: {
    query: { type: "woocommerce.sales", inputs: { dimension: "date", metrics: ["gross_sales"] } },
    pageSize: 100,
    requests: (call) => call.path === "/wp-json/wc-analytics/reports/revenue/stats",
  },
  // Analytics reads `after`/`before` in the shop's own zone (ISO 8601 without an offset), the days the
  // shop's owner sees in WooCommerce: the viewer's dates are sent as the shop's whole days.
  zone: {
    query: { type: "woocommerce.sales", inputs: { dimension: "date", metrics: ["gross_sales"] } },
    askedDays: (call) => {
      if (call.path !== "/wp-json/wc-analytics/reports/revenue/stats") return null;
      const { after = "", before = "" } = call.query;
      if (!after.endsWith("T00:00:00") || !before.endsWith("T23:59:59")) return null;
      return { first: after.slice(0, 10), last: before.slice(0, 10) };
    },
  },
});
