import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { SERANKING_KEY, SERANKING_PREFIX, serankingFake } from "./fake";

const SITE = "1038110";
const GOOGLE = "1157702";
const connect = (client: Parameters<Parameters<typeof connectorScenarios>[0]["connect"]>[0], token: string) =>
  client.api("POST", "/api/sources", { name: "seranking", account: "Acme SEO", token });
const rankings = (dimension: string, metric: string) => ({
  type: "seranking.rankings",
  inputs: { dimension, metrics: [metric], property: SITE, searchEngine: GOOGLE },
});
const failing = (status: number, message: string) => Array.from({ length: 3 }, () => ({ status, body: { message } }));

connectorScenarios({
  title: "SE Ranking",
  fakes: () => ({ seranking: serankingFake() }),
  part: "seranking",
  connect: async (client) => (await connect(client, SERANKING_KEY)).json().data.id,
  queries: [
    rankings("date", "averagePosition"),
    rankings("date", "top3"),
    rankings("date", "top10"),
    rankings("date", "top30"),
    rankings("date", "top100"),
    rankings("keyword", "averagePosition"),
    rankings("keyword", "top10"),
  ],
  upstream: (call) => call.path === `${SERANKING_PREFIX}/sites/${SITE}/positions`,
  notices: {
    limited: "SERanking is limiting requests",
    down: "SERanking is not answering",
    reconnect: "SERanking needs to be reconnected",
  },
  typedKey: {
    connect,
    wrong: "not-a-key",
    errors: { token: ["SERanking refused these credentials: Invalid token"] },
  },
  revoke: async (fakes) => {
    fakes.parts.seranking.keys.delete(SERANKING_KEY);
    return () => {
      fakes.parts.seranking.keys.add(SERANKING_KEY);
    };
  },
  limited: failing(429, "Too many requests"),
  down: failing(503, "Service Unavailable"),
  malformed: [{ status: 200, body: '[{"keywords": [' }],
  settled: {
    query: rankings("keyword", "top3"),
    range: { startDate: "2026-09-01", endDate: "2026-09-30" },
  },
  // One answer a request: no paging. Positions are named by the day SE Ranking checked them and the
  // range is sent as dates (`date_from`/`date_to`), so the viewer's dates are asked as they are.
  zone: {
    query: rankings("date", "top10"),
    askedDays: (call) =>
      call.query.date_from && call.query.date_to ? { first: call.query.date_from, last: call.query.date_to } : null,
  },
});
