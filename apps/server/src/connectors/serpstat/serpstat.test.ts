import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { FAKE_SERPSTAT_TOKEN, fakeSerpstatHistory, fakeSerpstatKeywords, serpstatFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ serpstat: serpstatFake() }));
const serpstat = async () => (await fakes.current()).parts.serpstat;
const rpcCalls = async (method: string) =>
  (await fakes.current()).calls.filter((call) => call.path === "/v4/" && call.body.includes(`"${method}"`));

async function connect(client: TestClient, token = FAKE_SERPSTAT_TOKEN) {
  return client.api("POST", "/api/sources", { name: "serpstat", account: "acme.com", token });
}

const history = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "serpstat.domain", { se: "g_us", ...inputs });
const keywords = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "serpstat.keywords", { se: "g_us", ...inputs });

describeEachDb(
  "SerpStat against a local Serpstat",
  (env) => {
    it("a wrong token is refused on the form in Serpstat's words and nothing is stored; the right one connects", async () => {
      const { client } = await buildOwner(env());
      const wrong = await connect(client, "not-the-token");
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.token[0]).toBe("SerpStat refused these credentials: Invalid token! (code -32001)");
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      const right = await connect(client);
      expect(right.statusCode).toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ name: "serpstat", account: "acme.com", invalid: false }),
      ]);
      // The check is the free limits call, the token in the query as Serpstat wants it.
      const check = (await rpcCalls("SerpstatLimitsProcedure.getStats")).at(-1);
      expect(check?.query).toEqual({ token: FAKE_SERPSTAT_TOKEN });
      expect(JSON.parse(check?.body ?? "{}")).toMatchObject({ method: "SerpstatLimitsProcedure.getStats", params: {} });
    });

    it("lists Serpstat's search engines from Serpstat, and each widget type's metrics", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const engines = (await client.api("GET", `/api/sources/${id}/searchEngines?type=serpstat.domain`)).json().data;
      expect(engines).toEqual([
        { value: "g_de", label: "Germany (google.de)" },
        { value: "g_ua", label: "Ukraine (google.com.ua)" },
        { value: "g_uk", label: "United Kingdom (google.co.uk)" },
        { value: "g_us", label: "United States (google.com)" },
      ]);
      const metrics = (await client.api("GET", `/api/sources/${id}/metrics?type=serpstat.keywords`)).json().data;
      expect(metrics.map((option: { value: string }) => option.value)).toEqual([
        "position",
        "searchVolume",
        "cpc",
        "traffic",
      ]);
    });

    it("domain history: points inside the range by date, the standing at its end as the total, asked with JSON-RPC", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(
        client,
        [history(id, { dimension: "date", metrics: ["traffic", "visibility", "lostKeywords"] })],
        { startDate: "2025-02-01", endDate: "2025-02-28", comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.traffic", label: "Organic traffic", format: "number" },
        { key: "a.visibility", label: "Visibility", format: "number" },
        { key: "a.lostKeywords", label: "Lost keywords", format: "number", lowerIsBetter: true },
      ]);
      const points = fakeSerpstatHistory("g_us").filter((p) => String(p.date).startsWith("2025-02"));
      expect(table.rows).toEqual(
        points.map((p) => ({ dimension: p.date, values: [p.traff, p.visible, p.out_keywords] })),
      );
      expect(table.totals).toEqual([points[1].traff, points[1].visible, points[1].out_keywords]);
      expect(response.json().data.notices).toEqual([]);
      const call = (await rpcCalls("SerpstatDomainProcedure.getDomainsHistory")).at(-1);
      expect(call?.method).toBe("POST");
      expect(call?.query).toEqual({ token: FAKE_SERPSTAT_TOKEN });
      expect(JSON.parse(call?.body ?? "{}")).toMatchObject({
        id: expect.any(String),
        method: "SerpstatDomainProcedure.getDomainsHistory",
        params: { domain: "acme.com", se: "g_us", page: 1, sort: { date: "desc" } },
      });
    });

    it("domain keywords: rows by keyword, volumes and traffic summed, CPC in dollars", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(
        client,
        [keywords(id, { dimension: "keyword", metrics: ["position", "searchVolume", "cpc", "traffic"] })],
        { startDate: "2025-05-01", endDate: "2025-05-31", comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      const rows = fakeSerpstatKeywords().sort((a, b) => Number(b.traff) - Number(a.traff));
      expect(table.rows[0]).toEqual({ dimension: "acme anvils", values: [2, 5400, 1.2, 900] });
      expect(table.rows).toHaveLength(3);
      expect(table.metrics[2]).toEqual({
        key: "a.cpc",
        label: "CPC",
        format: "money",
        currency: "USD",
        lowerIsBetter: true,
      });
      expect(table.totals).toEqual([
        null,
        rows.reduce((sum, row) => sum + Number(row.region_queries_count), 0),
        null,
        rows.reduce((sum, row) => sum + Number(row.traff), 0),
      ]);
      const call = (await rpcCalls("SerpstatDomainProcedure.getDomainKeywords")).at(-1);
      expect(JSON.parse(call?.body ?? "{}").params).toEqual({
        domain: "acme.com",
        se: "g_us",
        page: 1,
        size: 50,
        sort: { traff: "desc" },
      });
    });

    it("credits running low are told on the widget (from summary_info.left_lines)", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const fake = await serpstat();
      const before = fake.credits;
      fake.credits = 500;
      try {
        const response = await widgetData(client, [history(id, { se: "g_de", metrics: ["keywords"] })], {
          startDate: "2025-07-01",
          endDate: "2025-07-31",
          comparison: false,
        });
        expect(response.statusCode).toBe(200);
        const left = (await serpstat()).credits;
        expect(response.json().data.notices).toEqual([
          {
            instanceId: expect.any(String),
            asOf: expect.any(String),
            message: `Serpstat has ${left} API credits left`,
          },
        ]);
      } finally {
        (await serpstat()).credits = before;
      }
    });

    it("Data not found (32017) for a new or small domain is No data with the reason, kept: the paid answer is not bought twice", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2025-03-01", endDate: "2025-03-31", comparison: false };
      const asked = async () =>
        [
          ...(await rpcCalls("SerpstatDomainProcedure.getDomainsHistory")),
          ...(await rpcCalls("SerpstatDomainProcedure.getDomainKeywords")),
        ].filter((call) => call.body.includes('"new-client.example"')).length;
      const before = await asked();
      const creditsBefore = (await serpstat()).credits;
      const reason =
        "Serpstat has no data for new-client.example in its g_us database yet (new and small sites are often not in it).";
      for (const widget of [
        history(id, { domain: "new-client.example", dimension: "date", metrics: ["visibility"] }),
        keywords(id, { domain: "new-client.example", metrics: ["searchVolume", "traffic"] }),
      ]) {
        const response = await widgetData(client, [widget], range);
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.current.rows).toEqual([]);
        expect(data.current.totals.every((total: number | null) => total === null)).toBe(true);
        expect(data.noData).toEqual([{ instanceId: widget.id, reason }]);
      }
      expect(await asked()).toBe(before + 2);
      // Each empty answer cost a credit; showing the widgets again costs none.
      expect(creditsBefore - (await serpstat()).credits).toBe(2);
      const again = await widgetData(
        client,
        [history(id, { domain: "new-client.example", dimension: "date", metrics: ["visibility"] })],
        range,
      );
      expect(again.json().data.noData).toEqual([{ instanceId: expect.any(String), reason }]);
      expect(await asked()).toBe(before + 2);
      expect(creditsBefore - (await serpstat()).credits).toBe(2);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a settled range is served from the database: Serpstat (and its credits) are not asked twice", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const sources = env().services.get("sources");
      const request = {
        type: "serpstat.domain",
        inputs: { se: "g_uk", metrics: ["keywords"] },
        range: { startDate: "2025-04-01", endDate: "2025-04-30" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await rpcCalls("SerpstatDomainProcedure.getDomainsHistory")).filter((call) => call.body.includes('"g_uk"'))
          .length;
      const askedBefore = await asked();
      const creditsBefore = (await serpstat()).credits;
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      const april = fakeSerpstatHistory("g_uk").filter((p) => String(p.date).startsWith("2025-04"));
      expect(first.table.totals).toEqual([april[1].keywords]);
      expect(await asked()).toBe(askedBefore + 1);
      const spent = creditsBefore - (await serpstat()).credits;
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(askedBefore + 1);
      expect(creditsBefore - (await serpstat()).credits).toBe(spent);
    });

    it("JSON-RPC errors with HTTP 200: bad params are the form's 422, credits used up serve the stored numbers, a refused token invalidates", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const bad = await widgetData(client, [history(id, { se: "g_zz", metrics: ["keywords"] })]);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors["instances.0.inputs.general"]).toEqual([
        "The provider refused these settings: Invalid params: se (code -32602)",
      ]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);

      const sources = env().services.get("sources");
      const today = new Date().toISOString().slice(0, 10);
      const range = { startDate: `${today.slice(0, 8)}01`, endDate: today };
      // Keys in the order the data path normalises them (sorted), so both ask for the same stored result.
      const inputs = { metrics: ["traffic"], se: "g_ua" };
      const stored = await sources.query(company.id, await sources.load(company.id, id), {
        type: "serpstat.domain",
        inputs,
        range,
        timezone: "UTC",
      });
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", id)
        .execute();
      // Faults aimed at this query only (a refresh of another test's widget must not take them).
      (await serpstat()).failNext.push({
        status: 200,
        body: { id: "1", error: { code: -32000, message: "API credits limit exceeded" } },
        pathIncludes: '"se":"g_ua"',
      });
      const exhausted = await client.api("POST", "/api/widgets/data", {
        instances: [history(id, inputs)],
        timezone: "UTC",
        ...range,
        comparison: false,
      });
      expect(exhausted.statusCode).toBe(200);
      expect((await serpstat()).failNext).toEqual([]);
      expect(exhausted.json().data.current.totals).toEqual(stored.table.totals);
      expect(exhausted.json().data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "SerpStat quota reached" },
      ]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);

      // Another source: the token was revoked at Serpstat.
      const other = (await connect(client)).json().data.id;
      (await serpstat()).failNext.push({
        status: 200,
        body: { id: "1", error: { code: -32001, message: "Invalid token!" } },
      });
      const refused = await widgetData(client, [history(other, { metrics: ["traffic"] })], {
        startDate: "2025-03-01",
        endDate: "2025-03-31",
        comparison: false,
      });
      expect(refused.statusCode).toBe(502);
      const list = (await client.api("GET", "/api/sources")).json().data;
      expect(list.find((source: { id: string }) => source.id === other).invalid).toBe(true);
    });
  },
  fakes.env,
);
