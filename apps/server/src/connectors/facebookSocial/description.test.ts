import { describe, expect, it } from "vitest";
import { connectByConsent } from "../../../test/connector-scenarios/kit";
import { pagesDescriptionSetUp } from "../../../test/connector-scenarios/meta";
import { buildOwner } from "../../../test/factories";
import { checkCalls } from "../../../test/fakes/described";
import { describeEachDb } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { facebookSocialConnector } from "./index";

/**
 * Facebook Social's requests and answers against Meta's business SDK objects for the pinned Graph version
 * (../meta/pages-graph-sdk.json, docs/connectors.md): the Page lists name Page and Business fields the
 * SDK lists, the insights requests take the periods and parameters it describes, and every answer the
 * fake gives carries only described fields, typed as described. The SDK names no Page insights metric,
 * so metric names are not checked here (Meta's insights reference is the source, docs/connectors.md).
 */

const TYPE = "facebookSocial.insights";
const {
  fakes,
  description,
  options,
  graphUrl: url,
  coveredCalls,
} = pagesDescriptionSetUp(facebookSocialConnector, TYPE);

describeEachDb(
  "Facebook Social against Meta's business SDK objects",
  (env) => {
    it("every request each Page, dimension and metric builds is described, and so is every answer", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const id = await connectByConsent(client, "facebookSocial");
      const pages = await options(client, id, "properties");
      const metrics = await options(client, id, "metrics");
      const dimensions = await options(client, id, "dimensions");
      expect(pages.length).toBeGreaterThan(1);
      for (const property of pages) {
        const widgets = [undefined, ...dimensions].map((dimension) =>
          instance(id, TYPE, { property, metrics, ...(dimension && { dimension }) }),
        );
        // 100 days: insights come in windows of at most 90, so two requests a widget.
        const response = await widgetData(client, widgets, {
          startDate: "2026-05-01",
          endDate: "2026-08-08",
          comparison: false,
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      const { checks, calls, kinds } = await coveredCalls(from);
      expect(kinds).toEqual([
        "GET /v25.0/me/accounts",
        "GET /v25.0/me/businesses",
        "GET /v25.0/{id}/client_pages",
        "GET /v25.0/{id}/insights",
        "GET /v25.0/{id}/owned_pages",
      ]);
      const { checked, problems } = checkCalls(checks, calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
    });
  },
  fakes.env,
);

describe("Facebook Social's description checks bite", () => {
  it("a wrong request is reported: unknown field, period, parameter, version", async () => {
    const checks = await description();
    expect(
      checks.checkRequest({
        method: "GET",
        url: url("/v25.0/me/accounts", { fields: "id,name,fan_count_total,instagram_business_account{id,handle}" }),
      }),
    ).toEqual([
      'GET /me/accounts: fields: "fan_count_total" is not a field of Page',
      'GET /me/accounts: fields: "handle" is not a field of IGUser',
    ]);
    expect(
      checks.checkRequest({
        method: "GET",
        url: url("/v25.0/104000000000001/insights", { metric: "page_views_total", period: "daily", level: "page" }),
      }),
    ).toEqual([
      "GET /104000000000001/insights: unknown parameter level",
      'GET /104000000000001/insights: period: "daily" is not one of day, days_28, lifetime, month, total_over_range, week',
    ]);
    expect(checks.checkRequest({ method: "GET", url: url("/v24.0/me/accounts") })).toEqual([
      "GET /me/accounts: the request names Graph v24.0, the pinned SDK objects are v25.0's (refresh pages-graph-sdk.json)",
    ]);
  });

  it("a wrong answer is reported: an undescribed field, a wrong type, a wrong error", async () => {
    const checks = await description();
    const request = { method: "GET", url: url("/v25.0/104000000000001/insights", { metric: "page_views_total" }) };
    const answer = {
      data: [{ name: "page_views_total", period: "day", values: [{ value: 3, end_time: 1 }], unit: "views" }],
      paging: { cursors: {} },
    };
    expect(checks.checkResponse(request, 200, answer)).toEqual([
      "GET /104000000000001/insights → 200: answer.data[0].values[0].end_time: 1 where the SDK says datetime",
      "GET /104000000000001/insights → 200: answer.data[0].unit: not a field of InsightsResult",
    ]);
    expect(checks.checkResponse(request, 400, { message: "bad" })).toEqual([
      "GET /104000000000001/insights → 400: answer: not a Graph error ({error: {message, type, code, fbtrace_id}})",
    ]);
  });
});
