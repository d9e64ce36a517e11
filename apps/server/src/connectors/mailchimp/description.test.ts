import { afterAll, describe, expect, it } from "vitest";
import { connectByConsent } from "../../../test/connector-scenarios/kit";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { checkCalls } from "../../../test/fakes/described";
import type { TestClient } from "../../../test/harness";
import { describeEachDb } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { MAILCHIMP_API_PREFIX, mailchimpFake } from "./fake";
import { mailchimpConnector } from "./index";
import { ACTIVITY_METRICS, CAMPAIGN_METRICS } from "./metrics";

/**
 * Mailchimp's requests against its official Node.js SDK's description of the Marketing API
 * (./sdk-index.json, docs/connectors.md): every audience, campaign, dimension and metric the forms offer
 * builds requests on described paths with described parameters, typed and within the stated limits; the
 * fake's answers are JSON objects (the SDK describes no answer fields) and its errors problem details.
 */

const fakes = fakesForFile(afterAll, () => ({ mailchimp: mailchimpFake() }));
const description = () => {
  if (!mailchimpConnector.description) throw new Error("Mailchimp has no pinned description");
  return mailchimpConnector.description();
};
const options = async (client: TestClient, id: string, kind: string, type: string, form = "") =>
  ((await client.api("GET", `/api/sources/${id}/${kind}?type=${type}${form}`)).json().data as { value: string }[]).map(
    (option) => option.value,
  );

describeEachDb(
  "Mailchimp against its SDK's description",
  (env) => {
    it("every request each audience, campaign, dimension and metric builds is described", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const id = await connectByConsent(client, "mailchimp");
      const audiences = await options(client, id, "audiences", "mailchimp.campaigns");
      expect(audiences.length).toBeGreaterThan(1);
      const range = { startDate: "2026-09-01", endDate: "2026-10-31", comparison: false };
      const campaignMetrics = CAMPAIGN_METRICS.map((metric) => metric.key);
      for (const audience of [undefined, ...audiences]) {
        const campaigns = await options(
          client,
          id,
          "campaigns",
          "mailchimp.campaigns",
          audience ? `&audience=${audience}` : "",
        );
        const widgets = [undefined, "campaign", "send_date"].flatMap((dimension) =>
          [undefined, campaigns[0]].map((campaign) =>
            instance(id, "mailchimp.campaigns", {
              metrics: campaignMetrics,
              ...(audience && { audience }),
              ...(campaign && { campaign }),
              ...(dimension && { dimension }),
            }),
          ),
        );
        if (audience) {
          const metrics = ACTIVITY_METRICS.map((metric) => metric.key);
          widgets.push(instance(id, "mailchimp.audience", { audience, metrics }));
          widgets.push(instance(id, "mailchimp.audience", { audience, metrics, dimension: "date" }));
        }
        const response = await widgetData(client, widgets, range);
        expect(response.statusCode, response.body).toBe(200);
      }
      const checks = await description();
      const calls = (await fakes.current()).calls
        .slice(from)
        .filter((call) => checks.covers?.({ method: call.method, url: new URL(call.path, "http://mailchimp") }));
      const kinds = new Set(
        calls.map(
          (call) =>
            `${call.method} ${call.path.replace(`${MAILCHIMP_API_PREFIX}/3.0`, "").replace(/\/lists\/\w+\//, "/lists/{list_id}/")}`,
        ),
      );
      expect([...kinds].sort()).toEqual([
        "GET /campaigns",
        "GET /lists",
        "GET /lists/{list_id}/activity",
        "GET /reports",
      ]);
      const { checked, problems } = checkCalls(checks, calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
    });
  },
  fakes.env,
);

describe("Mailchimp's description checks bite", () => {
  const url = (path: string, query: Record<string, string> = {}) => {
    const address = new URL(`https://us6.api.mailchimp.com/3.0${path}`);
    for (const [name, value] of Object.entries(query)) address.searchParams.set(name, value);
    return address;
  };
  it("a wrong request is reported: unknown path and parameter, a count over the maximum, a date that is not a time", async () => {
    const checks = await description();
    expect(
      checks.checkRequest({
        method: "GET",
        url: url("/reports", { count: "5000", since_send_time: "2026-09-01", page: "2" }),
      }),
    ).toEqual([
      "GET /reports: count: 5000 is over the maximum 1000",
      'GET /reports: since_send_time: "2026-09-01" is not an ISO 8601 time',
      "GET /reports: unknown query parameter page",
    ]);
    expect(checks.checkRequest({ method: "GET", url: url("/reports/abc/opens") })).toEqual([
      "GET /reports/abc/opens: not an endpoint the SDK describes",
    ]);
  });

  it("a wrong answer is reported: a list where an object comes, an error that is not problem details", async () => {
    const checks = await description();
    const request = { method: "GET", url: url("/lists") };
    expect(checks.checkResponse(request, 200, [])).toEqual(["GET /lists → 200: answer: not a JSON object"]);
    expect(checks.checkResponse(request, 429, { message: "slow down" })).toEqual([
      "GET /lists → 429: answer: not Mailchimp's problem details ({type, title, status, detail, instance})",
    ]);
  });
});
