import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestClient } from "../../../test/harness";
import { AHREFS_KEY, ahrefsFake } from "./fake";

const connect = (client: TestClient, token: string) =>
  client.api("POST", "/api/sources", { name: "ahrefsV3", account: "Acme SEO", token });
/** Metrics of the `metrics` snapshot: one Site Explorer request each. */
const site = (metric: string) => ({
  type: "ahrefsV3.site",
  inputs: { country: "de", metrics: [metric], mode: "subdomains", target: "acme.com" },
});
const failing = (status: number, error: string) => Array.from({ length: 3 }, () => ({ status, body: { error } }));

connectorScenarios({
  title: "Ahrefs V3",
  fakes: () => ({ ahrefs: ahrefsFake() }),
  part: "ahrefs",
  connect: async (client) => (await connect(client, AHREFS_KEY)).json().data.id,
  queries: [
    site("org_traffic"),
    site("org_cost"),
    site("org_keywords"),
    site("paid_traffic"),
    site("paid_cost"),
    site("paid_keywords"),
    site("paid_pages"),
  ],
  upstream: (call) => call.path === "/v3/site-explorer/metrics",
  notices: {
    limited: "Ahrefs V3 is limiting requests",
    down: "Ahrefs V3 is not answering",
    reconnect: "Ahrefs V3 needs to be reconnected",
  },
  typedKey: {
    connect,
    wrong: "not-a-key",
    errors: { token: ["Ahrefs V3 refused these credentials: API key is invalid or expired"] },
  },
  revoke: async (fakes) => {
    fakes.parts.ahrefs.keys.delete(AHREFS_KEY);
    return () => {
      fakes.parts.ahrefs.keys.add(AHREFS_KEY);
    };
  },
  limited: failing(429, "Too many requests"),
  down: failing(503, "Service temporarily unavailable"),
  malformed: [{ status: 200, body: '{"metrics": {"org_traffic": ' }],
  settled: { query: site("org_keywords"), range: { startDate: "2026-08-01", endDate: "2026-08-31" } },
});
