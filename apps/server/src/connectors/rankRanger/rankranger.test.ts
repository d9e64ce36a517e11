import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import {
  RANKRANGER_KEY,
  RANKRANGER_KEYWORDS,
  RANKRANGER_PREFIX,
  rankRangerChecked,
  rankRangerFake,
  rankRangerPosition,
  rankRangerVisibility,
} from "./fake";

const fakes = fakesForFile(afterAll, () => ({ rankranger: rankRangerFake() }));
const fake = async () => (await fakes.current()).parts.rankranger;
const calls = async () => (await fakes.current()).calls;
const apiCalls = async (method: string) =>
  (await calls()).filter((call) => call.path === `${RANKRANGER_PREFIX}/api/v2/` && method in call.query);

const CAMPAIGN = "48213";
const DESKTOP = "64";
const MOBILE = "433";
const DESKTOP_NAME = "Google USA (English)";
const MOBILE_NAME = "Google Mobile USA (English)";

async function connect(client: TestClient, token = RANKRANGER_KEY) {
  return client.api("POST", "/api/sources", { name: "rankRanger", account: "Acme SEO", token });
}

const stats = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "rankRanger.rankStats", { property: CAMPAIGN, ...inputs });
const keywords = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "rankRanger.keywords", { property: CAMPAIGN, dimension: "keyword", ...inputs });

const mean = (values: number[]) =>
  Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;
const ranked = RANKRANGER_KEYWORDS.filter((keyword) => !keyword.unranked);
const positionsOn = (day: string, engine: string, domain = "acme.com") =>
  ranked.map((keyword) => rankRangerPosition(keyword.name, day, engine, domain) ?? 0);
const top10 = (positions: number[]) => positions.filter((pos) => pos <= 10).length;

