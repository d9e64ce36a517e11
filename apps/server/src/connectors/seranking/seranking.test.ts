import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import {
  SERANKING_KEY,
  SERANKING_KEYWORDS,
  SERANKING_PREFIX,
  serankingChecked,
  serankingFake,
  serankingPosition,
} from "./fake";

const fakes = fakesForFile(afterAll, () => ({ seranking: serankingFake() }));
const calls = async () => (await fakes.current()).calls;

const SITE = "1038110";
const GOOGLE = "1157702";

async function connect(client: TestClient, token = SERANKING_KEY) {
  return client.api("POST", "/api/sources", { name: "seranking", account: "Acme SEO", token });
}

const rankings = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "seranking.rankings", { property: SITE, searchEngine: GOOGLE, ...inputs });

const mean = (values: number[]) =>
  Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;
const ranked = SERANKING_KEYWORDS.filter((keyword) => !keyword.unranked);
const positionsOn = (day: string) => ranked.map((keyword) => serankingPosition(keyword.id, day, GOOGLE));

describeEachDb(
  "SE Ranking against a local SE Ranking",
  (env) => {
    it("checks a typed API key with SE Ranking: the right one is stored under the account's name, sent as Token", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "seranking")).toMatchObject({
        available: true,
        authKind: "account+token",
        note: null,
      });
      // A wrong key: the scenario kit (test/connector-scenarios/seranking.test.ts).
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      const right = await connect(client);
      expect(right.statusCode).toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: right.json().data.id, name: "seranking", account: "Acme SEO", invalid: false }),
      ]);
      // The check SE Ranking saw: the projects list, the key as `Token`, never Bearer.
      const check = (await calls()).findLast((call) => call.path === `${SERANKING_PREFIX}/sites`);
      expect(check?.headers.authorization).toBe(`Token ${SERANKING_KEY}`);
    });

    it("lists the key's projects and a project's search engines by name", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      expect((await client.api("GET", `/api/sources/${id}/properties`)).json().data).toEqual([
        { value: "1038111", label: "acme-shoes.de" },
        { value: "1038110", label: "acme.com" },
      ]);
      const engines = await client.api(
        "GET",
        `/api/sources/${id}/searchEngines?type=seranking.rankings&property=${SITE}`,
      );
      expect(engines.json().data).toEqual([
        { value: "1157702", label: "google.com (en)" },
        { value: "1157703", label: "bing.com (en)" },
      ]);
      const noProject = await client.api("GET", `/api/sources/${id}/searchEngines?type=seranking.rankings`);
      expect(noProject.statusCode).toBe(422);
      expect(noProject.json().errors.property).toEqual(["The property field is required."]);
      const metrics = (await client.api("GET", `/api/sources/${id}/metrics?type=seranking.rankings`)).json().data;
      expect(metrics).toContainEqual({ value: "averagePosition", label: "Average position" });
    });

    it("by date: average position of ranked keywords (lower is better), keyword counts, days without a check N/A", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-05", endDate: "2026-10-08" };
      const response = await widgetData(
        client,
        [rankings(id, { dimension: "date", metrics: ["averagePosition", "top10", "top100"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.averagePosition", label: "Average position", format: "number", lowerIsBetter: true },
        { key: "a.top10", label: "Keywords in top 10", format: "number" },
        { key: "a.top100", label: "Keywords in top 100", format: "number" },
      ]);
      expect(serankingChecked("2026-10-07")).toBe(false);
      const expected = (day: string) => [
        mean(positionsOn(day)),
        positionsOn(day).filter((pos) => pos <= 10).length,
        // Three keywords ranked; the fourth is never in the results.
        3,
      ];
      expect(table.rows).toEqual([
        { dimension: "2026-10-05", values: expected("2026-10-05") },
        { dimension: "2026-10-06", values: expected("2026-10-06") },
        { dimension: "2026-10-07", values: [null, null, null] },
        { dimension: "2026-10-08", values: expected("2026-10-08") },
      ]);
      // Average position is the mean of every check, never a sum; counts are the last checked day's.
      const days = ["2026-10-05", "2026-10-06", "2026-10-08"];
      expect(table.totals).toEqual([mean(days.flatMap(positionsOn)), expected("2026-10-08")[1], 3]);
      const call = (await calls()).findLast(
        (entry) =>
          entry.path === `${SERANKING_PREFIX}/sites/${SITE}/positions` && entry.query.date_from === "2026-10-05",
      );
      expect(call?.query).toEqual({ date_from: "2026-10-05", date_to: "2026-10-08", site_engine_id: GOOGLE });
      expect(call?.headers.authorization).toBe(`Token ${SERANKING_KEY}`);
    });

    it("by keyword: each keyword's average position and whether it is in the top 10 on its last check", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const range = { startDate: "2026-10-01", endDate: "2026-10-03" };
      const response = await widgetData(
        client,
        [rankings(id, { dimension: "keyword", metrics: ["averagePosition", "top10"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      const days = ["2026-10-01", "2026-10-02", "2026-10-03"];
      const rows = ranked
        .map((keyword) => {
          const positions = days.map((day) => serankingPosition(keyword.id, day, GOOGLE));
          const last = serankingPosition(keyword.id, "2026-10-03", GOOGLE);
          return { dimension: keyword.name, values: [mean(positions), last <= 10 ? 1 : 0] };
        })
        .sort((a, b) => (a.values[0] ?? 0) - (b.values[0] ?? 0));
      expect(table.rows).toEqual([...rows, { dimension: "buy shoes online", values: [null, 0] }]);
      expect(table.totals).toEqual([
        mean(days.flatMap(positionsOn)),
        positionsOn("2026-10-03").filter((pos) => pos <= 10).length,
      ]);
    });

    it("missing inputs and a project the key does not own are the form's 422; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = (await connect(client)).json().data.id;
      const noEngine = await widgetData(client, [
        rankings(id, { searchEngine: "", dimension: "date", metrics: ["top10"] }),
      ]);
      expect(noEngine.statusCode).toBe(422);
      expect(JSON.stringify(noEngine.json())).toContain("The search engine field is required.");
      const foreign = await widgetData(client, [
        rankings(id, { property: "999", dimension: "date", metrics: ["top10"] }),
      ]);
      expect(foreign.statusCode).toBe(422);
      expect(JSON.stringify(foreign.json())).toContain("Site not found");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });
  },
  fakes.env,
);
