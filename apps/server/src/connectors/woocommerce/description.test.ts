import type { TWidgetTypeConfig } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { checkCalls } from "../../../test/fakes/described";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { WOO_KEY, WOO_SECRET, wooCommerceFake } from "./fake";
import { wooCommerceConnector } from "./index";

/**
 * WooCommerce's requests and answers against its own controllers' description of the REST API
 * (./rest-schema.json, docs/connectors.md "The providers' own API descriptions"): every request the
 * connector builds (the connect-time check, every dimension and metric of its form, on a shop with
 * Analytics and on one without) is valid, and every answer the fake gives matches the described item.
 */

const fakes = fakesForFile(afterAll, () => ({ woo: wooCommerceFake() }));
const description = () => {
  if (!wooCommerceConnector.description) throw new Error("WooCommerce has no pinned description");
  return wooCommerceConnector.description();
};
const config = wooCommerceConnector.widgetTypes[0] as TWidgetTypeConfig;
const optionsOf = (key: string) =>
  (config.params.find((param) => param.key === key)?.options ?? []).map((option) => option.value);

async function connect(client: TestClient, path: string) {
  const site = `${(await fakes.current()).url}${path}`;
  const token = `${WOO_KEY}|${WOO_SECRET}`;
  const response = await client.api("POST", "/api/sources", { name: "woocommerce", site, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as string;
}

describeEachDb(
  "WooCommerce against its controllers' REST schema",
  (env) => {
    it("every request each dimension and metric builds is described, and so is every answer", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const metrics = optionsOf("metrics");
      // 120 days: more than one page of 100 daily intervals.
      const range = { startDate: "2026-03-01", endDate: "2026-06-28", comparison: true };
      for (const path of ["", "/legacy"]) {
        const id = await connect(client, path);
        for (const dimension of [undefined, ...optionsOf("dimension")]) {
          // A split by product or category offers the leaderboards' metrics only.
          const leaders = dimension === "product" || dimension === "category";
          const inputs = {
            ...(dimension && { dimension }),
            metrics: leaders ? ["net_revenue", "orders_count", "num_items_sold"] : metrics,
          };
          const response = await widgetData(client, [instance(id, config.type, inputs)], range);
          // The legacy report has no split by product or category: the form's 422, nothing asked.
          expect(response.statusCode, response.body).toBe(path === "/legacy" && leaders ? 422 : 200);
        }
      }
      const calls = (await fakes.current()).calls.slice(from).filter((call) => call.path.includes("/wp-json/"));
      expect([...new Set(calls.map((call) => call.path))].sort()).toEqual([
        "/legacy/wp-json/wc-analytics/reports/orders/stats",
        "/legacy/wp-json/wc-analytics/reports/revenue/stats",
        "/legacy/wp-json/wc/v3/reports/sales",
        "/legacy/wp-json/wc/v3/system_status",
        "/wp-json/wc-analytics/reports/categories",
        "/wp-json/wc-analytics/reports/orders/stats",
        "/wp-json/wc-analytics/reports/products",
        "/wp-json/wc-analytics/reports/revenue/stats",
        "/wp-json/wc/v3/system_status",
      ]);
      expect(calls.some((call) => call.query.page === "2")).toBe(true);
      const { checked, problems } = checkCalls(await description(), calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
      // The shop without Analytics answered its Analytics route with WordPress' own rest_no_route, checked as an error.
      expect(calls.find((call) => call.path.startsWith("/legacy/wp-json/wc-analytics/"))?.answer?.status).toBe(404);
    });
  },
  fakes.env,
);

describe("the fake refuses what WooCommerce's arguments refuse", () => {
  // Found by the description: the fake took a date without its time for `after` (WordPress'
  // rest_parse_date refuses it) and `orderby=date` on the categories leaderboard (not in its enum).
  it.each([
    ["/wp-json/wc-analytics/reports/revenue/stats", { interval: "day", after: "2026-06-01" }, "after"],
    ["/wp-json/wc-analytics/reports/categories", { orderby: "date" }, "orderby"],
    ["/wp-json/wc-analytics/reports/products", { orderby: "category" }, "orderby"],
  ])("%s with %o is 400 rest_invalid_param on %s", async (path, query, param) => {
    const { url } = await fakes.current();
    const address = new URL(`${url}${path}`);
    for (const [name, value] of Object.entries(query)) address.searchParams.set(name, value);
    const basic = Buffer.from(`${WOO_KEY}:${WOO_SECRET}`).toString("base64");
    const response = await fetch(address, { headers: { authorization: `Basic ${basic}` } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; data: { params: Record<string, string> } };
    expect(body.code).toBe("rest_invalid_param");
    expect(Object.keys(body.data.params)).toEqual([param]);
    const problems = (await description()).checkRequest({ method: "GET", url: address });
    expect(problems.some((problem) => problem.includes(`${param}:`))).toBe(true);
  });
});

describe("WooCommerce's description checks bite", () => {
  const request = (path: string, query: Record<string, string>) => {
    const url = new URL(`https://shop.example.com/wp-json${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return { method: "GET", url };
  };

  it("a wrong request is reported: an unknown argument or route, an enum, a maximum, a date without its time", async () => {
    const checks = await description();
    expect(
      checks.checkRequest(
        request("/wc-analytics/reports/categories", {
          orderby: "date",
          per_page: "500",
          after: "2026-06-01",
          extended_info: "yes",
          segment: "product",
        }),
      ),
    ).toEqual([
      'GET /wc-analytics/reports/categories: orderby: "date" is not one of category_id, items_sold, net_revenue, orders_count, products_count, category',
      "GET /wc-analytics/reports/categories: per_page: 500 is above 100",
      'GET /wc-analytics/reports/categories: after: "2026-06-01" is not a date-time',
      'GET /wc-analytics/reports/categories: extended_info: "yes" is not a boolean',
      "GET /wc-analytics/reports/categories: unknown query argument segment",
    ]);
    expect(checks.checkRequest(request("/wc/v3/reports/sales", { date_min: "2026-06-01T00:00:00" }))).toEqual([
      'GET /wc/v3/reports/sales: date_min: "2026-06-01T00:00:00" is not YYYY-MM-DD',
    ]);
    expect(checks.checkRequest(request("/wc/v3/reports/orders", {}))).toEqual([
      "GET /wc/v3/reports/orders: not a route of the pinned schema",
    ]);
  });

  it("a wrong answer is reported: a field of the wrong type, an undescribed field, a bad date, a list where an object is", async () => {
    const checks = await description();
    const stats = request("/wc-analytics/reports/revenue/stats", { interval: "day" });
    expect(
      checks.checkResponse(stats, 200, {
        totals: { orders_count: "3", net_sales: 10 },
        intervals: [{ interval: "2026-06-01", date_start: "June 1", subtotals: { refunds: 0 } }],
      }),
    ).toEqual([
      'GET /wc-analytics/reports/revenue/stats → 200: answer.totals.orders_count: "3" is not integer',
      "GET /wc-analytics/reports/revenue/stats → 200: answer.totals.net_sales: not a described field",
      'GET /wc-analytics/reports/revenue/stats → 200: answer.intervals[0].date_start: "June 1" is not a date-time',
    ]);
    expect(checks.checkResponse(request("/wc-analytics/reports/products", {}), 200, { product_id: 1 })).toEqual([
      "GET /wc-analytics/reports/products → 200: answer: not a list",
    ]);
    expect(checks.checkResponse(stats, 400, { message: "bad" })).toEqual([
      "GET /wc-analytics/reports/revenue/stats → 400: answer.code: required, missing",
    ]);
  });
});
