import { connectByConsent, connectorScenarios } from "../../../test/connector-scenarios/kit";
import { unseal } from "../../infra/security";
import { TIKTOK_ADVERTISERS, tiktokFake } from "./fake";

const [SHOP, LEADS, OLD] = TIKTOK_ADVERTISERS.map((advertiser) => advertiser.id) as [string, string, string];
const REPORT = "/open_api/v1.3/report/integrated/get/";
/** Counts only (no money): a money metric asks the advertiser's currency too. */
const report = (metric: string, advertiser = SHOP) => ({
  type: "tiktok.report",
  inputs: { metrics: [metric], property: advertiser },
});
/** By day: the table's rows are the range's days. */
const byDay = (metric: string, advertiser = SHOP) => ({
  type: "tiktok.report",
  inputs: { dimension: "date", metrics: [metric], property: advertiser },
});
/** TikTok's answer to a failure: HTTP 200 and a code (the envelope of every TikTok error). */
const tiktokError = (code: number, message: string) => ({
  status: 200,
  pathIncludes: REPORT,
  body: { code, message, request_id: "2026112610000000FAULT", data: {} },
});

connectorScenarios({
  title: "TikTok",
  fakes: () => ({ tiktok: tiktokFake() }),
  part: "tiktok",
  connect: (client) => connectByConsent(client, "tiktok"),
  // The limited query has an advertiser of its own: a throttled advertiser is not asked again before its wait is over.
  queries: [
    report("impressions", LEADS),
    report("impressions"),
    report("clicks"),
    report("conversion"),
    report("likes"),
    report("comments", OLD),
    report("shares", OLD),
  ],
  upstream: (call) => call.path === REPORT,
  notices: {
    limited: "TikTok is limiting requests",
    down: "TikTok is not answering",
    reconnect: "TikTok needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => {
    const row = await env.ctx.db
      .selectFrom("sources")
      .select("credentials")
      .where("id", "=", sourceId)
      .executeTakeFirstOrThrow();
    const token = JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")).access_token ?? "";
    fakes.parts.tiktok.revoked.add(token);
    return () => {
      fakes.parts.tiktok.revoked.delete(token);
    };
  },
  limited: [tiktokError(40100, "App reaches the QPM limit of 600 per minute.")],
  down: Array.from({ length: 3 }, () => tiktokError(50000, "System error")),
  malformed: [{ status: 200, pathIncludes: REPORT, body: '{"code": 0, "data": {"list": [' }],
  settled: { query: report("clicks", OLD), range: { startDate: "2026-08-01", endDate: "2026-08-31" } },
  // Pages of `page_info.total_page`, per window of at most 30 days by day. The 100-page bound needs more
  // than 100 rows in one window: no query by day reaches it (30 rows a window at most).
  paging: {
    query: byDay("clicks"),
    pageSize: (fakes, size) => {
      const before = fakes.parts.tiktok.reportPageSize;
      fakes.parts.tiktok.reportPageSize = size;
      return () => {
        fakes.parts.tiktok.reportPageSize = before;
      };
    },
    windowDays: 30,
  },
  // TikTok reports in the advertiser's zone: the viewer's days are sent as dates.
  zone: {
    query: byDay("impressions"),
    askedDays: (call) =>
      call.path === REPORT ? { first: call.query.start_date ?? "", last: call.query.end_date ?? "" } : null,
  },
  // Acme Shop's account is in euros.
  currency: { query: report("spend"), code: "EUR" },
});
