import { shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { startTlsFront } from "../../../test/tls-front";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { classifyWooCommerce } from "./classify";
import { fakeWooDay, fakeWooProductItems, WOO_KEY, WOO_SECRET, wooCommerceFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ woo: wooCommerceFake() }));
const running = () => fakes.current();
const woo = async () => (await running()).parts.woo;

const TYPE = "woocommerce.sales";
const TOKEN = `${WOO_KEY}|${WOO_SECRET}`;
const today = () => new Date().toISOString().slice(0, 10);
const daysOf = (start: string, end: string) => {
  const out: string[] = [];
  for (let day = start; day <= end; day = shiftDay(day, 1)) out.push(day);
  return out;
};
const sum = (days: string[], key: keyof ReturnType<typeof fakeWooDay>) =>
  days.reduce((total, day) => total + fakeWooDay(day)[key], 0);

async function connect(client: TestClient, path = "") {
  const site = `${(await running()).url}${path}`;
  const response = await client.api("POST", "/api/sources", { name: "woocommerce", site, token: TOKEN });
  expect(response.statusCode).toBe(200);
  return response.json().data.id as string;
}

/** Analytics and legacy report requests the fake answered since `from`. */
const reportsSince = async (from: number) => (await woo()).reports.slice(from);

describeEachDb(
  "WooCommerce against a local shop",
  (env) => {
    it("is listed as connectable with the site and key|secret form", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "woocommerce")).toMatchObject({
        displayName: "WooCommerce",
        order: 16,
        authKind: "site+key|secret",
        available: true,
        note: null,
      });
    });

    it("a wrong secret or key is the form's 422 on token in WooCommerce's words; nothing is stored", async () => {
      const { client } = await buildOwner(env());
      const site = (await running()).url;
      // A wrong secret: the scenario kit (test/connector-scenarios/woocommerce.test.ts).
      const wrongKey = await client.api("POST", "/api/sources", { name: "woocommerce", site, token: "ck_x|cs_y" });
      expect(wrongKey.json().errors.token?.[0]).toContain("Consumer key is invalid.");
      const unformatted = await client.api("POST", "/api/sources", { name: "woocommerce", site, token: WOO_KEY });
      expect(unformatted.json().errors.token).toEqual(["The token must be written as consumer key|consumer secret."]);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
    });

    it("the right key is stored with the shop's host as account; the check sent Basic auth to system_status", async () => {
      const { client } = await buildOwner(env());
      const before = (await running()).calls.length;
      const id = await connect(client);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id, name: "woocommerce", account: "shop.example.com", invalid: false }),
      ]);
      const call = (await running()).calls.slice(before).find((entry) => entry.path.endsWith("/system_status"));
      expect(call?.path).toBe("/wp-json/wc/v3/system_status");
      expect(call?.query).toEqual({ _fields: "environment,settings" });
      expect(call?.headers.authorization).toBe(`Basic ${Buffer.from(`${WOO_KEY}:${WOO_SECRET}`).toString("base64")}`);
    });

    it("a host that strips the Authorization header: over https the key goes in the query string, remembered", async () => {
      const { client } = await buildOwner(env());
      const { url, calls } = await running();
      const shop = await woo();
      const front = await startTlsFront(url);
      shop.stripAuthorization = true;
      try {
        const before = calls.length;
        const connected = await client.api("POST", "/api/sources", {
          name: "woocommerce",
          site: front.url,
          token: TOKEN,
        });
        expect(connected.statusCode).toBe(200);
        const id = connected.json().data.id as string;
        // The check: Basic auth answered 401 woocommerce_rest_cannot_view (no key arrived), then the query string.
        const checks = calls.slice(before).filter((call) => call.path === "/wp-json/wc/v3/system_status");
        expect(checks.map((call) => [call.query.consumer_key ?? null, call.headers["x-forwarded-proto"]])).toEqual([
          [null, "https"],
          [WOO_KEY, "https"],
        ]);
        expect(checks[1]?.query.consumer_secret).toBe(WOO_SECRET);

        const start = shiftDay(today(), -300);
        const end = shiftDay(today(), -294);
        const afterConnect = calls.length;
        const response = await widgetData(client, [instance(id, TYPE, { metrics: ["net_revenue"] })], {
          startDate: start,
          endDate: end,
          comparison: false,
        });
        expect(response.statusCode).toBe(200);
        expect(response.json().data.current.totals).toEqual([sum(daysOf(start, end), "net_revenue")]);
        // Remembered for the shop: every data request carried the key in the query string at once.
        const data = calls.slice(afterConnect).filter((call) => call.path.startsWith("/wp-json/"));
        expect(data.length).toBeGreaterThan(0);
        expect(data.every((call) => call.query.consumer_key === WOO_KEY && !call.headers.authorization)).toBe(true);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        shop.stripAuthorization = false;
        await front.close();
      }
    });

    it("a host that strips the Authorization header over plain http: no secret in the address, the reason said", async () => {
      const { client } = await buildOwner(env());
      const { url, calls } = await running();
      const shop = await woo();
      shop.stripAuthorization = true;
      try {
        const before = calls.length;
        const response = await client.api("POST", "/api/sources", { name: "woocommerce", site: url, token: TOKEN });
        expect(response.statusCode).toBe(422);
        // On the address, which is what needs changing (the key is right).
        expect(response.json().errors.token).toBeUndefined();
        expect(response.json().errors.site).toEqual([
          expect.stringContaining(
            "the shop did not receive the key: its host or a proxy in front of it removes the Authorization header. Over https:// the key would be sent in the address instead; over http:// that would expose the secret, so connect the shop's https:// address or ask the host to pass the Authorization header on",
          ),
        ]);
        expect(calls.slice(before).some((call) => "consumer_secret" in call.query)).toBe(false);
        expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      } finally {
        shop.stripAuthorization = false;
      }
    });

    it("refuses plain http, private, loopback and link-local sites, unreachable sites and redirects, on site", async () => {
      const { client } = await buildOwner(env());
      const { url, calls } = await running();
      const port = new URL(url).port;
      const post = (site: string) => client.api("POST", "/api/sources", { name: "woocommerce", site, token: TOKEN });
      const before = calls.length;

      const plain = await post("http://shop.example.com");
      expect(plain.statusCode).toBe(422);
      expect(plain.json().errors.site).toEqual([
        "The site must be an https:// address: the key and secret travel with every request.",
      ]);
      for (const [site, address] of [
        ["https://10.0.0.1", "10.0.0.1"],
        ["https://169.254.169.254/latest", "169.254.169.254"],
        ["https://[::1]", "::1"],
        // A name resolving to loopback: only the allow-listed 127.0.0.1 may be reached, not localhost.
        [`https://localhost:${port}`, "127.0.0.1"],
      ] as const) {
        const refused = await post(site);
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors.site?.[0]).toMatch(
          new RegExp(
            `resolves to ${address.replace(/\./g, "\\.")}, which is not a public address: only shops on the public internet can be connected\\.$`,
          ),
        );
      }
      expect(calls.length).toBe(before);

      const unreachable = await post("http://127.0.0.1:1");
      expect(unreachable.statusCode).toBe(422);
      expect(unreachable.json().errors.site?.[0]).toMatch(/^The site could not be reached \(.*ECONNREFUSED/);

      // A redirect is not followed (here it points at the cloud metadata address): the user is told where it goes.
      const moved = await post(`${url}/moved`);
      expect(moved.statusCode).toBe(422);
      expect(moved.json().errors.site).toEqual([
        "WooCommerce refused these credentials: the site redirects to http://169.254.169.254/latest/meta-data/ (HTTP 301); enter the address it redirects to",
      ]);
      expect(calls.slice(before).map((call) => call.path)).toEqual(["/moved/wp-json/wc/v3/system_status"]);

      const notWoo = await post(`${url}/legacy/nothing`);
      expect(notWoo.statusCode).toBe(422);
      expect(Object.keys(notWoo.json().errors)).toEqual(["site"]);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
    });

    it("by date: every day from revenue/stats in the shop's currency; the request as Analytics takes it", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const start = shiftDay(today(), -40);
      const end = shiftDay(today(), -34);
      const from = (await woo()).reports.length;
      const response = await widgetData(
        client,
        [instance(id, TYPE, { dimension: "date", metrics: ["net_revenue", "orders_count", "refunds"] })],
        { startDate: start, endDate: end, comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.net_revenue", label: "Net sales", format: "money", currency: "EUR" },
        { key: "a.orders_count", label: "Orders", format: "number" },
        { key: "a.refunds", label: "Returns", format: "money", currency: "EUR", lowerIsBetter: true },
      ]);
      const days = daysOf(start, end);
      expect(table.rows).toEqual(
        days.map((day) => ({
          dimension: day,
          values: [fakeWooDay(day).net_revenue, fakeWooDay(day).orders_count, fakeWooDay(day).refunds],
        })),
      );
      expect(table.totals).toEqual([sum(days, "net_revenue"), sum(days, "orders_count"), sum(days, "refunds")]);
      expect(await reportsSince(from)).toEqual([
        {
          path: "/wp-json/wc-analytics/reports/revenue/stats",
          query: {
            interval: "day",
            order: "asc",
            after: `${start}T00:00:00`,
            before: `${end}T23:59:59`,
            per_page: "100",
            page: "1",
          },
        },
      ]);
    });

    it("a range of more than 100 days is read page by page as X-WP-TotalPages says; orders/stats for averages", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const start = shiftDay(today(), -400);
      const end = shiftDay(today(), -251);
      const from = (await woo()).reports.length;
      const response = await widgetData(
        client,
        [instance(id, TYPE, { dimension: "date", metrics: ["total_sales", "avg_order_value", "num_new_customers"] })],
        { startDate: start, endDate: end, comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      const days = daysOf(start, end);
      expect(table.rows).toHaveLength(150);
      expect(table.rows[120]).toEqual({
        dimension: days[120],
        values: [
          fakeWooDay(days[120] as string).total_sales,
          fakeWooDay(days[120] as string).net_revenue / fakeWooDay(days[120] as string).orders_count,
          fakeWooDay(days[120] as string).num_new_customers,
        ],
      });
      expect(table.totals).toEqual([
        sum(days, "total_sales"),
        sum(days, "net_revenue") / sum(days, "orders_count"),
        sum(days, "num_new_customers"),
      ]);
      const asked = (await reportsSince(from)).map((entry) => `${entry.path} page ${entry.query.page}`).sort();
      expect(asked).toEqual([
        "/wp-json/wc-analytics/reports/orders/stats page 1",
        "/wp-json/wc-analytics/reports/orders/stats page 2",
        "/wp-json/wc-analytics/reports/revenue/stats page 1",
        "/wp-json/wc-analytics/reports/revenue/stats page 2",
      ]);
    });

    it("by product and by category: the leaderboards by net sales, the shop's totals; other metrics refused", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const start = shiftDay(today(), -60);
      const end = shiftDay(today(), -31);
      const days = daysOf(start, end);
      const range = { startDate: start, endDate: end, comparison: false };
      const items = (product: number) => days.reduce((total, day) => total + fakeWooProductItems(product, day), 0);
      const from = (await woo()).reports.length;
      const products = await widgetData(
        client,
        [instance(id, TYPE, { dimension: "product", metrics: ["net_revenue", "num_items_sold"] })],
        range,
      );
      expect(products.statusCode).toBe(200);
      const table = products.json().data.current;
      expect(table.dimension).toEqual({ key: "product", label: "Product", kind: "string" });
      const expected = [
        { dimension: "Hoodie", values: [items(11) * 12.5, items(11)] },
        { dimension: "Poster", values: [items(13) * 12.5, items(13)] },
        { dimension: "Beanie", values: [items(12) * 12.5, items(12)] },
      ].sort((a, b) => (b.values[0] as number) - (a.values[0] as number));
      expect(table.rows).toEqual(expected);
      expect(table.totals).toEqual([sum(days, "net_revenue"), sum(days, "num_items_sold")]);
      const leaderboard = (await reportsSince(from)).find((entry) => entry.path.endsWith("/reports/products"));
      expect(leaderboard?.query).toEqual({
        orderby: "net_revenue",
        order: "desc",
        extended_info: "true",
        after: `${start}T00:00:00`,
        before: `${end}T23:59:59`,
        per_page: "100",
        page: "1",
      });

      const categories = await widgetData(
        client,
        [instance(id, TYPE, { dimension: "category", metrics: ["orders_count"] })],
        range,
      );
      expect(categories.json().data.current.rows.map((row: { dimension: string }) => row.dimension)).toEqual([
        "Clothing",
        "Decor",
      ]);

      const refused = await widgetData(
        client,
        [instance(id, TYPE, { dimension: "product", metrics: ["net_revenue", "taxes"] })],
        range,
      );
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain(
        "Only net sales, orders and items sold can be split by product.",
      );
    });

    it("a shop without Analytics (rest_no_route) is read from the legacy sales report, remembered", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client, "/legacy");
      const start = shiftDay(today(), -90);
      const end = shiftDay(today(), -85);
      const days = daysOf(start, end);
      const from = (await woo()).reports.length;
      const answer = async () =>
        widgetData(client, [instance(id, TYPE, { dimension: "date", metrics: ["total_sales", "net_revenue"] })], {
          startDate: start,
          endDate: end,
          comparison: false,
        });
      const response = await answer();
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.rows).toEqual(days.map((day) => ({ dimension: day, values: [fakeWooDay(day).total_sales, null] })));
      expect(table.totals).toEqual([sum(days, "total_sales"), sum(days, "net_revenue")]);
      const legacyCall = { path: "/legacy/wp-json/wc/v3/reports/sales", query: { date_min: start, date_max: end } };
      // The Analytics route answered rest_no_route (not recorded as a report), then the legacy report.
      expect(await reportsSince(from)).toEqual([legacyCall]);
      const noRoute = (await running()).calls.filter(
        (call) => call.path === "/legacy/wp-json/wc-analytics/reports/revenue/stats",
      ).length;
      expect(noRoute).toBeGreaterThan(0);

      const byProduct = await widgetData(
        client,
        [instance(id, TYPE, { dimension: "product", metrics: ["net_revenue"] })],
        { startDate: shiftDay(start, -1), endDate: end, comparison: false },
      );
      expect(byProduct.statusCode).toBe(422);
      expect(JSON.stringify(byProduct.json())).toContain("This shop has no WooCommerce Analytics");
      // Remembered: no second Analytics attempt.
      expect(
        (await running()).calls.filter((call) => call.path === "/legacy/wp-json/wc-analytics/reports/revenue/stats")
          .length,
      ).toBe(noRoute);
    });

    it("a parameter WooCommerce refuses is the widget's 422 in its words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      (await woo()).failNext.push({
        status: 400,
        pathIncludes: "/reports/revenue/stats",
        body: {
          code: "rest_invalid_param",
          message: "Invalid parameter(s): after",
          data: { status: 400, params: { after: "Invalid date." } },
        },
      });
      const response = await widgetData(client, [instance(id, TYPE, { metrics: ["net_revenue"] })], {
        startDate: shiftDay(today(), -120),
        endDate: shiftDay(today(), -110),
        comparison: false,
      });
      expect(response.statusCode).toBe(422);
      expect(JSON.stringify(response.json())).toContain("Invalid parameter(s): after");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a revoked key makes the source invalid (banner 125)", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const shop = await woo();
      shop.keys.delete(WOO_KEY);
      try {
        const response = await widgetData(client, [instance(id, TYPE, { metrics: ["orders_count"] })], {
          startDate: shiftDay(today(), -130),
          endDate: shiftDay(today(), -125),
        });
        expect(response.statusCode).toBe(502);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
        expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
      } finally {
        shop.keys.set(WOO_KEY, WOO_SECRET);
      }
    });

    it("the shop down or throttling: the source stays valid; a stored result is served with a notice", async () => {
      const { client, company } = await buildOwner(env());
      const id = await connect(client);
      const sources = env().services.get("sources");
      const shop = await woo();
      const range = { startDate: shiftDay(today(), -3), endDate: today() };
      // One metric per case: each has its own stored result (and cache entry).
      for (const [status, headers, metric, message] of [
        [503, {}, "gross_sales", "WooCommerce is not answering"],
        [429, { "retry-after": "1" }, "coupons", "WooCommerce is limiting requests"],
      ] as const) {
        const stored = await sources.query(company.id, await sources.load(company.id, id), {
          type: TYPE,
          inputs: { metrics: [metric] },
          range,
          timezone: "UTC",
        });
        expect(stored.table.totals).toEqual([sum(daysOf(range.startDate, range.endDate), metric)]);
        // Twenty minutes later the range (touching today) is due again, and the shop fails every attempt.
        const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
        await env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: fetchedAt })
          .where("source_id", "=", id)
          .execute();
        // More faults than the client's three attempts: another request reaching the shop meanwhile (it
        // happened once under a loaded CI machine) must not leave an attempt that succeeds.
        const FAULTS = 10;
        for (let attempt = 0; attempt < FAULTS; attempt += 1) {
          shop.failNext.push({
            status,
            headers,
            pathIncludes: "/reports/revenue/stats",
            body: { code: "internal_server_error", message: "The site is experiencing technical difficulties." },
          });
        }
        try {
          const response = await client.api("POST", "/api/widgets/data", {
            instances: [instance(id, TYPE, { metrics: [metric] })],
            timezone: "UTC",
            ...range,
            comparison: false,
          });
          expect(response.statusCode).toBe(200);
          // The shop was asked (the stored result was due) and refused every attempt.
          expect(FAULTS - shop.failNext.length).toBeGreaterThanOrEqual(1);
          const data = response.json().data;
          expect(data.current.totals).toEqual(stored.table.totals);
          expect(data.notices).toEqual([{ instanceId: expect.any(String), asOf: fetchedAt, message }]);
        } finally {
          shop.failNext.splice(0);
        }
      }
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a settled range is served from the database without asking the shop again", async () => {
      const { client, company } = await buildOwner(env());
      const id = await connect(client);
      const sources = env().services.get("sources");
      const range = { startDate: shiftDay(today(), -200), endDate: shiftDay(today(), -194) };
      const request = { type: TYPE, inputs: { metrics: ["taxes"] }, range, timezone: "UTC" };
      const from = (await woo()).reports.length;
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(first.table.totals).toEqual([sum(daysOf(range.startDate, range.endDate), "taxes")]);
      expect(await reportsSince(from)).toHaveLength(1);
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect(await reportsSince(from)).toHaveLength(1);
    });
  },
  fakes.env,
);

