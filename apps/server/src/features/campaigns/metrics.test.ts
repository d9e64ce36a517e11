import {
  CAMPAIGN_MESSAGES,
  type ChangeWindow,
  computeChange,
  DOMAIN_METRIC_KEYS,
  type DomainMetricKey,
  shiftDay,
  todayInTimezone,
} from "@app/core";
import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import type { TestEnv } from "../../../test/harness";
import { describeEachDb } from "../../../test/harness";
import { BACKFILL_DAYS, SNAPSHOT_JOB, type TSnapshotPayload } from "./metrics";
import { DEMO_LABEL, demoValue } from "./providers/demo";
import { addDomain, createGroup, runBackfill, showGroup, storedRows } from "./test-helpers";

/** Runs the waiting backfill job of a domain as the worker would (the test env never starts the queue). */

/** The latest complete day of the demo provider: yesterday in UTC. */
const latestDay = (env: TestEnv) => shiftDay(todayInTimezone("UTC", env.ctx.clock.now()), -1);

/** What the API should answer for a domain: core's computeChange over the demo series of 60 days. */
function expectedMetrics(env: TestEnv, domain: string, window: ChangeWindow) {
  const latest = latestDay(env);
  return DOMAIN_METRIC_KEYS.map((metric: DomainMetricKey) => {
    const series = Array.from({ length: BACKFILL_DAYS }, (_, index) => {
      const day = shiftDay(latest, index - BACKFILL_DAYS + 1);
      return { day, value: demoValue(domain, metric, day, latest) };
    });
    const change = computeChange(metric, series, latest, window);
    return {
      metric,
      as_of: change.asOf,
      current: change.current,
      baseline: change.baseline,
      change: change.change,
      percent_change: change.percentChange,
      tone: change.tone,
    };
  });
}

