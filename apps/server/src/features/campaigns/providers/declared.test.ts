import { shiftDay, type TConnector, todayInTimezone } from "@app/core";
import { expect, it } from "vitest";
import { buildOwner } from "../../../../test/factories";
import { describeEachDb } from "../../../../test/harness";
import { DOMAIN_METRICS_CONNECTORS, type DomainMetrics } from "../../../connectors";
import { type ColumnMap, columnKeys, tableDomainValues } from "../../../connectors/kit/domain-metrics";
import { campaignMetrics } from "../metrics";
import { campaignsRepo } from "../repo";
import { addDomain, createGroup, storedRows } from "../test-helpers";
import { metricsProviders } from ".";
import { connectedProvider, notCoveredHint } from "./connected";
import { metricsOf } from "./connected-plan";

/**
 * Mission Control reads whatever connectors declare domain metrics (`Connector.domainMetrics`): nothing
 * outside a connector's folder names it. Proven with a declaration made here for the Demo connector's
 * sources (which declares none of its own, so Demo data never feeds a real group): a Demo site `<site>`
 * stands for the domain `<site>.com`, and its search numbers are read through the sources service.
 */
const DEMO_KEY = "demo";
const SEARCH_TYPE = "demo.search";
const COLUMNS: ColumnMap = [
  ["clicks", "clicks"],
  ["impressions", "impressions"],
];
const declared: DomainMetrics = {
  order: 1,
  metrics: ["clicks", "impressions"],
  lagDays: 2,
  hint: "a made-up search tool",
  async locate(source, domain) {
    const sites = await source.options("properties", {});
    const site = sites.find((option) => `${option.value}.com` === domain);
    if (!site) return null;
    const inputs = { dimension: "date", metrics: columnKeys(COLUMNS), property: site.value };
    return {
      plan: `madeUp:${source.id}:${site.value}`,
      read: async (range) => tableDomainValues(await source.query(SEARCH_TYPE, inputs, range), COLUMNS),
    };
  },
};
const FEEDING = [{ key: DEMO_KEY, domainMetrics: declared }];

describeEachDb("Mission Control reads the connectors that declare domain metrics", (env) => {
  it("a declared connector's source covers its domain: its days are stored and shown, its words say what to connect", async () => {
    const owner = await buildOwner(env());
    const created = await owner.client.api("POST", "/api/sources", { name: DEMO_KEY });
    expect(created.statusCode, created.body).toBe(200);
    const sourceId = created.json().data.id as string;
    const group = await createGroup(owner.client, "Declared", { metrics_source: "sources" });
    const acme = (await addDomain(owner.client, group.id, "acme-software.com")).id;
    const globex = (await addDomain(owner.client, group.id, "globex.io")).id;

    const sources = () => env().services.get("sources");
    const metrics = campaignMetrics(
      env().ctx,
      campaignsRepo(env().ctx.db),
      metricsProviders(env().ctx, sources, FEEDING),
    );
    const payloads = (await env().ctx.jobs.list("campaigns.backfill", "waiting", 1000)).map((job) => job.payload);
    for (const payload of payloads) await metrics.backfill(payload as Parameters<typeof metrics.backfill>[0]);

    // Its days, as the Demo connector answers the same query, up to two days ago (its declared lag).
    const latest = shiftDay(todayInTimezone("UTC", env().ctx.clock.now()), -2);
    const first = shiftDay(latest, -59);
    const loaded = await sources().load(owner.company.id, sourceId);
    const table = await loaded.connector.query({
      source: loaded.handle,
      type: SEARCH_TYPE,
      inputs: { dimension: "date", metrics: ["clicks", "impressions"], property: "acme-software" },
      range: { startDate: first, endDate: latest },
      timezone: "UTC",
    });
    const expected = tableDomainValues(table, COLUMNS);
    expect(expected.length).toBe(2 * 60);
    const rows = await storedRows(env(), acme);
    expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(["sources"]));
    expect(rows.map(({ metric, day, value }) => ({ metric, day, value }))).toEqual(
      expected.sort((a, b) => a.metric.localeCompare(b.metric) || a.day.localeCompare(b.day)),
    );

    const shown = await metrics.forDomains(owner.company.id, [acme, globex], "sources", 7);
    expect(shown.get(acme)?.status).toBe("ready");
    expect(shown.get(acme)?.metrics.map((metric) => [metric.metric, metric.as_of])).toEqual([
      ["clicks", latest],
      ["impressions", latest],
    ]);
    expect(shown.get(globex)).toEqual({
      status: "not_covered",
      metrics: [],
      hint: "Connect a made-up search tool for globex.io.",
    });
    expect(notCoveredHint("globex.io", FEEDING)).toBe("Connect a made-up search tool for globex.io.");

    // The plan names the declared source for each of its metrics.
    const coverage = await connectedProvider(env().ctx, sources, FEEDING).coverage?.(
      owner.company.id,
      "acme-software.com",
    );
    expect(coverage).toEqual({
      covered: true,
      plan: { clicks: `madeUp:${sourceId}:acme-software`, impressions: `madeUp:${sourceId}:acme-software` },
    });
  });

  it("the registry's declarations are what the catalogue marks and what the connected sources give", async () => {
    const owner = await buildOwner(env());
    const catalogue = (await owner.client.api("GET", "/api/configs/connectors")).json().data as TConnector[];
    const declaring = DOMAIN_METRICS_CONNECTORS.map((connector) => connector.key);
    expect(declaring.length).toBeGreaterThan(0);
    expect(catalogue.filter((entry) => entry.domainMetrics).map((entry) => entry.key)).toEqual(
      catalogue.map((entry) => entry.key).filter((key) => declaring.includes(key)),
    );
    const provider = metricsProviders(env().ctx, () => env().services.get("sources")).forSource("sources");
    expect(provider?.metrics).toEqual(metricsOf(DOMAIN_METRICS_CONNECTORS));
    for (const { domainMetrics } of DOMAIN_METRICS_CONNECTORS) {
      for (const metric of domainMetrics.metrics) expect(provider?.metrics).toContain(metric);
    }
  });
});
