import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestClient } from "../../../test/harness";
import { FAKE_SEMRUSH_KEY, semrushFake } from "./fake";

const connect = (client: TestClient, token: string) =>
  client.api("POST", "/api/sources", { name: "semrush", account: "acme.com", token });
/** Domain overview metrics: one `domain_rank_history` request each. */
const domain = (metric: string, database = "us") => ({
  type: "semrush.domain",
  inputs: { database, metrics: [metric] },
});
/** SEMrush answers its failures as HTTP 200 with an `ERROR <code> :: <TEXT>` line (./classify.ts). */
const failing = (status: number, body: string) => Array.from({ length: 3 }, () => ({ status, body }));

connectorScenarios({
  title: "SEMrush",
  fakes: () => ({ semrush: semrushFake() }),
  part: "semrush",
  connect: async (client) => (await connect(client, FAKE_SEMRUSH_KEY)).json().data.id,
  queries: [
    domain("rank"),
    domain("organicKeywords"),
    domain("organicTraffic"),
    domain("organicCost"),
    domain("paidKeywords"),
    domain("paidTraffic"),
    domain("paidCost"),
  ],
  upstream: (call) => call.path === "/semrush/",
  notices: {
    limited: "SEMrush is limiting requests",
    down: "SEMrush is not answering",
    reconnect: "SEMrush needs to be reconnected",
  },
  typedKey: {
    connect,
    wrong: "not-the-key",
    errors: { token: ["SEMrush refused these credentials: ERROR 120 :: WRONG KEY - ID PAIR"] },
  },
  revoke: async (fakes) => {
    fakes.parts.semrush.key = "another-key";
    return () => {
      fakes.parts.semrush.key = FAKE_SEMRUSH_KEY;
    };
  },
  // SEMrush's limiting is ERROR 131 (over 10 requests a second), waited out a second at a time. Its quota
  // answers (ERROR 132/134, units used up) hold the account for an hour, which would hold every later
  // scenario: semrush.test.ts covers those ("SEMrush down or out of units").
  limited: failing(200, "ERROR 131 :: LIMIT EXCEEDED"),
  down: failing(502, "Bad Gateway"),
  // A CSV that ends inside a quoted cell cannot be parsed.
  malformed: [{ status: 200, body: 'Organic Keywords;Date\r\n"1200;20251115\r\n' }],
  settled: { query: domain("organicKeywords", "uk"), range: { startDate: "2025-04-01", endDate: "2025-04-30" } },
  // No paging (a fixed number of lines a request) and no zone: the history is one snapshot a month per
  // database, so no viewer's day can fall into another month's row than its own date says.
});
