import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { historyGrouping } from ".";
import {
  AHREFS_KEY,
  AHREFS_PROJECTS,
  ahrefsFake,
  fakeBacklinks,
  fakeDomainRating,
  fakeHistoryDates,
  fakeRank,
  fakeSiteMetrics,
} from "./fake";

const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake() }));
const fake = async () => (await fakes.current()).parts.ahrefs;
const calls = async () => (await fakes.current()).calls;

async function connect(client: TestClient, token = AHREFS_KEY) {
  return client.api("POST", "/api/sources", { name: "ahrefsV3", account: "Acme SEO", token });
}

const site = (sourceId: string, inputs: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
  instance(sourceId, "ahrefsV3.site", { target: "acme.com", mode: "subdomains", country: "de", ...inputs }, overrides);
const ranks = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "ahrefsV3.ranks", { property: "5501", device: "desktop", dimension: "keyword", ...inputs });

const siteCalls = async (endpoint: string) =>
  (await calls()).filter((call) => call.path === `/v3/site-explorer/${endpoint}`);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describeEachDb(
  "Ahrefs V3 against a local Ahrefs",
  (env) => {
    it("checks a typed API key with Ahrefs: the right one is stored under the account's name", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "ahrefsV3")).toMatchObject({
        order: 10,
        available: true,
        authKind: "account+token",
        note: null,
      });
      // A wrong key: the scenario kit (test/connector-scenarios/ahrefs.test.ts).
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      const right = await connect(client);
      expect(right.statusCode).toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: right.json().data.id, name: "ahrefsV3", account: "Acme SEO", invalid: false }),
      ]);
      // The check Ahrefs saw: the free limits-and-usage call with the key as a Bearer token.
      const check = (await calls()).findLast((call) => call.path === "/v3/subscription-info/limits-and-usage");
      expect(check?.headers.authorization).toBe(`Bearer ${AHREFS_KEY}`);
    });

    it("lists the countries Ahrefs documents and the key's Rank Tracker projects", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const countries = (await client.api("GET", `/api/sources/${id}/countries?type=ahrefsV3.site`)).json().data;
      expect(countries).toHaveLength(211);
      expect(countries[0]).toEqual({ value: "all", label: "All countries" });
      expect(countries).toContainEqual({ value: "de", label: "Germany" });
      expect(countries).toContainEqual({ value: "us", label: "United States" });
      const projects = (await client.api("GET", `/api/sources/${id}/properties?type=ahrefsV3.ranks`)).json().data;
      // The Site Audit project without keywords is left out by Ahrefs itself (has_keywords=true).
      expect(projects).toEqual([
        { value: "5501", label: "Acme shop (https://acme.com/)" },
        { value: "5502", label: "Blog (https://blog.acme.com/)" },
      ]);
      const call = (await calls()).findLast((entry) => entry.path === "/v3/management/projects");
      expect(call?.query).toEqual({ has_keywords: "true", output: "json" });
      expect(call?.headers.authorization).toBe(`Bearer ${AHREFS_KEY}`);
    });

    it("without a dimension: the range's last day from metrics, domain-rating and backlinks-stats; money in dollars", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-01", endDate: "2026-10-31" };
      const response = await widgetData(
        client,
        [site(id, { metrics: ["domain_rating", "org_traffic", "org_cost", "refdomains", "ahrefs_rank"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.domain_rating", label: "Domain Rating", format: "number" },
        { key: "a.org_traffic", label: "Organic traffic", format: "number" },
        { key: "a.org_cost", label: "Organic traffic value", format: "money", currency: "USD" },
        { key: "a.refdomains", label: "Referring domains", format: "number" },
        { key: "a.ahrefs_rank", label: "Ahrefs Rank", format: "number", lowerIsBetter: true },
      ]);
      const overview = fakeSiteMetrics("acme.com", "subdomains", "de", "2026-10-31");
      const rating = fakeDomainRating("acme.com", "2026-10-31");
      expect(table.rows).toEqual([]);
      expect(table.totals).toEqual([
        rating.domain_rating,
        overview.org_traffic,
        overview.org_cost / 100,
        fakeBacklinks("acme.com", "subdomains", "2026-10-31").live_refdomains,
        rating.ahrefs_rank,
      ]);
      // How the range maps to Ahrefs' one `date`: its last day, with the widget's mode and country.
      const metrics = (await siteCalls("metrics")).find((call) => call.query.date === "2026-10-31");
      expect(metrics?.query).toEqual({
        target: "acme.com",
        mode: "subdomains",
        country: "de",
        date: "2026-10-31",
        output: "json",
      });
      expect(metrics?.headers.authorization).toBe(`Bearer ${AHREFS_KEY}`);
      expect((await siteCalls("domain-rating")).findLast((call) => call.query.date === "2026-10-31")?.query).toEqual({
        target: "acme.com",
        date: "2026-10-31",
        output: "json",
      });
      expect((await siteCalls("backlinks-stats")).findLast((call) => call.query.date === "2026-10-31")?.query).toEqual({
        target: "acme.com",
        mode: "subdomains",
        date: "2026-10-31",
        output: "json",
      });
    });

    it("all countries leaves `country` out (Ahrefs' worldwide numbers); only the endpoints the metrics need are asked", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const before = (await calls()).length;
      const response = await widgetData(
        client,
        [site(id, { target: "https://acme.com/blog/", mode: "prefix", country: "all", metrics: ["org_keywords"] })],
        { startDate: "2026-09-01", endDate: "2026-09-30" },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().data.current.totals).toEqual([
        fakeSiteMetrics("https://acme.com/blog/", "prefix", "", "2026-09-30").org_keywords,
      ]);
      const asked = (await calls()).slice(before).filter((call) => call.path.startsWith("/v3/site-explorer/"));
      // The current range and the comparison (the previous 30 days): one `metrics` call each, nothing else.
      expect(asked.map((call) => [call.path, call.query.date])).toEqual(
        expect.arrayContaining([
          ["/v3/site-explorer/metrics", "2026-09-30"],
          ["/v3/site-explorer/metrics", "2026-08-31"],
        ]),
      );
      expect(asked).toHaveLength(2);
      expect(asked[0]?.query.country).toBeUndefined();
    });

    it("by date: metrics-history and domain-rating-history points, only the shown fields selected; totals are the last point", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-01", endDate: "2026-10-07" };
      const response = await widgetData(
        client,
        [site(id, { dimension: "date", metrics: ["org_traffic", "domain_rating", "paid_cost"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      const days = fakeHistoryDates("2026-10-01", "2026-10-07", "daily");
      const values = (day: string) => {
        const overview = fakeSiteMetrics("acme.com", "subdomains", "de", day);
        return [overview.org_traffic, fakeDomainRating("acme.com", day).domain_rating, overview.paid_cost / 100];
      };
      expect(table.rows).toEqual(days.map((day) => ({ dimension: day, values: values(day) })));
      // Monthly traffic estimates and a rating are levels: the range's figure is its latest point, never a sum.
      expect(table.totals).toEqual(values("2026-10-07"));
      const history = (await siteCalls("metrics-history")).findLast((call) => call.query.date_from === "2026-10-01");
      expect(history?.query).toEqual({
        target: "acme.com",
        mode: "subdomains",
        country: "de",
        date_from: "2026-10-01",
        date_to: "2026-10-07",
        history_grouping: "daily",
        select: "date,org_traffic,paid_cost",
        output: "json",
      });
      const ratings = (await siteCalls("domain-rating-history")).findLast(
        (call) => call.query.date_from === "2026-10-01",
      );
      expect(ratings?.query).toEqual({
        target: "acme.com",
        date_from: "2026-10-01",
        date_to: "2026-10-07",
        history_grouping: "daily",
        output: "json",
      });
    });

    it("a half year is asked weekly; a metric Ahrefs keeps no history of cannot be by date (422, nothing asked)", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-01-01", endDate: "2026-06-30" };
      const response = await widgetData(client, [site(id, { dimension: "date", metrics: ["org_traffic"] })], range);
      expect(response.statusCode).toBe(200);
      const weeks = fakeHistoryDates("2026-01-01", "2026-06-30", "weekly");
      expect(response.json().data.current.rows.map((row: { dimension: string }) => row.dimension)).toEqual(weeks);
      expect(
        (await siteCalls("metrics-history")).findLast((call) => call.query.date_from === "2026-01-01")?.query
          .history_grouping,
      ).toBe("weekly");
      const before = (await calls()).length;
      const refused = await widgetData(client, [
        site(id, { dimension: "date", metrics: ["org_traffic", "org_keywords", "backlinks"] }),
      ]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain(
        "Ahrefs keeps no history of Organic keywords, Backlinks: remove them or choose no dimension.",
      );
      expect((await calls()).length).toBe(before);
    });

    it("missing inputs and a target Ahrefs refuses are the form's 422; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      for (const [inputs, words] of [
        [{ target: "" }, "The target field is required."],
        [{ country: "" }, "The country field is required."],
        [{ metrics: [] }, "The metrics field is required."],
        [{ target: "not a domain" }, "Invalid target: not a domain"],
      ] as const) {
        const response = await widgetData(client, [site(id, { metrics: ["org_traffic"], ...inputs })]);
        expect(response.statusCode).toBe(422);
        expect(JSON.stringify(response.json())).toContain(words);
      }
      const noDevice = await widgetData(client, [ranks(id, { device: "", metrics: ["position"] })]);
      expect(noDevice.statusCode).toBe(422);
      expect(JSON.stringify(noDevice.json())).toContain("The device field is required.");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("rank tracker by keyword: the range's last day of the project on the device, average position of ranked keywords", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-01", endDate: "2026-10-14" };
      const response = await widgetData(
        client,
        [ranks(id, { device: "mobile", metrics: ["position", "traffic", "top10"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "keyword", label: "Keyword", kind: "string" });
      expect(table.metrics).toEqual([
        { key: "a.position", label: "Average position", format: "number", lowerIsBetter: true },
        { key: "a.traffic", label: "Traffic", format: "number" },
        { key: "a.top10", label: "Keywords in top 10", format: "number" },
      ]);
      const keywords = AHREFS_PROJECTS[0]?.keywords ?? [];
      const lines = keywords.map((keyword) => ({
        keyword: keyword.keyword,
        ...fakeRank("5501", keyword.keyword, "mobile", "2026-10-14"),
      }));
      const rows = table.rows.map((row: { dimension: string; values: (number | null)[] }) => [
        row.dimension,
        ...row.values,
      ]);
      expect(rows).toEqual(
        lines.map((line) => [
          line.keyword,
          line.position,
          line.traffic,
          line.position !== null && line.position <= 10 ? 1 : 0,
        ]),
      );
      const ranked = lines.flatMap((line) => (line.position === null ? [] : [line.position]));
      expect(table.totals).toEqual([
        mean(ranked),
        lines.reduce((sum, line) => sum + line.traffic, 0),
        ranked.filter((position) => position <= 10).length,
      ]);
      const call = (await calls()).findLast(
        (entry) => entry.path === "/v3/rank-tracker/overview" && entry.query.date === "2026-10-14",
      );
      expect(call?.query).toEqual({
        project_id: "5501",
        device: "mobile",
        date: "2026-10-14",
        select: "keyword,location,url,tags,position,traffic,volume",
        limit: "10000",
        output: "json",
      });
    });

    it("rank tracker by tag: a keyword counts in each of its tags; search volume adds up", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(client, [ranks(id, { dimension: "tag", metrics: ["keywords", "volume"] })], {
        startDate: "2026-10-01",
        endDate: "2026-10-14",
      });
      expect(response.statusCode).toBe(200);
      const volume = (keyword: string) => fakeRank("5501", keyword, "desktop", "2026-10-14").volume;
      const table = response.json().data.current;
      expect(table.rows).toEqual([
        { dimension: "shoes", values: [3, volume("running shoes") + volume("trail shoes") + volume("laufschuhe")] },
        { dimension: "trail", values: [1, volume("trail shoes")] },
        { dimension: "(no tag)", values: [1, volume("acme")] },
      ]);
      expect(table.totals[0]).toBe(4);
    });

    it("API units are money: a settled range is served from the database, never asked of Ahrefs twice", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const sources = env().services.get("sources");
      // Inputs as the data path normalises them (declared keys, sorted), so both paths share one stored result.
      const request = {
        type: "ahrefsV3.site",
        inputs: { country: "us", dimension: "date", metrics: ["org_cost"], mode: "domain", target: "settled.example" },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      // The fake serves both databases' runs: count from here.
      const earlier = (await siteCalls("metrics-history")).length;
      const asked = async () =>
        (await siteCalls("metrics-history")).slice(earlier).filter((call) => call.query.target === "settled.example")
          .length;
      const spent = (await fake()).unitsSpent;
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(first.notice).toBeNull();
      expect(first.table.rows).toHaveLength(30);
      expect(await asked()).toBe(1);
      const cost = (await fake()).unitsSpent - spent;
      expect(cost).toBe(30 * 11);
      // Asked again (another view, another process, a cold cache): September had settled when it was fetched.
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(1);
      expect((await fake()).unitsSpent - spent).toBe(cost);
      // And through the dashboard's own data path, comparison off.
      const view = await client.api("POST", "/api/widgets/data", {
        instances: [site(id, request.inputs)],
        timezone: "UTC",
        ...request.range,
        comparison: false,
      });
      expect(view.json().data.current.totals).toEqual(first.table.totals);
      expect(await asked()).toBe(1);
    });

    it("a fresh outage without stored numbers is a Data Error; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      // Down or limiting with stored numbers: the scenario kit (test/connector-scenarios/ahrefs.test.ts).
      // The range and its comparison, each tried three times.
      (await fake()).failNext.push(
        ...Array.from({ length: 6 }, () => ({ status: 500, body: { error: "Internal error" } })),
      );
      try {
        const down = await widgetData(client, [site(id, { target: "never-stored.example", metrics: ["org_traffic"] })]);
        expect(down.statusCode).toBe(502);
        expect(down.json()).toMatchObject({ code: "source_error", message: "Data Error" });
      } finally {
        (await fake()).failNext.length = 0;
      }
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("API units used up: the stored numbers with 'Ahrefs V3 quota reached'; the key is not asked again for a while", async () => {
      const { client, company } = await buildOwner(env());
      // A key of its own: the used-up allowance holds this key, and nothing else, until it is asked again.
      const key = `spent-${Math.random().toString(36).slice(2)}`;
      (await fake()).keys.add(key);
      const id = (await connect(client, key)).json().data.id;
      const sources = env().services.get("sources");
      const range = liveRange();
      const inputs = { country: "de", metrics: ["refdomains"], mode: "domain", target: "acme.com" };
      const stored = (
        await sources.query(company.id, await sources.load(company.id, id), {
          type: "ahrefsV3.site",
          inputs,
          range,
          timezone: "UTC",
        })
      ).table;
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: new Date(Date.now() - 20 * 60_000).toISOString() })
        .where("source_id", "=", id)
        .execute();
      (await fake()).exhausted.add(key);
      const view = () =>
        client.api("POST", "/api/widgets/data", {
          instances: [site(id, inputs)],
          timezone: "UTC",
          ...range,
          comparison: false,
        });
      const asked = async () => (await calls()).filter((call) => call.headers.authorization === `Bearer ${key}`).length;
      const before = await asked();
      const response = await view();
      expect(response.statusCode).toBe(200);
      expect(response.json().data.current.totals).toEqual(stored.totals);
      expect(response.json().data.notices).toEqual([
        { instanceId: expect.any(String), asOf: expect.any(String), message: "Ahrefs V3 quota reached" },
      ]);
      expect(await asked()).toBe(before + 1);
      // Viewed again: Ahrefs is not asked (the allowance is checked again after an hour), the numbers stay.
      expect((await view()).json().data.notices[0].message).toBe("Ahrefs V3 quota reached");
      expect(await asked()).toBe(before + 1);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });
  },
  fakes.env,
);

it("a history's grouping follows the range's length (Ahrefs charges per row)", () => {
  expect(historyGrouping({ startDate: "2026-10-01", endDate: "2026-10-31" })).toBe("daily");
  expect(historyGrouping({ startDate: "2026-10-01", endDate: "2026-11-01" })).toBe("weekly");
  expect(historyGrouping({ startDate: "2026-01-01", endDate: "2026-07-05" })).toBe("weekly");
  expect(historyGrouping({ startDate: "2026-01-01", endDate: "2026-07-06" })).toBe("monthly");
});
