import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestClient } from "../../../test/harness";
import { RANKRANGER_KEY, RANKRANGER_PREFIX, rankRangerFake } from "./fake";

const CAMPAIGN = "48213";
const DESKTOP = "64";
const MOBILE = "433";
const connect = (client: TestClient, token: string) =>
  client.api("POST", "/api/sources", { name: "rankRanger", account: "Acme SEO", token });
const stats = (metric: string, searchEngine = DESKTOP) => ({
  type: "rankRanger.rankStats",
  inputs: { dimension: "date", domain: "acme.com", metrics: [metric], property: CAMPAIGN, searchEngine },
});
const failing = (status: number, body: unknown) => Array.from({ length: 3 }, () => ({ status, body }));

connectorScenarios({
  title: "Rank Ranger",
  fakes: () => ({ rankranger: rankRangerFake() }),
  part: "rankranger",
  connect: async (client) => (await connect(client, RANKRANGER_KEY)).json().data.id,
  queries: [
    stats("averagePosition"),
    stats("top3"),
    stats("top10"),
    stats("top30"),
    stats("top100"),
    stats("averagePosition", MOBILE),
    stats("top10", MOBILE),
  ],
  upstream: (call) => call.path === `${RANKRANGER_PREFIX}/api/v2/` && "rank" in call.query,
  notices: {
    limited: "RankRanger is limiting requests",
    down: "RankRanger is not answering",
    reconnect: "RankRanger needs to be reconnected",
  },
  typedKey: {
    connect,
    wrong: "not-a-key",
    errors: { token: ["RankRanger refused these credentials: Invalid API key (code 101)"] },
  },
  revoke: async (fakes) => {
    fakes.parts.rankranger.keys.delete(RANKRANGER_KEY);
    return () => {
      fakes.parts.rankranger.keys.add(RANKRANGER_KEY);
    };
  },
  limited: failing(429, { error: { code: 429, message: "Too many requests" } }),
  down: failing(503, "Service Unavailable"),
  malformed: [{ status: 200, body: '{"result": [{"date": ' }],
  settled: {
    query: {
      type: "rankRanger.keywords",
      inputs: {
        dimension: "keyword",
        domain: "acme.com",
        metrics: ["top3"],
        property: CAMPAIGN,
        searchEngine: DESKTOP,
      },
    },
    range: { startDate: "2026-09-01", endDate: "2026-09-30" },
  },
  // One answer a request: no paging. Ranks are named by the day Rank Ranger checked them and the range
  // is sent as dates (`start_date`/`end_date`), so the viewer's dates are asked as they are.
  zone: {
    query: stats("top10"),
    askedDays: (call) =>
      "rank" in call.query && call.query.start_date && call.query.end_date
        ? { first: call.query.start_date, last: call.query.end_date }
        : null,
  },
});
