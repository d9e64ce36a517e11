import { CAMPAIGN_SOURCE_MESSAGES, shiftDay, todayInTimezone } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { BACKFILL_DAYS, BACKFILL_JOB, type TBackfillPayload } from "../../features/campaigns/metrics";
import { addDomain, createGroup, storedRows } from "../../features/campaigns/test-helpers";
import { AHREFS_DOMAIN_METRICS } from "./domain-metrics";
import { ahrefsFake, fakeBacklinks, fakeDomainRating, fakeKeywordBands, fakeSiteMetrics } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake() }));
const fake = async () => (await fakes.current()).parts.ahrefs;

async function backfillPayload(env: TestEnv, domainId: string): Promise<TBackfillPayload> {
  const waiting = await env.ctx.jobs.list(BACKFILL_JOB, "waiting", 1000);
  const job = waiting.find((record) => (record.payload as TBackfillPayload).domainId === domainId);
  expect(job, `a backfill job for ${domainId}`).toBeDefined();
  return job?.payload as TBackfillPayload;
}

/** Yesterday in UTC: the provider's latest complete day. */
const latestDay = (env: TestEnv) => shiftDay(todayInTimezone("UTC", env.ctx.clock.now()), -1);

/** What the provider should store for a domain on a day: the fake's numbers, mapped to the catalogue. */
function expectedDay(domain: string, day: string) {
  const bands = fakeKeywordBands(domain, "subdomains", "", day);
  return {
    domainRating: fakeDomainRating(domain, day).domain_rating,
    referringDomains: fakeBacklinks(domain, "subdomains", day).live_refdomains,
    organicTraffic: Math.round(fakeSiteMetrics(domain, "subdomains", "", day).org_traffic / 30),
    keywordsTop3: bands.top3,
    keywordsTop10: bands.top3 + bands.top4_10,
    rankedKeywords: bands.top3 + bands.top4_10 + bands.top11_plus,
  };
}

const SERVER_KEY = "mc-server-ahrefs-key-0123456789";

