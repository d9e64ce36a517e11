import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { FAKE_SEMRUSH_KEY, fakeSemrushKeywords, fakeSemrushSnapshot, semrushFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ semrush: semrushFake() }));
const semrush = async () => (await fakes.current()).parts.semrush;
const reportCalls = async () => (await fakes.current()).calls.filter((call) => call.path === "/semrush/");

async function connect(client: TestClient, token = FAKE_SEMRUSH_KEY) {
  return client.api("POST", "/api/sources", { name: "semrush", account: "acme.com", token });
}

const domainWidget = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "semrush.domain", { database: "us", ...inputs });
const keywordsWidget = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "semrush.keywords", { database: "us", ...inputs });

const month = (year: number, m: number) => year * 12 + m - 1;

describeEachDb(
  "SEMrush against a local SEMrush",
  (env) => {
    it("a wrong key is refused on the form in SEMrush's words and nothing is stored; the right one connects", async () => {
      const { client } = await buildOwner(env());
      const wrong = await connect(client, "not-the-key");
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.token[0]).toBe("SEMrush refused these credentials: ERROR 120 :: WRONG KEY - ID PAIR");
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      const right = await connect(client);
      expect(right.statusCode).toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: right.json().data.id, name: "semrush", account: "acme.com", invalid: false }),
      ]);
      // The check is the free unit-balance call, never a report that costs units.
      const checks = (await fakes.current()).calls.filter((call) => call.path === "/users/countapiunits.html");
      expect(checks.at(-1)?.query).toEqual({ key: FAKE_SEMRUSH_KEY });
    });

    it("offers SEMrush's databases and each widget type's metrics and dimension", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const databases = (await client.api("GET", `/api/sources/${id}/databases?type=semrush.domain`)).json().data;
      expect(databases).toContainEqual({ value: "us", label: "United States (google.com)" });
      expect(databases).toContainEqual({ value: "mobile-us", label: "United States, mobile" });
      expect(databases.length).toBeGreaterThan(50);
      const types = (await client.api("GET", "/api/configs/widgets/semrush")).json().data;
      expect(types.map((type: { type: string }) => type.type)).toEqual(["semrush.domain", "semrush.keywords"]);
      const required = types[0].params
        .filter((p: { required: boolean }) => p.required)
        .map((p: { key: string }) => p.key);
      expect(required).toEqual(["database", "metrics"]);
      const metrics = (await client.api("GET", `/api/sources/${id}/metrics?type=semrush.keywords`)).json().data;
      expect(metrics.map((option: { value: string }) => option.value)).toEqual([
        "position",
        "searchVolume",
        "cpc",
        "trafficShare",
        "trafficCostShare",
      ]);
    });

    it("domain overview: monthly snapshots inside the range, the standing at its end as the total, asked from domain_rank_history", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(
        client,
        [domainWidget(id, { dimension: "date", metrics: ["organicTraffic", "rank", "organicCost"] })],
        { startDate: "2025-01-01", endDate: "2025-03-31", comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.organicTraffic", label: "Organic traffic", format: "number" },
        { key: "a.rank", label: "SEMrush rank", format: "number", lowerIsBetter: true },
        { key: "a.organicCost", label: "Organic traffic cost", format: "money", currency: "USD" },
      ]);
      const expected = [1, 2, 3].map((m) => fakeSemrushSnapshot("us", month(2025, m)));
      expect(table.rows).toEqual(
        expected.map((snapshot, index) => ({
          dimension: `2025-0${index + 1}-15`,
          values: [Number(snapshot.Ot), Number(snapshot.Rk), Number(snapshot.Oc)],
        })),
      );
      expect(table.totals).toEqual([Number(expected[2].Ot), Number(expected[2].Rk), Number(expected[2].Oc)]);
      // The request SEMrush saw: the key, the domain of the source's account, only the columns and months needed.
      const call = (await reportCalls()).at(-1);
      const now = new Date();
      const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
      expect(call?.query).toEqual({
        type: "domain_rank_history",
        key: FAKE_SEMRUSH_KEY,
        domain: "acme.com",
        database: "us",
        export_columns: "Ot,Rk,Oc,Dt",
        display_sort: "dt_desc",
        display_offset: String(thisMonth - month(2025, 3) - 1),
        display_limit: "5",
      });
    });

    it("organic keywords of a past month: SEMrush's CSV read into rows, shares and volumes summed, positions not", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(
        client,
        [
          keywordsWidget(id, {
            domain: "https://www.acme.com/blog",
            dimension: "keyword",
            metrics: ["position", "searchVolume", "cpc", "trafficShare"],
          }),
        ],
        { startDate: "2025-06-01", endDate: "2025-06-30", comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      const keywords = fakeSemrushKeywords(month(2025, 6));
      expect(table.dimension).toEqual({ key: "keyword", label: "Keyword", kind: "string" });
      expect(table.metrics[2]).toEqual({
        key: "a.cpc",
        label: "CPC",
        format: "money",
        currency: "USD",
        lowerIsBetter: true,
      });
      expect(table.metrics[3]).toEqual({ key: "a.trafficShare", label: "Traffic share", format: "percent" });
      expect(table.rows[0]).toEqual({
        dimension: "acme anvils",
        values: [Number(keywords[0].Po), Number(keywords[0].Nq), Number(keywords[0].Cp), Number(keywords[0].Tr)],
      });
      expect(table.rows).toHaveLength(5);
      const volume = keywords.reduce((sum, row) => sum + Number(row.Nq), 0);
      expect(table.totals[0]).toBeNull();
      expect(table.totals[1]).toBe(volume);
      expect(table.totals[2]).toBeNull();
      expect(table.totals[3]).toBeCloseTo(
        keywords.reduce((sum, row) => sum + Number(row.Tr), 0),
        6,
      );
      const call = (await reportCalls()).at(-1);
      expect(call?.query).toMatchObject({
        type: "domain_organic",
        domain: "www.acme.com",
        display_date: "20250615",
        display_limit: "50",
        display_sort: "tr_desc",
        export_columns: "Ph,Po,Nq,Cp,Tr",
      });
    });

    it("a settled range is served from the database: SEMrush (and its units) are not asked twice", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const sources = env().services.get("sources");
      const request = {
        type: "semrush.domain",
        inputs: { database: "uk", metrics: ["organicKeywords"] },
        range: { startDate: "2025-04-01", endDate: "2025-04-30" },
        timezone: "UTC",
      };
      const asked = async () => (await reportCalls()).filter((call) => call.query.database === "uk").length;
      const unitsBefore = (await semrush()).units;
      const askedBefore = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(first.table.totals).toEqual([Number(fakeSemrushSnapshot("uk", month(2025, 4)).Or)]);
      expect(await asked()).toBe(askedBefore + 1);
      const spent = unitsBefore - (await semrush()).units;
      expect(spent).toBeGreaterThan(0);
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(askedBefore + 1);
      expect(unitsBefore - (await semrush()).units).toBe(spent);
    });

    it("nothing found for a new or small domain is No data with the reason, stored like any answer; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2025-03-01", endDate: "2025-03-31", comparison: false };
      const asked = async () =>
        (await reportCalls()).filter((call) => call.query.domain === "new-client.example").length;
      const before = await asked();
      for (const widget of [
        domainWidget(id, { domain: "new-client.example", dimension: "date", metrics: ["rank", "organicTraffic"] }),
        keywordsWidget(id, { domain: "new-client.example", metrics: ["searchVolume"] }),
      ]) {
        const response = await widgetData(client, [widget], range);
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.current.rows).toEqual([]);
        expect(data.current.totals.every((total: number | null) => total === null)).toBe(true);
        expect(data.errors).toEqual([]);
        expect(data.noData).toEqual([
          {
            instanceId: widget.id,
            reason:
              "SEMrush has no data for new-client.example in its US database yet (new and small sites are often not in it).",
          },
        ]);
      }
      expect(await asked()).toBe(before + 2);
      // Asked again: the stored answer, not SEMrush.
      const again = await widgetData(
        client,
        [domainWidget(id, { domain: "new-client.example", dimension: "date", metrics: ["rank", "organicTraffic"] })],
        range,
      );
      expect(again.json().data.noData).toHaveLength(1);
      expect(await asked()).toBe(before + 2);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("errors arrive as HTTP 200 text: a database outside the plan is the form's 422, the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      (await semrush()).failNext.push({
        status: 200,
        body: "ERROR 133 :: DB ACCESS DENIED",
        pathIncludes: "database=de",
      });
      const denied = await widgetData(client, [domainWidget(id, { database: "de", metrics: ["rank"] })]);
      expect(denied.statusCode).toBe(422);
      expect(denied.json().errors["instances.0.inputs.database"]).toEqual([
        "The provider refused these settings: ERROR 133 :: DB ACCESS DENIED",
      ]);
      const missing = await widgetData(client, [domainWidget(id, { database: "", metrics: ["rank"] })]);
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors["instances.0.inputs.database"]).toEqual(["The database field is required."]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("SEMrush out of units: the stored numbers stay on screen with a notice, and units used up are not asked for again", async () => {
      const { client, company } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const sources = env().services.get("sources");
      const today = new Date().toISOString().slice(0, 10);
      const range = { startDate: `${today.slice(0, 8)}01`, endDate: today };
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      // Due again: the range touches today and was fetched twenty minutes ago.
      const age = () =>
        env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: fetchedAt })
          .where("source_id", "=", id)
          .execute();
      // SEMrush down (a 502 past the retries): ./scenarios.test.ts. Out of units:
      const paid = { database: "uk", metrics: ["paidTraffic"] };
      const kept = await sources.query(company.id, await sources.load(company.id, id), {
        type: "semrush.domain",
        inputs: paid,
        range,
        timezone: "UTC",
      });
      await age();
      (await semrush()).failNext.push({
        status: 200,
        body: "ERROR 132 :: API UNITS BALANCE IS ZERO",
        pathIncludes: "export_columns=At",
      });
      const exhausted = await client.api("POST", "/api/widgets/data", {
        instances: [domainWidget(id, paid)],
        timezone: "UTC",
        ...range,
        comparison: false,
      });
      expect(exhausted.statusCode).toBe(200);
      expect(exhausted.json().data.current.totals).toEqual(kept.table.totals);
      expect(exhausted.json().data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "SEMrush quota reached" },
      ]);
      // Units do not come back on their own: this account is not asked again for a while.
      const before = (await reportCalls()).length;
      await age();
      const held = await sources.query(company.id, await sources.load(company.id, id), {
        type: "semrush.domain",
        inputs: paid,
        range,
        timezone: "UTC",
      });
      expect(held.notice?.message).toBe("SEMrush quota reached");
      expect((await reportCalls()).length).toBe(before);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a key SEMrush no longer accepts makes the source invalid (banner 125)", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      (await semrush()).failNext.push({
        status: 200,
        body: "ERROR 120 :: WRONG KEY - ID PAIR",
        pathIncludes: "database=mobile-us",
      });
      const refused = await widgetData(client, [domainWidget(id, { database: "mobile-us", metrics: ["rank"] })], {
        startDate: "2025-03-01",
        endDate: "2025-03-31",
        comparison: false,
      });
      expect(refused.statusCode).toBe(502);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });
  },
  fakes.env,
);
