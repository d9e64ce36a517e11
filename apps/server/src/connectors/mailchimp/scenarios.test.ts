import { connectByConsent, connectorScenarios } from "../../../test/connector-scenarios/kit";
import { unseal } from "../../infra/security";
import { fakeMailchimpCampaign, MAILCHIMP_API_PREFIX, mailchimpFake } from "./fake";

const REPORTS = `${MAILCHIMP_API_PREFIX}/3.0/reports`;
/** Campaign report metrics: one `/3.0/reports` request each (the campaigns of a month fit one page). */
const campaigns = (metric: string) => ({ type: "mailchimp.campaigns", inputs: { metrics: [metric] } });
/** Mailchimp's problem details (RFC 7807), the shape of every Marketing API error. */
const problem = (status: number, title: string, detail: string) =>
  Array.from({ length: 3 }, () => ({
    status,
    pathIncludes: "/reports",
    body: { type: "https://mailchimp.com/developer/marketing/docs/errors/", title, status, detail, instance: "fault" },
  }));

connectorScenarios({
  title: "Mailchimp",
  fakes: () => ({ mailchimp: mailchimpFake() }),
  part: "mailchimp",
  connect: (client) => connectByConsent(client, "mailchimp"),
  queries: [
    campaigns("emails_sent"),
    campaigns("clicks_total"),
    campaigns("delivered"),
    campaigns("opens_total"),
    campaigns("unique_opens"),
    campaigns("unique_clicks"),
    campaigns("bounces"),
  ],
  upstream: (call) => call.path === REPORTS,
  notices: {
    limited: "Mailchimp is limiting requests",
    down: "Mailchimp is not answering",
    reconnect: "Mailchimp needs to be reconnected",
  },
  // Mailchimp's tokens do not expire: the user revoking the app is the token refused.
  revoke: async (fakes, env, sourceId) => {
    const row = await env.ctx.db
      .selectFrom("sources")
      .select("credentials")
      .where("id", "=", sourceId)
      .executeTakeFirstOrThrow();
    const token = JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")).access_token ?? "";
    fakes.parts.mailchimp.revoked.add(token);
    return () => {
      fakes.parts.mailchimp.revoked.delete(token);
    };
  },
  limited: problem(429, "Too Many Requests", "You have exceeded the limit of 10 simultaneous connections."),
  down: problem(503, "Service Unavailable", "Please try again."),
  malformed: [{ status: 200, pathIncludes: "/reports", body: '{"reports": [{"id": ' }],
  settled: { query: campaigns("open_rate"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
  // Reports page by `offset`/`count` with `total_items`; not by day (a row per campaign sent), so the
  // paging is proven on the listing: the fake's page is steered, each filled campaign sends one e-mail.
  listing: {
    query: campaigns("emails_sent"),
    range: { startDate: "2025-02-01", endDate: "2025-02-28" },
    fill: (fakes, n) => {
      const kept = fakes.parts.mailchimp.campaigns;
      fakes.parts.mailchimp.campaigns = Array.from({ length: n }, (_, index) => ({
        ...fakeMailchimpCampaign(100 + index, `Filled ${index + 1}`, "a1b2c3d4e5", "2025-02-10T09:00:00+00:00", 1),
        sendTime: `2025-02-${String(1 + (index % 28)).padStart(2, "0")}T09:00:00+00:00`,
      }));
      return () => {
        fakes.parts.mailchimp.campaigns = kept;
      };
    },
    pageSize: (fakes, size) => {
      const kept = fakes.parts.mailchimp.pageSize;
      fakes.parts.mailchimp.pageSize = size;
      return () => {
        fakes.parts.mailchimp.pageSize = kept;
      };
    },
    requests: (call) => call.path === REPORTS,
  },
});