describeEachDb(
  "Rank Ranger against a local Rank Ranger",
  (env) => {
    it("checks a typed API key with Rank Ranger: an echoed key is never shown; the right one is stored", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "rankRanger")).toMatchObject({
        available: true,
        authKind: "account+token",
        order: 12,
        note: null,
      });
      // A wrong key is the form's 422: the scenario kit (test/connector-scenarios/rankranger.test.ts).
      // Should Rank Ranger echo the key in its words, the form never shows it.
      (await fake()).failNext.push({
        status: 200,
        body: { error: { code: 101, message: "Invalid API key: not-the-key-4242" } },
        pathIncludes: "package_campaigns",
      });
      const echoed = await connect(client, "not-the-key-4242");
      expect(echoed.json().errors).toEqual({
        token: ["RankRanger refused these credentials: Invalid API key: [key] (code 101)"],
      });

      const right = await connect(client);
      expect(right.statusCode).toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: right.json().data.id, name: "rankRanger", account: "Acme SEO", invalid: false }),
      ]);
      // The check Rank Ranger saw: the campaign list, the key in the query, JSON asked for.
      const check = (await apiCalls("package_campaigns")).at(-1);
      expect(check?.query).toEqual({ package_campaigns: "", key: RANKRANGER_KEY, output: "json", json_strict: "true" });
    });

    it("lists the key's campaigns, a campaign's domains and search engines", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      expect((await client.api("GET", `/api/sources/${id}/properties`)).json().data).toEqual([
        { value: "48213", label: "Acme (acme.com)" },
        { value: "48214", label: "Acme Schuhe (acme-shoes.de)" },
      ]);
      const domains = await client.api(
        "GET",
        `/api/sources/${id}/domains?type=rankRanger.rankStats&property=${CAMPAIGN}`,
      );
      expect(domains.json().data).toEqual([
        { value: "acme.com", label: "acme.com" },
        { value: "rival.com", label: "rival.com" },
      ]);
      const engines = await client.api(
        "GET",
        `/api/sources/${id}/searchEngines?type=rankRanger.keywords&property=${CAMPAIGN}`,
      );
      expect(engines.json().data).toEqual([
        { value: DESKTOP, label: DESKTOP_NAME },
        { value: MOBILE, label: MOBILE_NAME },
      ]);
      const noCampaign = await client.api("GET", `/api/sources/${id}/searchEngines?type=rankRanger.keywords`);
      expect(noCampaign.statusCode).toBe(422);
      expect(noCampaign.json().errors.property).toEqual(["The property field is required."]);
      const foreign = await client.api("GET", `/api/sources/${id}/domains?type=rankRanger.rankStats&property=999`);
      expect(foreign.statusCode).toBe(422);
      const metrics = (await client.api("GET", `/api/sources/${id}/metrics?type=rankRanger.keywords`)).json().data;
      expect(metrics).toEqual([
        { value: "position", label: "Position" },
        { value: "top3", label: "Keywords in top 3" },
        { value: "top10", label: "Keywords in top 10" },
        { value: "top100", label: "Keywords in top 100" },
      ]);
      const statsMetrics = (await client.api("GET", `/api/sources/${id}/metrics?type=rankRanger.rankStats`)).json()
        .data;
      expect(statsMetrics).toContainEqual({ value: "visibility", label: "Visibility" });
    });

    it("rank stats by date: average position, keyword counts and visibility, days without a check N/A", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-05", endDate: "2026-10-08" };
      const response = await widgetData(
        client,
        [
          stats(id, {
            searchEngine: DESKTOP,
            dimension: "date",
            metrics: ["averagePosition", "top10", "top100", "visibility"],
          }),
        ],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.averagePosition", label: "Average position", format: "number", lowerIsBetter: true },
        { key: "a.top10", label: "Keywords in top 10", format: "number" },
        { key: "a.top100", label: "Keywords in top 100", format: "number" },
        { key: "a.visibility", label: "Visibility", format: "number" },
      ]);
      expect(rankRangerChecked("2026-10-07")).toBe(false);
      const expected = (day: string) => [
        mean(positionsOn(day, DESKTOP)),
        top10(positionsOn(day, DESKTOP)),
        // Three keywords ranked (1–60); the fourth is never in the results.
        3,
        rankRangerVisibility(day, DESKTOP, "acme.com"),
      ];
      expect(table.rows).toEqual([
        { dimension: "2026-10-05", values: expected("2026-10-05") },
        { dimension: "2026-10-06", values: expected("2026-10-06") },
        { dimension: "2026-10-07", values: [null, null, null, null] },
        { dimension: "2026-10-08", values: expected("2026-10-08") },
      ]);
      // Average position is the mean of every check, never a sum; counts and visibility are the last day's.
      const days = ["2026-10-05", "2026-10-06", "2026-10-08"];
      expect(table.totals).toEqual([
        mean(days.flatMap((day) => positionsOn(day, DESKTOP))),
        expected("2026-10-08")[1],
        3,
        rankRangerVisibility("2026-10-08", DESKTOP, "acme.com"),
      ]);
      // The campaign's own domain when none is chosen; the engine narrowed at Rank Ranger.
      const rank = (await apiCalls("rank")).findLast((call) => call.query.start_date === "2026-10-05");
      expect(rank?.query).toEqual({
        rank: "",
        key: RANKRANGER_KEY,
        start_date: "2026-10-05",
        end_date: "2026-10-08",
        campaign_id: CAMPAIGN,
        domain: "acme.com",
        se_id: DESKTOP,
        output: "json",
        json_strict: "true",
      });
      const trend = (await apiCalls("get_visibility_trend")).findLast((call) => call.query.start_date === "2026-10-05");
      expect(trend?.query).toMatchObject({ campaign_id: CAMPAIGN, domain: "acme.com", se_id: DESKTOP });
    });

    it("rank stats by search engine and by domain: each row's mean position, last-day counts and visibility", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-01", endDate: "2026-10-03" };
      const days = ["2026-10-01", "2026-10-02", "2026-10-03"];
      const last = "2026-10-03";
      const byEngine = await widgetData(
        client,
        [stats(id, { dimension: "searchEngine", metrics: ["averagePosition", "top10", "visibility"] })],
        range,
      );
      expect(byEngine.statusCode).toBe(200);
      const engineTable = byEngine.json().data.current;
      expect(engineTable.dimension).toEqual({ key: "searchEngine", label: "Search engine", kind: "string" });
      const engineRow = (engine: string, name: string) => ({
        dimension: name,
        values: [
          mean(days.flatMap((day) => positionsOn(day, engine))),
          top10(positionsOn(last, engine)),
          rankRangerVisibility(last, engine, "acme.com"),
        ],
      });
      const engineRows = [engineRow(DESKTOP, DESKTOP_NAME), engineRow(MOBILE, MOBILE_NAME)].sort(
        (a, b) => (a.values[0] ?? 0) - (b.values[0] ?? 0),
      );
      expect(engineTable.rows).toEqual(engineRows);
      expect(engineTable.totals).toEqual([
        mean(days.flatMap((day) => [...positionsOn(day, DESKTOP), ...positionsOn(day, MOBILE)])),
        top10(positionsOn(last, DESKTOP)) + top10(positionsOn(last, MOBILE)),
        mean([rankRangerVisibility(last, DESKTOP, "acme.com"), rankRangerVisibility(last, MOBILE, "acme.com")]),
      ]);

      // The fake is shared by the file's runs on both databases: count this query's calls only.
      const before = (await apiCalls("rank")).length;
      const byDomain = await widgetData(
        client,
        [stats(id, { searchEngine: MOBILE, dimension: "domain", metrics: ["top3", "visibility"] })],
        range,
      );
      expect(byDomain.statusCode).toBe(200);
      const domainTable = byDomain.json().data.current;
      const domainRow = (domain: string) => ({
        dimension: domain,
        values: [
          positionsOn(last, MOBILE, domain).filter((pos) => pos <= 3).length,
          rankRangerVisibility(last, MOBILE, domain),
        ],
        average: mean(days.flatMap((day) => positionsOn(day, MOBILE, domain))),
      });
      const domainRows = [domainRow("acme.com"), domainRow("rival.com")]
        .sort((a, b) => a.average - b.average)
        .map(({ dimension, values }) => ({ dimension, values }));
      expect(domainTable.rows).toEqual(domainRows);
      // One call per tracked domain of the campaign.
      const domains = (await apiCalls("rank"))
        .slice(before)
        .filter((call) => call.query.start_date === "2026-10-01" && call.query.se_id === MOBILE)
        .map((call) => call.query.domain)
        .sort();
      expect(domains).toEqual(["acme.com", "rival.com"]);
    });

    it("keyword rankings: each keyword's position in the range and in the comparison period", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(
        client,
        [keywords(id, { searchEngine: MOBILE, metrics: ["position", "top10"] })],
        {
          startDate: "2026-10-08",
          endDate: "2026-10-10",
          compareStartDate: "2026-10-01",
          compareEndDate: "2026-10-03",
        },
      );
      expect(response.statusCode).toBe(200);
      const { current, previous } = response.json().data;
      expect(current.dimension).toEqual({ key: "keyword", label: "Keyword", kind: "string" });
      expect(current.metrics).toEqual([
        { key: "a.position", label: "Position", format: "number", lowerIsBetter: true },
        { key: "a.top10", label: "Keywords in top 10", format: "number" },
      ]);
      const rows = (days: string[]) =>
        ranked
          .map((keyword) => {
            const positions = days.map((day) => rankRangerPosition(keyword.name, day, MOBILE, "acme.com") ?? 0);
            const last = positions.at(-1) ?? 0;
            return { dimension: keyword.name, values: [mean(positions), last <= 10 ? 1 : 0] as (number | null)[] };
          })
          .sort((a, b) => (a.values[0] ?? 0) - (b.values[0] ?? 0))
          .concat({ dimension: "buy shoes online", values: [null, 0] });
      expect(current.rows).toEqual(rows(["2026-10-08", "2026-10-09", "2026-10-10"]));
      // The comparison period is asked for separately: the widget shows each keyword's change against it.
      expect(previous.rows).toEqual(rows(["2026-10-01", "2026-10-02", "2026-10-03"]));
    });

    it("missing inputs, a campaign or domain Rank Ranger does not know are the form's 422; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const noEngine = await widgetData(client, [keywords(id, { searchEngine: "", metrics: ["position"] })]);
      expect(noEngine.statusCode).toBe(422);
      expect(JSON.stringify(noEngine.json())).toContain("The search engine field is required.");
      const foreign = await widgetData(client, [
        keywords(id, { property: "999", domain: "acme.com", searchEngine: DESKTOP, metrics: ["position"] }),
      ]);
      expect(foreign.statusCode).toBe(422);
      expect(JSON.stringify(foreign.json())).toContain("Campaign not found (code 201)");
      const untracked = await widgetData(client, [
        stats(id, { domain: "elsewhere.com", dimension: "date", metrics: ["top10"] }),
      ]);
      expect(untracked.statusCode).toBe(422);
      expect(JSON.stringify(untracked.json())).toContain("Domain is not tracked in this campaign (code 202)");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("Rank Ranger down or limiting: stored numbers with a notice; a revoked key invalidates; the key is stored nowhere", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const sources = env().services.get("sources");
      const today = new Date().toISOString().slice(0, 10);
      const range = { startDate: "2026-11-01", endDate: today };
      // One widget per case (each its own stored answer), its numbers stored by an earlier view: the
      // range touches today, so they are due again after 15 minutes.
      const view = async (metric: string) => {
        const inputs = { dimension: "date", domain: "acme.com", metrics: [metric], searchEngine: DESKTOP };
        const stored = await sources.query(company.id, await sources.load(company.id, id), {
          type: "rankRanger.rankStats",
          // As the data path hands them over: declared keys, sorted.
          inputs: {
            dimension: "date",
            domain: "acme.com",
            metrics: [metric],
            property: CAMPAIGN,
            searchEngine: DESKTOP,
          },
          range,
          timezone: "UTC",
        });
        await env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: new Date(Date.now() - 20 * 60_000).toISOString() })
          .where("source_id", "=", id)
          .execute();
        return {
          stored: stored.table,
          ask: () =>
            client.api("POST", "/api/widgets/data", {
              instances: [stats(id, inputs)],
              timezone: "UTC",
              ...range,
              comparison: false,
            }),
        };
      };
      const failing = (status: number, body: unknown) => Array.from({ length: 3 }, () => ({ status, body }));
      try {
        for (const [metric, faults, notice] of [
          ["averagePosition", failing(503, "Service Unavailable"), "RankRanger is not answering"],
          [
            "top10",
            failing(429, { error: { code: 429, message: "Too many requests" } }),
            "RankRanger is limiting requests",
          ],
          // HTTP 200 with an error, its words echoing the request's key.
          [
            "top3",
            failing(200, { error: { code: 500, message: `Internal error for key=${RANKRANGER_KEY}` } }),
            "RankRanger is not answering",
          ],
        ] as const) {
          const { stored, ask } = await view(metric);
          (await fake()).failNext.push(...faults);
          const response = await ask();
          expect(response.statusCode, response.body).toBe(200);
          expect(response.json().data.current.totals).toEqual(stored.totals);
          expect(response.json().data.notices).toEqual([
            { instanceId: expect.any(String), asOf: expect.any(String), message: notice },
          ]);
          expect(JSON.stringify(response.json())).not.toContain(RANKRANGER_KEY);
          expect((await fake()).failNext).toEqual([]);
          expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
        }
        // The key was deleted in Rank Ranger: the source needs a new one (banner 125).
        const { ask } = await view("top100");
        (await fake()).keys.delete(RANKRANGER_KEY);
        const revoked = await ask();
        expect(revoked.json().data.notices).toEqual([
          { instanceId: expect.any(String), asOf: expect.any(String), message: "RankRanger needs to be reconnected" },
        ]);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
        expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
        // Nothing stored carries the key: results, notices, the source's row (its credentials are sealed).
        const db = env().ctx.db;
        const results = await db.selectFrom("provider_results").selectAll().where("source_id", "=", id).execute();
        expect(results.length).toBeGreaterThan(0);
        const rows = await db.selectFrom("sources").selectAll().where("id", "=", id).execute();
        expect(JSON.stringify([results, rows])).not.toContain(RANKRANGER_KEY);
      } finally {
        (await fake()).keys.add(RANKRANGER_KEY);
        (await fake()).failNext.length = 0;
      }
    });

    it("a settled range is served from the database without asking Rank Ranger again", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const sources = env().services.get("sources");
      const request = {
        type: "rankRanger.keywords",
        inputs: {
          dimension: "keyword",
          domain: "acme.com",
          metrics: ["top3"],
          property: CAMPAIGN,
          searchEngine: DESKTOP,
        },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await apiCalls("rank")).filter((call) => call.query.start_date === "2026-09-01").length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(first.notice).toBeNull();
      expect(first.table.totals).toEqual([positionsOn("2026-09-30", DESKTOP).filter((pos) => pos <= 3).length]);
      expect(await asked()).toBe(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before + 1);
    });
  },
  fakes.env,
);
