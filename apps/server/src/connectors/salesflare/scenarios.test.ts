import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestClient } from "../../../test/harness";
import { SALESFLARE_KEY, SALESFLARE_PREFIX, salesflareFake } from "./fake";

const connect = (client: TestClient, token: string) =>
  client.api("POST", "/api/sources", { name: "salesflare", account: "my crm", token });
const deals = (metric: string, dimension?: string) => ({
  type: "salesflare.deals",
  inputs: { ...(dimension && { dimension }), metrics: [metric], pipeline: "1" },
});
const failing = (status: number, error: string) =>
  Array.from({ length: 3 }, () => ({ status, body: { statusCode: status, error, message: error } }));

connectorScenarios({
  title: "Salesflare",
  fakes: () => ({ salesflare: salesflareFake() }),
  part: "salesflare",
  connect: async (client) => (await connect(client, SALESFLARE_KEY)).json().data.id,
  queries: [
    deals("wonDeals"),
    deals("openDeals"),
    deals("pipelineValue"),
    deals("weightedValue"),
    deals("lostDeals"),
    deals("winRate"),
    deals("averageDealSize"),
  ],
  upstream: (call) => call.path === `${SALESFLARE_PREFIX}/opportunities`,
  notices: {
    limited: "SalesFlare is limiting requests",
    down: "SalesFlare is not answering",
    reconnect: "SalesFlare needs to be reconnected",
  },
  typedKey: { connect, wrong: "sf_wrong", errors: { token: ["SalesFlare refused these credentials: Bad token"] } },
  revoke: async (fakes) => {
    fakes.parts.salesflare.keys.delete(SALESFLARE_KEY);
    return () => {
      fakes.parts.salesflare.keys.add(SALESFLARE_KEY);
    };
  },
  limited: failing(429, "Too Many Requests"),
  down: failing(502, "Bad Gateway"),
  malformed: [{ status: 200, body: '[{"id": 1, "value": ' }],
  settled: { query: deals("openDeals", "owner"), range: { startDate: "2026-08-01", endDate: "2026-08-31" } },
  // Deals page by limit/offset, 100 a page, and Salesflare answers neither a total nor a next page: a
  // short page is the last, so a full last page costs one empty answer. Not by day (a deal is counted on
  // its close date), so the paging is proven on the listing. The widget's money is the currency most of the range's deals are in:
  // October's are in euros.
  currency: { query: deals("wonValue"), code: "EUR", range: { startDate: "2026-10-01", endDate: "2026-10-31" } },
  listing: {
    query: deals("openDeals"),
    range: { startDate: "2025-02-01", endDate: "2025-02-28" },
    fill: (fakes, n) => {
      const kept = fakes.parts.salesflare.deals;
      fakes.parts.salesflare.deals = Array.from({ length: n }, (_, index) => ({
        id: 5000 + index,
        name: `Filled ${index + 1}`,
        value: 100,
        currency: "EUR",
        stage: 11,
        owner: 3,
        closeDate: `2025-02-${String(1 + (index % 28)).padStart(2, "0")}`,
      }));
      return () => {
        fakes.parts.salesflare.deals = kept;
      };
    },
    pageSize: 100,
    requests: (call) => call.path === `${SALESFLARE_PREFIX}/opportunities`,
    noEndMarker: true,
  },
});
