import type { TWidgetTypeConfig } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { checkCalls, describedRequest } from "../../../test/fakes/described";
import { describeEachDb } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { AHREFS_KEY, ahrefsFake } from "./fake";
import { ahrefsConnector } from "./index";

/**
 * Ahrefs' requests and answers against its official SDK's description of API v3 (./sdk-index.json,
 * docs/connectors.md "Ahrefs"): every request the connector builds for every widget type, mode, device,
 * country, dimension and metric its forms offer is valid, and every answer the fake gives matches the
 * described rows.
 */

const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake() }));
const description = () => {
  if (!ahrefsConnector.description) throw new Error("Ahrefs has no pinned description");
  return ahrefsConnector.description();
};
const type = (key: string): TWidgetTypeConfig => {
  const found = ahrefsConnector.widgetTypes.find((entry) => entry.type === key);
  if (!found) throw new Error(`no widget type ${key}`);
  return found;
};
const optionsOf = (config: TWidgetTypeConfig, key: string) =>
  (config.params.find((param) => param.key === key)?.options ?? []).map((option) => option.value);

describeEachDb(
  "Ahrefs against its SDK's description of API v3",
  (env) => {
    it("every request each widget type, mode, device, dimension and metric builds is described, and so is every answer", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const connected = await client.api("POST", "/api/sources", {
        name: "ahrefsV3",
        account: "Acme SEO",
        token: AHREFS_KEY,
      });
      expect(connected.statusCode, connected.body).toBe(200);
      const id = connected.json().data.id as string;
      const range = { startDate: "2026-06-01", endDate: "2026-06-30", comparison: false };
      const site = type("ahrefsV3.site");
      const countries = (await client.api("GET", `/api/sources/${id}/countries?type=ahrefsV3.site`)).json().data as {
        value: string;
      }[];
      const metrics = optionsOf(site, "metrics");
      for (const mode of optionsOf(site, "mode")) {
        for (const country of ["all", "de"]) {
          const response = await widgetData(
            client,
            [instance(id, site.type, { target: "acme.com", mode, country, metrics })],
            range,
          );
          expect(response.statusCode, response.body).toBe(200);
        }
      }
      // By date, each metric alone: the form refuses (422, no request) those Ahrefs keeps no history of.
      const byDate: string[] = [];
      for (const metric of metrics) {
        for (const dimension of optionsOf(site, "dimension")) {
          const inputs = { target: "acme.com", mode: "subdomains", country: "de", dimension, metrics: [metric] };
          const response = await widgetData(client, [instance(id, site.type, inputs)], range);
          expect([200, 422], `${metric}: ${response.body}`).toContain(response.statusCode);
          if (response.statusCode === 200) byDate.push(metric);
        }
      }
      expect(byDate.length).toBeGreaterThan(2);
      const ranks = type("ahrefsV3.ranks");
      const projects = (await client.api("GET", `/api/sources/${id}/properties?type=ahrefsV3.ranks`)).json().data as {
        value: string;
      }[];
      for (const device of optionsOf(ranks, "device")) {
        const widgets = optionsOf(ranks, "dimension").map((dimension) =>
          instance(id, ranks.type, {
            property: projects[0]?.value,
            device,
            dimension,
            metrics: optionsOf(ranks, "metrics"),
          }),
        );
        const response = await widgetData(client, widgets, range);
        expect(response.statusCode, response.body).toBe(200);
      }

      const calls = (await fakes.current()).calls.slice(from).filter((call) => call.path.startsWith("/v3/"));
      expect([...new Set(calls.map((call) => call.path))].sort()).toEqual([
        "/v3/management/projects",
        "/v3/rank-tracker/overview",
        "/v3/site-explorer/backlinks-stats",
        "/v3/site-explorer/domain-rating",
        "/v3/site-explorer/domain-rating-history",
        "/v3/site-explorer/metrics",
        "/v3/site-explorer/metrics-history",
        "/v3/subscription-info/limits-and-usage",
      ]);
      const checks = await description();
      const { checked, problems } = checkCalls(checks, calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
      // Every country the picker offers, in the request that carries it.
      const withCountry = calls.find((call) => call.query.country === "de");
      expect(withCountry).toBeDefined();
      const wrong = countries.flatMap(({ value }) => {
        if (value === "all") return [];
        const request = describedRequest({
          ...(withCountry as (typeof calls)[number]),
          query: { ...withCountry?.query, country: value },
        });
        return checks.checkRequest(request);
      });
      expect(wrong).toEqual([]);
      expect(countries.length).toBeGreaterThan(200);
    });
  },
  fakes.env,
);

describe("Ahrefs' description checks bite", () => {
  const url = (path: string, query: Record<string, string>) => {
    const address = new URL(`https://api.ahrefs.com${path}`);
    for (const [name, value] of Object.entries(query)) address.searchParams.set(name, value);
    return address;
  };
  it("a wrong request is reported: unknown column, country, parameter, a missing required one", async () => {
    const checks = await description();
    const request = {
      method: "GET",
      url: url("/v3/site-explorer/metrics-history", {
        target: "acme.com",
        select: "date,org_traffic,organic_traffic",
        country: "uk",
        date_from: "2026-06-01",
        history_grouping: "hourly",
        output: "yaml",
      }),
    };
    expect(checks.checkRequest(request)).toEqual([
      'GET /v3/site-explorer/metrics-history: select: "organic_traffic" is not a column of the answer',
      'GET /v3/site-explorer/metrics-history: country: "uk" is not one of the described CountryEnum values',
      'GET /v3/site-explorer/metrics-history: history_grouping: "hourly" is not one of the described HistoryGroupingEnum values',
      'GET /v3/site-explorer/metrics-history: output: "yaml" is not one of the described OutputEnum values',
    ]);
    expect(
      checks.checkRequest({ method: "GET", url: url("/v3/site-explorer/domain-rating", { target: "acme.com" }) }),
    ).toEqual(["GET /v3/site-explorer/domain-rating: required query parameter date is missing"]);
  });

  it("a wrong answer is reported: a field of the wrong type, an unknown field, a wrong key", async () => {
    const checks = await description();
    const request = {
      method: "GET",
      url: url("/v3/site-explorer/domain-rating", { target: "acme.com", date: "2026-06-01" }),
    };
    expect(
      checks.checkResponse(request, 200, { domain_rating: { domain_rating: "71", ahrefs_rank: 12, dr: 3 } }),
    ).toEqual([
      'GET /v3/site-explorer/domain-rating → 200: answer.domain_rating.domain_rating: "71" where the SDK says float',
      "GET /v3/site-explorer/domain-rating → 200: answer.domain_rating.dr: not a field of site_explorer_domain_rating",
    ]);
    expect(checks.checkResponse(request, 200, { metrics: {} })).toEqual([
      "GET /v3/site-explorer/domain-rating → 200: answer.metrics: not the answer's key (domain_rating)",
      "GET /v3/site-explorer/domain-rating → 200: answer.domain_rating: missing",
    ]);
  });
});
