import { afterAll, describe, expect, it } from "vitest";
import { connectByConsent } from "../../../test/connector-scenarios/kit";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { until } from "../../../test/wait";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { seal, unseal } from "../../infra/security";
import { googleFake } from "../google/fake";
import { describeSearchConsoleFilter, filterGroups, SEARCH_CONSOLE_PAGE_ROWS, searchConsoleQuotas } from ".";
import {
  FAKE_QUERIES,
  fakeSearch,
  fakeSearchCells,
  LONG_TAIL_QUERIES,
  longTailQuery,
  parseQuery,
  searchConsoleFake,
} from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const google = googleFake();
  return { google, searchConsole: searchConsoleFake(google.state) };
});
const parts = async () => (await fakes.current()).parts;
/** The Search Analytics requests the fake saw for a site, bodies parsed. */
const queriesTo = async (site: string) =>
  (await fakes.current()).calls
    .filter((call) => call.path === `/webmasters/v3/sites/${site}/searchAnalytics/query`)
    .map((call) => JSON.parse(call.body) as Record<string, unknown>);

const gsc = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "searchConsole.performance", { property: "https://acme.com/", ...inputs });

const RANGE = { startDate: "2026-10-01", endDate: "2026-10-06" };
/** The widget data request of RANGE, without the previous period (one range, so the requests can be counted). */
const ASK = { ...RANGE, comparison: false };
type Table = { rows: { dimension: string; values: (number | null)[] }[]; totals: (number | null)[] };

/** A source connected through the fake's consent, as the sources page's popup does; its id. */
const connect = (client: TestClient): Promise<string> => connectByConsent(client, "searchConsole");

/**
 * A result stored twenty minutes ago for a range touching today (so it is due again), asked for through
 * the sources service as the widget path asks (inputs normalised: declared keys, sorted).
 */
async function storeDueResult(env: TestEnv, companyId: string, sourceId: string, property: string) {
  const sources = env.services.get("sources");
  const range = liveRange();
  const stored = await sources.query(companyId, await sources.load(companyId, sourceId), {
    type: "searchConsole.performance",
    inputs: { metrics: ["clicks", "impressions"], property },
    range,
    timezone: "UTC",
  });
  expect(stored.notice).toBeNull();
  const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
  await env.ctx.db
    .updateTable("provider_results")
    .set({ fetched_at: fetchedAt })
    .where("source_id", "=", sourceId)
    .execute();
  return { range, fetchedAt, totals: stored.table.totals };
}

async function storedCredentials(env: TestEnv, sourceId: string): Promise<Record<string, string>> {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
}

/** The fake's cells of RANGE on the acme.com sites, grouped by one dimension: clicks and impressions per key. */
function expectedBy(dimension: "query" | "page" | "country" | "device", keep = (_: { device: string }) => true) {
  const sums = new Map<string, [number, number]>();
  for (let day = 1; day <= 6; day += 1) {
    for (const query of FAKE_QUERIES.keys()) {
      for (const cell of fakeSearchCells(`2026-10-0${day}`, query).filter(keep)) {
        const [clicks, impressions] = sums.get(cell[dimension]) ?? [0, 0];
        sums.set(cell[dimension], [clicks + cell.clicks, impressions + cell.impressions]);
      }
    }
  }
  // Google's order: most clicks first.
  return [...sums.entries()]
    .sort((a, b) => b[1][0] - a[1][0])
    .map(([dimension, values]) => ({ dimension, values: [...values] }));
}