it("classifies WordPress answers: key refusals are auth, redirects the site's, throttling and outages", () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    body,
    headers: new Headers(headers),
    now: 0,
  });
  const wp = (status: number, code: string) => answer(status, { code, message: "m", data: { status } });
  const cases: [ReturnType<typeof answer>, string, string | null][] = [
    [wp(401, "woocommerce_rest_authentication_error"), "auth", null],
    [wp(403, "woocommerce_rest_cannot_view"), "auth", null],
    [wp(400, "rest_invalid_param"), "input", null],
    [wp(404, "rest_no_route"), "input", null],
    [wp(500, "internal_server_error"), "server", null],
    [answer(429, "<html>Too Many Requests</html>", { "retry-after": "30" }), "rate", null],
    [answer(502, "<html>Bad gateway</html>"), "server", null],
    [answer(301, "", { location: "https://elsewhere.example" }), "input", "site"],
  ];
  for (const [given, kind, field] of cases) {
    const error = classifyWooCommerce("woocommerce", given);
    expect(error?.kind).toBe(kind);
    expect(error?.field).toBe(field);
  }
  expect(classifyWooCommerce("woocommerce", answer(429, "", { "retry-after": "30" }))?.retryAfterMs).toBe(30_000);
  expect(classifyWooCommerce("woocommerce", answer(200, []))).toBeNull();
});
