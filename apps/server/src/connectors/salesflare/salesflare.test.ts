import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { SALESFLARE_KEY, SALESFLARE_PREFIX, salesflareFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ salesflare: salesflareFake() }));
const fake = async () => (await fakes.current()).parts.salesflare;
const calls = async () => (await fakes.current()).calls;

async function connect(client: TestClient, token = SALESFLARE_KEY) {
  return client.api("POST", "/api/sources", { name: "salesflare", account: "my crm", token });
}

const deals = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "salesflare.deals", { pipeline: "1", ...inputs });

const OCTOBER_WEEK = { startDate: "2026-10-01", endDate: "2026-10-07" };
const ALL = [
  "pipelineValue",
  "weightedValue",
  "openDeals",
  "wonValue",
  "wonDeals",
  "lostDeals",
  "winRate",
  "averageDealSize",
];

describeEachDb(
  "Salesflare against a local Salesflare",
  (env) => {
    it("checks a typed API key with Salesflare: a right one takes the team's name", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "salesflare")).toMatchObject({
        available: true,
        authKind: "account+token",
      });
      // A wrong key: the scenario kit (test/connector-scenarios/salesflare.test.ts).
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      const right = await connect(client);
      expect(right.statusCode).toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({
          id: right.json().data.id,
          name: "salesflare",
          account: "Acme Agency",
          invalid: false,
        }),
      ]);
      const check = (await calls()).findLast((call) => call.path === `${SALESFLARE_PREFIX}/me`);
      expect(check?.headers.authorization).toBe(`Bearer ${SALESFLARE_KEY}`);
    });

    it("lists the pipelines to choose from", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      expect((await client.api("GET", `/api/sources/${id}/pipelines?type=salesflare.deals`)).json().data).toEqual([
        { value: "1", label: "Sales" },
        { value: "2", label: "Partnerships" },
      ]);
    });

    it("pipeline value, won deals and rates of the deals closing in the range, money in the deals' currency", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const response = await widgetData(client, [deals(id, { metrics: ALL })], OCTOBER_WEEK);
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toBeNull();
      expect(table.metrics).toEqual([
        { key: "a.pipelineValue", label: "Pipeline value", format: "money", currency: "EUR" },
        { key: "a.weightedValue", label: "Weighted pipeline value", format: "money", currency: "EUR" },
        { key: "a.openDeals", label: "Open deals", format: "number" },
        { key: "a.wonValue", label: "Won value", format: "money", currency: "EUR" },
        { key: "a.wonDeals", label: "Won deals", format: "number" },
        { key: "a.lostDeals", label: "Lost deals", format: "number" },
        { key: "a.winRate", label: "Win rate", format: "percent" },
        { key: "a.averageDealSize", label: "Average won deal size", format: "money", currency: "EUR" },
      ]);
      // Open: Globex 8,000 at the stage's 50 %, Initech 5,000 at its own 20 %. Won: Acme 12,000 and
      // Wayne 4,000 in euros, Stark's 9,000 dollars counted as a deal but not added to euros. Lost: Umbrella.
      expect(table.totals).toEqual([13000, 5000, 2, 16000, 3, 1, 75, 8000]);
      // The request Salesflare saw: the pipeline, the close-date bounds, a page of 100.
      const call = (await calls()).findLast(
        (entry) => entry.path === `${SALESFLARE_PREFIX}/opportunities` && entry.query.close_after === "2026-10-01",
      );
      expect(call?.query).toEqual({
        pipeline: "1",
        close_after: "2026-10-01",
        close_before: "2026-10-08",
        order_by: "close_date",
        limit: "100",
        offset: "0",
      });
      expect(call?.headers.authorization).toBe(`Bearer ${SALESFLARE_KEY}`);
    });

    it("by stage (every stage in the pipeline's order), by owner and by close date", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const byStage = (
        await widgetData(
          client,
          [deals(id, { dimension: "stage", metrics: ["pipelineValue", "wonDeals"] })],
          OCTOBER_WEEK,
        )
      ).json().data.current;
      expect(byStage.dimension).toEqual({ key: "stage", label: "Stage", kind: "string" });
      expect(byStage.rows).toEqual([
        { dimension: "Lead", values: [5000, 0] },
        { dimension: "Proposal", values: [8000, 0] },
        { dimension: "Won", values: [0, 3] },
        { dimension: "Lost", values: [0, 0] },
      ]);
      const byOwner = (
        await widgetData(client, [deals(id, { dimension: "owner", metrics: ["wonValue", "winRate"] })], OCTOBER_WEEK)
      ).json().data.current;
      expect(byOwner.rows).toEqual([
        { dimension: "Jane Doe", values: [12000, 100] },
        { dimension: "Tom Lee", values: [4000, 50] },
      ]);
      // The rate of all owners is computed from the sums, not added up.
      expect(byOwner.totals).toEqual([16000, 75]);
      const byDay = (
        await widgetData(client, [deals(id, { dimension: "closeDate", metrics: ["wonDeals"] })], OCTOBER_WEEK)
      ).json().data.current;
      expect(byDay.rows.map((row: { values: number[] }) => row.values[0])).toEqual([0, 1, 1, 0, 0, 0, 1]);
    });

    it("reads every page of a busy month", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const seen = (await calls()).length;
      const response = await widgetData(client, [deals(id, { metrics: ["openDeals", "pipelineValue"] })], {
        startDate: "2026-09-01",
        endDate: "2026-09-30",
      });
      expect(response.json().data.current.totals).toEqual([150, 15000]);
      const pages = (await calls())
        .slice(seen)
        .filter((call) => call.path.endsWith("/opportunities") && call.query.close_after === "2026-09-01")
        .map((call) => call.query.offset);
      expect(pages).toEqual(["0", "100"]);
    });

    it("a pipeline gone from Salesflare and a refused filter are the form's 422; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const gone = await widgetData(client, [deals(id, { pipeline: "9", metrics: ["openDeals"] })]);
      expect(gone.statusCode).toBe(422);
      expect(gone.json().errors).toEqual({
        "instances.0.inputs.pipeline": [
          "The provider refused these settings: this pipeline is no longer in Salesflare",
        ],
      });
      (await fake()).failNext.push({
        status: 400,
        body: { statusCode: 400, error: "Bad Request", message: '"close_after" must be a valid date' },
      });
      const refused = await widgetData(client, [deals(id, { metrics: ["openDeals"] })]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain('\\"close_after\\" must be a valid date');
      const missing = await widgetData(client, [deals(id, { pipeline: "", metrics: ["openDeals"] })]);
      expect(missing.statusCode).toBe(422);
      expect(JSON.stringify(missing.json())).toContain("The pipeline field is required.");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });
  },
  fakes.env,
);