describe("the Search Console fake reads a query body as Google does", () => {
  const ok = { startDate: "2026-10-01", endDate: "2026-10-02" };
  it.each([
    ["a date not in YYYY-MM-DD", { ...ok, startDate: "2026-10-1" }, "startDate"],
    ["an impossible date", { ...ok, endDate: "2026-02-30" }, "endDate"],
    ["the end before the start", { startDate: "2026-10-02", endDate: "2026-10-01" }, "earlier"],
    ["an unknown dimension", { ...ok, dimensions: ["keyword"] }, "dimensions"],
    ["rowLimit 0", { ...ok, rowLimit: 0 }, "rowLimit"],
    ["rowLimit above 25,000", { ...ok, rowLimit: 25_001 }, "rowLimit"],
    ["a negative startRow", { ...ok, startRow: -1 }, "startRow"],
    ["an unknown dataState", { ...ok, dataState: "fresh" }, "data_state"],
    ["an unknown type", { ...ok, type: "books" }, "type"],
    ["an unknown field", { ...ok, limit: 10 }, "Unknown name"],
    [
      "a filter on the date",
      { ...ok, dimensionFilterGroups: [{ filters: [{ dimension: "date", expression: "2026-10-01" }] }] },
      "dimension",
    ],
    [
      "an unknown operator",
      {
        ...ok,
        dimensionFilterGroups: [{ filters: [{ dimension: "query", operator: "startsWith", expression: "a" }] }],
      },
      "operator",
    ],
    ["filters not a list", { ...ok, dimensionFilterGroups: [{ filters: {} }] }, "filters"],
  ])("%s is refused", (_name, body, words) => {
    const parsed = parseQuery(body);
    expect(typeof parsed).toBe("string");
    expect(parsed).toContain(words);
  });

  it("accepts the documented names in either case, with defaults for rowLimit and startRow", () => {
    expect(
      parseQuery({
        ...ok,
        dimensions: ["QUERY", "device"],
        type: "web",
        dataState: "ALL",
        dimensionFilterGroups: [{ groupType: "and", filters: [{ dimension: "COUNTRY", expression: "usa" }] }],
      }),
    ).toEqual({
      ...ok,
      dimensions: ["query", "device"],
      filters: [{ dimension: "country", operator: "equals", expression: "usa" }],
      rowLimit: 1000,
      startRow: 0,
    });
  });
});

describe("Search Console's quota keys and filter inputs", () => {
  it("is counted per Google account, so two sources of one login share it; without an account, per source", () => {
    const userKey = (source: { id: string; account: string | null }) =>
      searchConsoleQuotas(source, "https://acme.com/").find((bucket) => bucket.key.startsWith("user:"))?.key;
    expect(userKey({ id: "one", account: "analytics@acme.example" })).toBe("user:analytics@acme.example");
    expect(userKey({ id: "two", account: "analytics@acme.example" })).toBe("user:analytics@acme.example");
    expect(userKey({ id: "three", account: null })).toBe("user:three");
    expect(searchConsoleQuotas({ id: "one", account: null }, "https://acme.com/")).toContainEqual({
      key: "site:https://acme.com/",
      max: 1200,
      windowMs: 60_000,
      kind: "rate",
    });
  });

  it("turns the filter inputs into one dimensionFilterGroups entry", () => {
    expect(filterGroups({})).toBeUndefined();
    expect(
      filterGroups({ filterDimension: "page", filterOperator: "notContains", filterExpression: " /blog/ " }),
    ).toEqual([{ groupType: "and", filters: [{ dimension: "page", operator: "notContains", expression: "/blog/" }] }]);
    // The operator's default is the form's: contains.
    expect(filterGroups({ filterDimension: "query", filterExpression: "seo" })?.[0]?.filters[0]?.operator).toBe(
      "contains",
    );
  });

  it.each<[string, Record<string, unknown>, string | null]>([
    ["none", {}, null],
    ["a dimension without a value", { filterDimension: "query" }, null],
    ["the default operator", { filterDimension: "query", filterExpression: "seo" }, "Query contains “seo”"],
    [
      "a page left out",
      { filterDimension: "page", filterOperator: "notContains", filterExpression: " /blog/ " },
      "Page does not contain “/blog/”",
    ],
    [
      "a country, without the form's hint",
      { filterDimension: "country", filterOperator: "equals", filterExpression: "usa" },
      "Country is “usa”",
    ],
    [
      "a regular expression",
      { filterDimension: "query", filterOperator: "excludingRegex", filterExpression: "^seo" },
      "Query does not match regular expression “^seo”",
    ],
  ])("says its filter in words: %s", (_name, inputs, expected) => {
    expect(describeSearchConsoleFilter(inputs)).toBe(expected);
  });
});