describeEachDb("Mission Control domain metrics (demo provider and snapshot jobs)", (env) => {
  it("adding a domain queues its 60-day backfill; the group says backfilling until it has run", async () => {
    const owner = await buildOwner(env());
    // Demo is never a default: without a source (and without the server's Ahrefs key) a group reads the
    // company's connected sources; demo numbers come only when asked for.
    expect((await createGroup(owner.client, "Unspecified", {})).metrics_source).toBe("sources");
    const group = await createGroup(owner.client, "Clients", { metrics_source: "demo" });
    expect(group).toMatchObject({ metrics_source: "demo", window: 7, metrics_label: DEMO_LABEL, domains: [] });
    const domain = await addDomain(owner.client, group.id, "https://www.Acme.com/pricing");

    const before = await showGroup(owner.client, group.id);
    expect(before.domains[0]).toMatchObject({ id: domain.id, metrics_status: "backfilling", metrics: [] });

    await runBackfill(env(), domain.id);
    const rows = await storedRows(env(), domain.id);
    const days = [...new Set(rows.map((row) => row.day))].sort();
    expect(days).toHaveLength(BACKFILL_DAYS);
    expect(days[0]).toBe(shiftDay(latestDay(env()), -(BACKFILL_DAYS - 1)));
    expect(days.at(-1)).toBe(latestDay(env()));
    expect(rows).toHaveLength(BACKFILL_DAYS * DOMAIN_METRIC_KEYS.length);
    expect(new Set(rows.map((row) => `${row.company_id}/${row.provider}`))).toEqual(
      new Set([`${owner.company.id}/demo`]),
    );

    const after = await showGroup(owner.client, group.id);
    expect(after.domains[0].metrics_status).toBe("ready");
    expect(after.domains[0].metrics.map((metric) => metric.metric)).toEqual([...DOMAIN_METRIC_KEYS]);
  });

  it("the 7- and 30-day answers equal computeChange over the demo series", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Retainers");
    const domain = await addDomain(owner.client, group.id, "globex.io");
    await runBackfill(env(), domain.id);

    const week = await showGroup(owner.client, group.id);
    expect(week.window).toBe(7);
    expect(week.domains[0].metrics).toEqual(expectedMetrics(env(), "globex.io", 7));
    const month = await showGroup(owner.client, group.id, 30);
    expect(month.window).toBe(30);
    expect(month.domains[0].metrics).toEqual(expectedMetrics(env(), "globex.io", 30));
    // Both windows have a baseline for every metric, and they tell different stories.
    for (const view of [week, month]) {
      for (const metric of view.domains[0].metrics) expect(metric.baseline, metric.metric).not.toBeNull();
    }
    expect(month.domains[0].metrics).not.toEqual(week.domains[0].metrics);
  });

  it("the daily snapshot is queued once per company and day, and running it twice leaves the same rows", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Snapshots");
    const domain = await addDomain(owner.client, group.id, "initech.com");
    await runBackfill(env(), domain.id);
    const backfilled = await storedRows(env(), domain.id);

    const metrics = env().services.get("campaigns").metrics;
    await metrics.scheduleSnapshots();
    await metrics.scheduleSnapshots();
    const queued = (await env().ctx.jobs.list(SNAPSHOT_JOB, "waiting", 1000)).filter(
      (record) => (record.payload as TSnapshotPayload).companyId === owner.company.id,
    );
    expect(queued).toHaveLength(1);
    expect(queued[0].payload).toEqual({ companyId: owner.company.id, day: latestDay(env()) });

    const payload = queued[0].payload as TSnapshotPayload;
    await metrics.snapshot(payload);
    const once = await storedRows(env(), domain.id);
    await metrics.snapshot(payload);
    expect(await storedRows(env(), domain.id)).toEqual(once);
    // The days it fetched again were already there with the same values.
    expect(once).toEqual(backfilled);
  });

  it("a domain starting with drop- shows its scripted 40 % drop as bad 7-day changes", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Drops");
    const domain = await addDomain(owner.client, group.id, "drop-acme.com");
    await runBackfill(env(), domain.id);

    const metrics = (await showGroup(owner.client, group.id)).domains[0].metrics;
    const byKey = new Map(metrics.map((metric) => [metric.metric, metric]));
    for (const key of ["clicks", "sessions", "domainRating", "referringDomains", "averagePosition"] as const) {
      expect(byKey.get(key)?.tone, key).toBe("bad");
    }
    expect(byKey.get("clicks")?.percent_change).toBeLessThan(-15);
    expect(byKey.get("domainRating")?.percent_change).toBeLessThan(-30);
    expect(byKey.get("averagePosition")?.change).toBeGreaterThan(0);
  });

  it("another company's values never appear, even for the same domain", async () => {
    const first = await buildOwner(env());
    const second = await buildOwner(env());
    const firstGroup = await createGroup(first.client, "Shared name");
    const firstDomain = await addDomain(first.client, firstGroup.id, "umbrella.com");
    await runBackfill(env(), firstDomain.id);
    const secondGroup = await createGroup(second.client, "Shared name");
    const secondDomain = await addDomain(second.client, secondGroup.id, "umbrella.com");

    // The same host in another company has no values until its own backfill runs.
    expect((await showGroup(second.client, secondGroup.id)).domains[0].metrics_status).toBe("backfilling");
    expect((await second.client.api("GET", `/api/campaigns/${firstGroup.id}`)).statusCode).toBe(404);

    const metrics = env().services.get("campaigns").metrics;
    const fetchedAt = () =>
      env()
        .ctx.db.selectFrom("domain_metric_days")
        .select(["company_id", "fetched_at"])
        .distinct()
        .where("campaign_domain_id", "=", firstDomain.id)
        .execute();
    const firstBefore = await fetchedAt();
    expect(firstBefore.map((row) => row.company_id)).toEqual([first.company.id]);
    // Jobs and reads are scoped to their company: another company's domain id finds nothing to write or read.
    await metrics.backfill({ companyId: second.company.id, domainId: firstDomain.id, source: "demo" });
    await metrics.snapshot({ companyId: second.company.id, day: latestDay(env()) });
    expect(await fetchedAt()).toEqual(firstBefore);
    const read = await metrics.forDomains(second.company.id, [firstDomain.id, secondDomain.id], "demo", 7);
    expect(read.get(firstDomain.id)).toEqual({ status: "backfilling", metrics: [] });
    // The second company's snapshot filled its own domain only, with its own values.
    expect(read.get(secondDomain.id)?.status).toBe("ready");
    expect(new Set((await storedRows(env(), secondDomain.id)).map((row) => row.company_id))).toEqual(
      new Set([second.company.id]),
    );
  });

  it("a group whose source this version has no provider for says no_provider", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Later source");
    await addDomain(owner.client, group.id, "hooli.com");
    await env().ctx.db.updateTable("campaigns").set({ metrics_source: "auto" }).where("id", "=", group.id).execute();
    const shown = await showGroup(owner.client, group.id);
    expect(shown.metrics_label).toBeNull();
    expect(shown.domains[0]).toMatchObject({ metrics_status: "no_provider", metrics: [] });
  });

  it("refuses a window other than 7 or 30 and a metrics source it does not know (422 per field)", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Validation", { metrics_source: "demo" });
    for (const window of ["14", "0", "seven", ""]) {
      const response = await owner.client.api("GET", `/api/campaigns/${group.id}?window=${window}`);
      expect(response.statusCode, window).toBe(422);
      expect(response.json().errors).toEqual({ window: [CAMPAIGN_MESSAGES.window] });
    }
    const cases: [string, string, Record<string, unknown>][] = [
      ["POST", "/api/campaigns", { name: "Other", metrics_source: "myspace" }],
      ["PUT", `/api/campaigns/${group.id}`, { name: "Validation", metrics_source: 3 }],
    ];
    for (const [method, url, body] of cases) {
      const response = await owner.client.api(method as "POST" | "PUT", url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors).toEqual({ metrics_source: [CAMPAIGN_MESSAGES.metricsSource] });
    }
    const renamed = await owner.client.api("PUT", `/api/campaigns/${group.id}`, {
      name: "Renamed",
      metrics_source: "demo",
    });
    expect(renamed.json().data).toMatchObject({ name: "Renamed", metrics_source: "demo" });
  });
});
