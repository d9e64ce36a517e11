import { connectByConsent, connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestEnv } from "../../../test/harness";
import { unseal } from "../../infra/security";
import { ACCURANKER_PREFIX, accurankerFake } from "./fake";

const DOMAIN = "9001";
const rankings = (metric: string, dimension = "date") => ({
  type: "accuranker.rankings",
  inputs: { dimension, metrics: [metric], property: DOMAIN },
});
const failing = (status: number, body: unknown, headers?: Record<string, string>) =>
  Array.from({ length: 3 }, () => ({ status, body, pathIncludes: "/keywords/", ...(headers && { headers }) }));

async function accessToken(env: TestEnv, sourceId: string): Promise<string> {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")).access_token ?? "";
}

connectorScenarios({
  title: "AccuRanker",
  fakes: () => ({ accuranker: accurankerFake() }),
  part: "accuranker",
  connect: (client) => connectByConsent(client, "accuranker", { account: "Acme Agency" }),
  queries: [
    rankings("averagePosition"),
    rankings("top3"),
    rankings("top10"),
    rankings("top100"),
    rankings("averagePosition", "keyword"),
    rankings("top3", "keyword"),
    rankings("top10", "keyword"),
  ],
  upstream: (call) => call.path === `${ACCURANKER_PREFIX}/api/v4/domains/${DOMAIN}/keywords/`,
  notices: {
    limited: "AccuRanker is limiting requests",
    down: "AccuRanker is not answering",
    reconnect: "AccuRanker needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => {
    const token = await accessToken(env, sourceId);
    fakes.parts.accuranker.revoked.add(token);
    return () => {
      fakes.parts.accuranker.revoked.delete(token);
    };
  },
  // A second's wait: AccuRanker's limits are per IP, a longer one would hold the scenarios after it.
  limited: failing(429, { detail: "Request was throttled. Expected available in 1 seconds." }, { "retry-after": "1" }),
  down: failing(503, { detail: "Service unavailable" }),
  malformed: [{ status: 200, body: '{"results": [{"id": ', pathIncludes: "/keywords/" }],
  settled: { query: rankings("averagePosition", "keyword"), range: { startDate: "2026-08-01", endDate: "2026-08-31" } },
  // A window's keywords (at most 100 days) come in one answer: no paging. Ranks are checked once a day
  // and named by that day (`period_from`/`period_to` are dates), so the viewer's dates are sent as they are.
  zone: {
    query: rankings("top10"),
    askedDays: (call) =>
      call.query.period_from && call.query.period_to
        ? { first: call.query.period_from, last: call.query.period_to }
        : null,
  },
});
