import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestClient } from "../../../test/harness";
import { FAKE_SERPSTAT_TOKEN, serpstatFake } from "./fake";

const connect = (client: TestClient, token: string) =>
  client.api("POST", "/api/sources", { name: "serpstat", account: "acme.com", token });
/** Domain history metrics (keys sorted as the data path normalises them): one JSON-RPC request each. */
const history = (metric: string, se = "g_us") => ({
  type: "serpstat.domain",
  inputs: { metrics: [metric], se },
});
const failing = (status: number, body: unknown) => Array.from({ length: 3 }, () => ({ status, body }));

connectorScenarios({
  title: "SerpStat",
  fakes: () => ({ serpstat: serpstatFake() }),
  part: "serpstat",
  connect: async (client) => (await connect(client, FAKE_SERPSTAT_TOKEN)).json().data.id,
  queries: [
    history("visibility"),
    history("keywords"),
    history("traffic"),
    history("newKeywords"),
    history("lostKeywords"),
    history("visibility", "g_de"),
    history("traffic", "g_de"),
  ],
  upstream: (call) => call.path === "/v4/" && call.body.includes('"SerpstatDomainProcedure.getDomainsHistory"'),
  notices: {
    limited: "SerpStat is limiting requests",
    down: "SerpStat is not answering",
    reconnect: "SerpStat needs to be reconnected",
  },
  typedKey: {
    connect,
    wrong: "not-the-token",
    errors: { token: ["SerpStat refused these credentials: Invalid token! (code -32001)"] },
  },
  revoke: async (fakes) => {
    fakes.parts.serpstat.token = "another-token";
    return () => {
      fakes.parts.serpstat.token = FAKE_SERPSTAT_TOKEN;
    };
  },
  // Over the plan's requests a second: a 429 (./classify.ts), waited out a second at a time. Its quota
  // answer (credits used up) holds the account for an hour, which would hold every later scenario:
  // serpstat.test.ts covers it ("credits used up serve the stored numbers").
  limited: failing(429, { id: "1", error: { code: -32000, message: "Too many requests per second" } }),
  down: failing(503, "Service Unavailable"),
  malformed: [{ status: 200, body: '{"id": "1", "result": {"data": [{"date": ' }],
  settled: { query: history("keywords", "g_uk"), range: { startDate: "2025-04-01", endDate: "2025-04-30" } },
  // No paging (a fixed number of lines a request) and no zone: the history is one snapshot a month per
  // database, so no viewer's day can fall into another month's row than its own date says.
});