describeEachDb(
  "Search Console against a local Google",
  (env) => {
    it("connects with its own scope and lists the verified sites", async () => {
      const { client } = await buildOwner(env());
      const { consent, result } = await connectOAuth(client, "searchConsole");
      expect(consent.searchParams.get("scope")).toContain("webmasters.readonly");
      expect(result).toMatchObject({ ok: true, connector: "searchConsole" });
      const sites = (await client.api("GET", `/api/sources/${result.sourceId}/properties`)).json().data;
      expect(sites.slice(0, 2)).toEqual([
        { value: "sc-domain:acme.com", label: "acme.com (domain)" },
        { value: "https://acme.com/", label: "https://acme.com/" },
      ]);
      // The unverified site is left out.
      expect(sites.map((site: { value: string }) => site.value)).not.toContain("https://unverified.example/");
    });

    it("every day of the range is a point (days Google leaves out are zero clicks); CTR and position are Google's own totals", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const response = await widgetData(
        client,
        [gsc(sourceId, { dimension: "date", metrics: ["clicks", "impressions", "ctr", "position"] })],
        ASK,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.clicks", label: "Clicks", format: "number" },
        { key: "a.impressions", label: "Impressions", format: "number" },
        { key: "a.ctr", label: "CTR", format: "percent" },
        { key: "a.position", label: "Average position", format: "number", lowerIsBetter: true },
      ]);
      expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual([
        "2026-10-01",
        "2026-10-02",
        "2026-10-03",
        "2026-10-04",
        "2026-10-05",
        "2026-10-06",
      ]);
      // The 3rd had no data at Google: zero clicks and impressions, no CTR or position (not 0, which would read as top rank).
      expect(table.rows[2].values).toEqual([0, 0, null, null]);
      const day1 = [0, 1, 2].map((query) => fakeSearch("2026-10-01", query));
      const clicks1 = day1.reduce((sum, cell) => sum + (cell?.clicks ?? 0), 0);
      expect(table.rows[0].values[0]).toBe(clicks1);
      // Totals: clicks add up; CTR is clicks over impressions of the whole range, not a sum of days.
      const clicks = table.rows.reduce((sum: number, row: { values: number[] }) => sum + row.values[0], 0);
      const impressions = table.rows.reduce((sum: number, row: { values: number[] }) => sum + row.values[1], 0);
      expect(table.totals[0]).toBe(clicks);
      expect(table.totals[2]).toBeCloseTo((clicks / impressions) * 100, 6);
      expect(table.totals[3]).toBeGreaterThan(3);
    });

    it.each([
      ["query", ["seo report", "marketing dashboard", "agency reporting"]],
      ["page", ["https://acme.com/", "https://acme.com/blog/seo-report"]],
      ["country", ["usa", "deu", "gbr"]],
      ["device", ["MOBILE", "DESKTOP", "TABLET"]],
    ] as const)(
      "a %s widget has Google's rows, most clicks first, adding up to the totals",
      async (dimension, keys) => {
        const { client } = await buildOwner(env());
        const sourceId = await connect(client);
        const response = await widgetData(
          client,
          [gsc(sourceId, { dimension, metrics: ["clicks", "impressions"] })],
          ASK,
        );
        expect(response.statusCode).toBe(200);
        const table: Table = response.json().data.current;
        expect(table.rows.map((row) => row.dimension)).toEqual(keys);
        expect(table.rows).toEqual(expectedBy(dimension));
        expect(table.totals[0]).toBe(table.rows.reduce((sum, row) => sum + (row.values[0] ?? 0), 0));
        expect(table.totals[1]).toBe(table.rows.reduce((sum, row) => sum + (row.values[1] ?? 0), 0));
        // The request as Google documents it: one dimension, every fresh day, the first page of Google's most rows.
        const sent = (await queriesTo("https://acme.com/")).findLast(
          (body) => body.dimensions?.toString() === dimension,
        );
        expect(sent).toEqual({
          ...RANGE,
          dimensions: [dimension],
          rowLimit: SEARCH_CONSOLE_PAGE_ROWS,
          dataState: "all",
        });
      },
    );

    it("pages with startRow until a page comes back short: every row of a long tail arrives", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const site = "https://longtail.example/";
      const before = (await queriesTo(site)).length;
      const response = await widgetData(
        client,
        [gsc(sourceId, { property: site, dimension: "query", metrics: ["clicks"] })],
        ASK,
      );
      expect(response.statusCode).toBe(200);
      const table: Table = response.json().data.current;
      expect(table.rows).toHaveLength(LONG_TAIL_QUERIES);
      expect(table.rows[0]).toEqual({ dimension: longTailQuery(0), values: [100_000] });
      // Rows beyond the first page: Google's 25,001st and last.
      expect(table.rows[SEARCH_CONSOLE_PAGE_ROWS]).toEqual({
        dimension: longTailQuery(SEARCH_CONSOLE_PAGE_ROWS),
        values: [100_000 - SEARCH_CONSOLE_PAGE_ROWS],
      });
      expect(table.rows.at(-1)?.dimension).toBe(longTailQuery(LONG_TAIL_QUERIES - 1));
      const pages = (await queriesTo(site))
        .slice(before)
        .filter((body) => JSON.stringify(body.dimensions) === '["query"]')
        .map((body) => ({ rowLimit: body.rowLimit, startRow: body.startRow }));
      expect(pages).toEqual([
        { rowLimit: SEARCH_CONSOLE_PAGE_ROWS, startRow: undefined },
        { rowLimit: SEARCH_CONSOLE_PAGE_ROWS, startRow: SEARCH_CONSOLE_PAGE_ROWS },
      ]);
    });

    it.each([
      {
        name: "query contains 'report'",
        filter: { filterDimension: "query", filterOperator: "contains", filterExpression: "REPORT" },
        words: "Query contains “REPORT”",
        dimension: "query",
        expected: () => expectedBy("query").filter((row) => row.dimension.includes("report")),
      },
      {
        name: "query excludes /^seo/",
        filter: { filterDimension: "query", filterOperator: "excludingRegex", filterExpression: "^seo" },
        words: "Query does not match regular expression “^seo”",
        dimension: "query",
        expected: () => expectedBy("query").filter((row) => !row.dimension.startsWith("seo")),
      },
      {
        name: "device is mobile, by country",
        filter: { filterDimension: "device", filterOperator: "equals", filterExpression: "mobile" },
        words: "Device is “mobile”",
        dimension: "country",
        expected: () => expectedBy("country", (cell) => cell.device === "MOBILE"),
      },
    ])("a filter narrows rows and totals alike ($name), sent as dimensionFilterGroups", async (entry) => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const before = (await queriesTo("https://acme.com/")).length;
      const response = await widgetData(
        client,
        [gsc(sourceId, { dimension: entry.dimension, metrics: ["clicks", "impressions"], ...entry.filter })],
        ASK,
      );
      expect(response.statusCode).toBe(200);
      const table: Table = response.json().data.current;
      // The answer says the filter, so the card can say it to the client.
      expect(response.json().data.filters).toEqual([{ instanceId: expect.any(String), text: entry.words }]);
      const expected = entry.expected();
      expect(expected.length).toBeGreaterThan(0);
      expect(table.rows).toEqual(expected);
      expect(table.totals[0]).toBe(expected.reduce((sum, row) => sum + (row.values[0] ?? 0), 0));
      const sent = (await queriesTo("https://acme.com/")).slice(before);
      expect(sent).toHaveLength(2);
      for (const body of sent) {
        expect(body.dimensionFilterGroups).toEqual([
          {
            groupType: "and",
            filters: [
              {
                dimension: entry.filter.filterDimension,
                operator: entry.filter.filterOperator,
                expression: entry.filter.filterExpression,
              },
            ],
          },
        ]);
      }
    });

    it("names the filtered instance of a widget of several, as its columns are named", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const filtered = gsc(sourceId, {
        metrics: ["clicks"],
        filterDimension: "query",
        filterOperator: "contains",
        filterExpression: "report",
      });
      const whole = { ...gsc(sourceId, { metrics: ["clicks"] }), prefix: "b" };
      const response = await widgetData(client, [filtered, whole], ASK);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.filters).toEqual([{ instanceId: filtered.id, text: "Query contains “report” (a)" }]);
    });

    it.each([
      ["a dimension Google cannot filter on", { filterDimension: "date", filterExpression: "x" }, "filterDimension"],
      ["a filter without a value", { filterDimension: "query", filterOperator: "contains" }, "filterExpression"],
      [
        "an unknown operator",
        { filterDimension: "query", filterOperator: "startsWith", filterExpression: "a" },
        "filterOperator",
      ],
      ["a value without a dimension", { filterExpression: "seo" }, "filterDimension"],
      [
        "a broken regular expression",
        { filterDimension: "query", filterOperator: "includingRegex", filterExpression: "(seo" },
        "filterExpression",
      ],
      [
        "a lookahead RE2 cannot read",
        { filterDimension: "page", filterOperator: "includingRegex", filterExpression: "(?!blog)" },
        "filterExpression",
      ],
      [
        "a country that is not a code",
        { filterDimension: "country", filterOperator: "equals", filterExpression: "Germany" },
        "filterExpression",
      ],
      [
        "an unknown device",
        { filterDimension: "device", filterOperator: "equals", filterExpression: "watch" },
        "filterExpression",
      ],
    ])(
      "a bad filter (%s) is a 422 on its field; Google is not asked and the source stays valid",
      async (_name, filter, field) => {
        const { client } = await buildOwner(env());
        const sourceId = await connect(client);
        const before = (await queriesTo("https://acme.com/")).length;
        const response = await widgetData(client, [gsc(sourceId, { metrics: ["clicks"], ...filter })], ASK);
        expect(response.statusCode).toBe(422);
        expect(Object.keys(response.json().errors ?? {}).join()).toContain(field);
        expect(await queriesTo("https://acme.com/")).toHaveLength(before);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      },
    );

    it("a site the login cannot read is the widget's error; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const refused = await widgetData(client, [
        gsc(sourceId, { property: "https://other.example/", metrics: ["clicks"] }),
      ]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("does not have sufficient permission for site");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("the fake answers a body Google would refuse with 400 INVALID_ARGUMENT", async () => {
      const { client } = await buildOwner(env());
      const sourceId = await connect(client);
      const token = (await storedCredentials(env(), sourceId)).access_token;
      const answer = await fetch(
        `${(await fakes.current()).url}/webmasters/v3/sites/${encodeURIComponent("https://acme.com/")}/searchAnalytics/query`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ ...RANGE, rowLimit: 30_000 }),
        },
      );
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    });

    it("results are kept: a settled range is served from the database without asking Google again", async () => {
      const { client, company } = await buildOwner(env());
      const sourceId = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "searchConsole.performance",
        inputs: { metrics: ["clicks"], property: "sc-domain:acme.com" },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await queriesTo("sc-domain:acme.com")).filter((body) => body.startDate === "2026-09-01").length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, sourceId), request);
      expect(first.notice).toBeNull();
      expect(await asked()).toBe(before + 1);
      // Asked again (another process, a cold cache): September settled long before it was fetched.
      const again = await sources.query(company.id, await sources.load(company.id, sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(again.notice).toBeNull();
      expect(await asked()).toBe(before + 1);
    });

    it.each([
      {
        name: "429 with a long Retry-After",
        site: "https://throttled.example/",
        fail: (fake: Awaited<ReturnType<typeof parts>>["searchConsole"], site: string) =>
          fake.failNext.push({
            pathIncludes: site,
            status: 429,
            headers: { "retry-after": "120" },
            body: { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Too many requests." } },
          }),
        message: "Search Console is limiting requests",
      },
      {
        name: "RESOURCE_EXHAUSTED for the day",
        site: "https://exhausted.example/",
        fail: (fake: Awaited<ReturnType<typeof parts>>["searchConsole"], site: string) =>
          fake.failNext.push({
            pathIncludes: site,
            status: 429,
            body: { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Daily query quota exceeded." } },
          }),
        message: "Search Console quota reached",
      },
      {
        name: "503 through every retry",
        site: "https://outage.example/",
        fail: (fake: Awaited<ReturnType<typeof parts>>["searchConsole"], site: string) => fake.down.add(site),
        message: "Search Console is not answering",
      },
    ])("Google failing for now ($name): the stored numbers with 'Data as of …', the source valid", async (entry) => {
      const { client, company } = await buildOwner(env());
      const sourceId = await connect(client);
      // Twenty minutes later the range (touching today) is due again, and Google refuses.
      const { range, fetchedAt, totals } = await storeDueResult(env(), company.id, sourceId, entry.site);
      const fake = (await parts()).searchConsole;
      entry.fail(fake, entry.site);
      try {
        const widget = gsc(sourceId, { property: entry.site, metrics: ["clicks", "impressions"] });
        const response = await widgetData(client, [{ ...widget, id: "again" }], { ...range, comparison: false });
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.current.totals).toEqual(totals);
        expect(data.notices).toEqual([{ instanceId: "again", asOf: fetchedAt, message: entry.message }]);
        expect(fake.failNext).toEqual([]);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        fake.down.delete(entry.site);
      }
    });

    it.each([
      {
        name: "the user removed our access (the stored access token answers 401)",
        revoke: async (credentials: Record<string, string>) => {
          (await parts()).google.revoked.add(credentials.refresh_token ?? "");
          (await parts()).google.expireAccessTokens();
          return null;
        },
      },
      {
        name: "the refresh is refused (invalid_grant)",
        revoke: async (credentials: Record<string, string>) => {
          (await parts()).google.revoked.add(credentials.refresh_token ?? "");
          (await parts()).google.expireAccessTokens();
          return { ...credentials, expires_at: "0" };
        },
      },
    ])("$name: the source is invalid (banner 125, announced), its stored numbers stay with a notice", async (entry) => {
      const { client, company } = await buildOwner(env());
      const sourceId = await connect(client);
      const { range, fetchedAt, totals } = await storeDueResult(env(), company.id, sourceId, "sc-domain:acme.com");
      const widget = gsc(sourceId, { property: "sc-domain:acme.com", metrics: ["clicks", "impressions"] });
      const credentials = await entry.revoke(await storedCredentials(env(), sourceId));
      if (credentials) {
        await env()
          .ctx.db.updateTable("sources")
          .set({ credentials: seal(env().ctx.config.appKey, JSON.stringify(credentials)) })
          .where("id", "=", sourceId)
          .execute();
      }
      const announced: unknown[] = [];
      const stop = env().ctx.events.subscribe("realtime.broadcast", (message) => {
        if (message.event === "CompanySourceUpdated") announced.push(message.data);
      });
      try {
        const response = await widgetData(client, [{ ...widget, id: "again" }], { ...range, comparison: false });
        expect(response.statusCode).toBe(200);
        expect(response.json().data.current.totals).toEqual(totals);
        expect(response.json().data.notices).toEqual([
          { instanceId: "again", asOf: fetchedAt, message: "Search Console needs to be reconnected" },
        ]);
        expect((await client.api("GET", "/api/sources")).json().data).toEqual([
          expect.objectContaining({ id: sourceId, invalid: true }),
        ]);
        expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
        await until(async () => announced.length > 0, 2000);
        expect(announced[0]).toMatchObject({ id: sourceId, sources: [{ id: sourceId, invalid: true }] });
      } finally {
        stop();
      }
    });
  },
  fakes.env,
);