describeEachDb(
  "Mission Control: the server's Ahrefs key",
  (env) => {
    it("is offered as a source, and a group on it stores the fake's daily numbers for any domain", async () => {
      (await fake()).keys.add(SERVER_KEY);
      const owner = await buildOwner(env());
      const sources = await owner.client.api("GET", "/api/campaigns/sources");
      expect(sources.statusCode).toBe(200);
      expect(sources.json().data).toEqual([
        { id: "sources", label: "Connected sources", available: true, reason: null },
        { id: "ahrefs", label: "Ahrefs (server)", available: true, reason: null },
        { id: "demo", label: "Demo data", available: true, reason: null },
      ]);

      const group = await createGroup(owner.client, "SEO clients", { metrics_source: "ahrefs" });
      expect(group).toMatchObject({ metrics_source: "ahrefs", metrics_label: "Ahrefs" });
      const domainId = (await addDomain(owner.client, group.id, "globex.io")).id;
      await env()
        .services.get("campaigns")
        .metrics.backfill(await backfillPayload(env(), domainId));

      const latest = latestDay(env());
      const rows = await storedRows(env(), domainId);
      expect(rows).toHaveLength(BACKFILL_DAYS * AHREFS_DOMAIN_METRICS.length);
      expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(["ahrefs"]));
      const expected = Array.from({ length: BACKFILL_DAYS }, (_, index) => {
        const day = shiftDay(latest, index - BACKFILL_DAYS + 1);
        return Object.entries(expectedDay("globex.io", day)).map(([metric, value]) => ({ metric, day, value }));
      }).flat();
      expect(rows.map(({ metric, day, value }) => ({ metric, day, value }))).toEqual(
        expected.sort((a, b) => a.metric.localeCompare(b.metric) || a.day.localeCompare(b.day)),
      );
      // Ahrefs saw the server's key, daily history of the domain with its subdomains.
      const history = (await fakes.current()).calls.filter(
        (call) =>
          call.path.endsWith("-history") &&
          call.headers.authorization === `Bearer ${SERVER_KEY}` &&
          call.query.target === "globex.io",
      );
      expect(new Set(history.map((call) => call.path))).toEqual(
        new Set([
          "/v3/site-explorer/domain-rating-history",
          "/v3/site-explorer/refdomains-history",
          "/v3/site-explorer/metrics-history",
          "/v3/site-explorer/keywords-history",
        ]),
      );
      for (const call of history) expect(call.query).toMatchObject({ history_grouping: "daily" });

      const shown = (await owner.client.api("GET", `/api/campaigns/${group.id}`)).json().data;
      expect(shown.domains[0]).toMatchObject({ metrics_status: "ready", metrics_hint: null });
      expect(shown.domains[0].metrics.map((metric: { metric: string }) => metric.metric)).toEqual([
        ...AHREFS_DOMAIN_METRICS,
      ]);
      const rating = shown.domains[0].metrics.find((metric: { metric: string }) => metric.metric === "domainRating");
      expect(rating).toMatchObject({ as_of: latest, current: expectedDay("globex.io", latest).domainRating });
    });

    it("the daily snapshot rewrites the last week with the fake's numbers", async () => {
      const owner = await buildOwner(env());
      // With the server's key, a group created without a source tracks its domains with it.
      const group = await createGroup(owner.client, "Snapshots", {});
      expect(group.metrics_source).toBe("ahrefs");
      const domainId = (await addDomain(owner.client, group.id, "initech.com")).id;
      const latest = latestDay(env());
      // Values that are not Ahrefs' (as if revised since): the snapshot puts Ahrefs' back.
      await env()
        .ctx.db.insertInto("domain_metric_days")
        .values({
          company_id: owner.company.id,
          campaign_domain_id: domainId,
          metric: "domainRating",
          day: latest,
          value: 1,
          provider: "ahrefs",
          fetched_at: new Date().toISOString(),
        })
        .execute();
      await env().services.get("campaigns").metrics.snapshot({ companyId: owner.company.id, day: latest });
      const rows = await storedRows(env(), domainId);
      expect(new Set(rows.map((row) => row.day)).size).toBe(7);
      expect(rows.find((row) => row.metric === "domainRating" && row.day === latest)?.value).toBe(
        expectedDay("initech.com", latest).domainRating,
      );
    });

    it("Ahrefs out of API units fails the job (it retries) and leaves the stored values as they were", async () => {
      const owner = await buildOwner(env());
      const group = await createGroup(owner.client, "Quota", { metrics_source: "ahrefs" });
      const domainId = (await addDomain(owner.client, group.id, "umbrella.com")).id;
      const payload = await backfillPayload(env(), domainId);
      await env().services.get("campaigns").metrics.backfill(payload);
      const before = await storedRows(env(), domainId);
      (await fake()).exhausted.add(SERVER_KEY);
      try {
        await expect(
          env()
            .services.get("campaigns")
            .metrics.snapshot({ companyId: owner.company.id, day: latestDay(env()) }),
        ).rejects.toMatchObject({ kind: "quota" });
        expect(await storedRows(env(), domainId)).toEqual(before);
      } finally {
        (await fake()).exhausted.delete(SERVER_KEY);
      }
    });
  },
  async () => ({
    ...(await fakes.env()),
    MC_AHREFS_KEY: SERVER_KEY,
    MC_AHREFS_BASE_URL: (await fakes.env()).AHREFS_API_URL ?? "",
  }),
);

describeEachDb("Mission Control: no server Ahrefs key", (env) => {
  it("offers Ahrefs as unavailable and refuses it on create and on a change of source (422 on the field)", async () => {
    const owner = await buildOwner(env());
    const sources = (await owner.client.api("GET", "/api/campaigns/sources")).json().data;
    expect(sources.find((source: { id: string }) => source.id === "ahrefs")).toEqual({
      id: "ahrefs",
      label: "Ahrefs (server)",
      available: false,
      reason: CAMPAIGN_SOURCE_MESSAGES.ahrefsNotConfigured,
    });
    const created = await owner.client.api("POST", "/api/campaigns", { name: "SEO", metrics_source: "ahrefs" });
    expect(created.statusCode).toBe(422);
    expect(created.json().errors).toEqual({ metrics_source: [CAMPAIGN_SOURCE_MESSAGES.ahrefsNotConfigured] });
    expect((await owner.client.api("GET", "/api/campaigns")).json().data).toEqual([]);

    const group = await createGroup(owner.client, "SEO", {});
    const changed = await owner.client.api("PUT", `/api/campaigns/${group.id}`, {
      name: "SEO",
      metrics_source: "ahrefs",
    });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().errors).toEqual({ metrics_source: [CAMPAIGN_SOURCE_MESSAGES.ahrefsNotConfigured] });
    expect((await owner.client.api("GET", `/api/campaigns/${group.id}`)).json().data.metrics_source).toBe("sources");
  });
});
