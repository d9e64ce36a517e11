import { connectByConsent, connectorScenarios } from "../../../test/connector-scenarios/kit";
import { unseal } from "../../infra/security";
import { BASE_PREFIX, baseFake } from "./fake";

const STAGES = `${BASE_PREFIX}/v2/stages`;
/** Deal metrics of the Sales pipeline (keys sorted as the data path normalises them). */
const deals = (metric: string, pipeline = "1") => ({
  type: "baseMe.deals",
  inputs: { metrics: [metric], pipeline },
});
/** Base's error envelope; a query first asks the pipeline's stages, so the faults are aimed there. */
const failing = (status: number, code: string) =>
  Array.from({ length: 3 }, () => ({
    status,
    pathIncludes: "/v2/stages",
    body: { errors: [{ error: { code, message: code } }], meta: { type: "errors", http_status: `${status}` } },
  }));

connectorScenarios({
  title: "Base.me",
  fakes: () => ({ base: baseFake() }),
  part: "base",
  connect: (client) => connectByConsent(client, "baseMe"),
  queries: [
    deals("pipelineValue"),
    deals("weightedValue"),
    deals("openDeals"),
    deals("wonValue"),
    deals("wonDeals"),
    deals("lostDeals"),
    deals("winRate"),
  ],
  // One stages list per deals query (then one deals list per stage, paged: not a fixed count).
  upstream: (call) => call.path === STAGES,
  notices: {
    limited: "Base.me is limiting requests",
    down: "Base.me is not answering",
    reconnect: "Base.me needs to be reconnected",
  },
  // The user revoking the grant at Base: the access token and its refresh token are refused.
  revoke: async (fakes, env, sourceId) => {
    const row = await env.ctx.db
      .selectFrom("sources")
      .select("credentials")
      .where("id", "=", sourceId)
      .executeTakeFirstOrThrow();
    const credentials = JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
    const tokens = [credentials.access_token ?? "", credentials.refresh_token ?? ""];
    for (const token of tokens) fakes.parts.base.revoked.add(token);
    return () => {
      for (const token of tokens) fakes.parts.base.revoked.delete(token);
    };
  },
  limited: failing(429, "rate_limit_exceeded"),
  down: failing(503, "service_unavailable"),
  malformed: [{ status: 200, pathIncludes: "/v2/stages", body: '{"items": [{"data": ' }],
  settled: { query: deals("openDeals", "2"), range: { startDate: "2026-08-01", endDate: "2026-08-31" } },
  // Deals page by `page`/`per_page` (100 a page) until `next_page` is gone, one listing per stage, not by
  // day (an open deal counts on the day it was added), so the paging is proven on one stage's listing
  // (base-me.test.ts also reads a busy stage with the other stages full). The widget's money is the currency most of the
  // range's deals are in: October's won deals are mostly in euros.
  currency: { query: deals("wonValue"), code: "EUR", range: { startDate: "2026-10-01", endDate: "2026-10-31" } },
  listing: {
    query: deals("openDeals"),
    range: { startDate: "2025-02-01", endDate: "2025-02-28" },
    fill: (fakes, n) => {
      const kept = fakes.parts.base.deals;
      fakes.parts.base.deals = Array.from({ length: n }, (_, index) => {
        const day = `2025-02-${String(1 + (index % 28)).padStart(2, "0")}T09:00:00Z`;
        const id = 5000 + index;
        return {
          id,
          name: `Filled ${index + 1}`,
          value: "100.00",
          currency: "EUR",
          stage: 11,
          owner: 501,
          addedAt: day,
          lastStageChangeAt: day,
        };
      });
      return () => {
        fakes.parts.base.deals = kept;
      };
    },
    pageSize: 100,
    requests: (call) => call.path === `${BASE_PREFIX}/v2/deals` && call.query.stage_id === "11",
  },
});
