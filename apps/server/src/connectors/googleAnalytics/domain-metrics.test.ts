import { shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb } from "../../../test/harness";
import { BACKFILL_DAYS } from "../../features/campaigns/metrics";
import { notCoveredHint } from "../../features/campaigns/providers/connected";
import {
  addDomain,
  connectedLatestDay,
  createGroup,
  runBackfill,
  series,
  shownDomain,
  storedRows,
} from "../../features/campaigns/test-helpers";
import { fakeGoogleForFile, fakeValue } from "../google/fake";

const google = fakeGoogleForFile(afterAll);

describeEachDb(
  "Mission Control: a company's GA4",
  (env) => {
    it("GA4: the property whose web stream is the domain gives sessions, users and conversions per day", async () => {
      const owner = await buildOwner(env());
      await connectOAuth(owner.client, "googleAnalytics");
      const group = await createGroup(owner.client, "Analytics", { metrics_source: "sources" });
      // acme.com: property 2001 (stream https://www.acme.com); shop.acme.com: 2002; globex.io: none.
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      const shop = (await addDomain(owner.client, group.id, "shop.acme.com")).id;
      const globex = (await addDomain(owner.client, group.id, "globex.io")).id;
      for (const id of [acme, shop, globex]) await runBackfill(env(), id);

      const latest = connectedLatestDay(env());
      for (const [domainId, property] of [
        [acme, "2001"],
        [shop, "2002"],
      ] as const) {
        const rows = await storedRows(env(), domainId);
        expect(new Set(rows.map((row) => row.metric))).toEqual(new Set(["sessions", "users", "conversions"]));
        const sessions = series(rows, "sessions");
        expect(sessions.size).toBe(BACKFILL_DAYS);
        expect([...sessions.keys()].sort().at(-1)).toBe(latest);
        for (const [metric, apiName] of [
          ["sessions", "sessions"],
          ["users", "activeUsers"],
          ["conversions", "keyEvents"],
        ]) {
          for (const [day, value] of series(rows, metric)) {
            expect(value, `${metric} ${day}`).toBe(fakeValue(apiName, day.replace(/-/g, ""), property));
          }
        }
      }
      const shown = await shownDomain(owner.client, group.id, acme);
      expect(shown).toMatchObject({ metrics_status: "ready", metrics_hint: null });
      expect(shown?.metrics.map((metric) => metric.metric)).toEqual(["sessions", "users", "conversions"]);

      // A property of another site (2003, an app-only 2004) does not cover globex.io.
      expect(await storedRows(env(), globex)).toEqual([]);
      expect(await shownDomain(owner.client, group.id, globex)).toMatchObject({
        metrics_status: "not_covered",
        metrics_hint: notCoveredHint("globex.io"),
      });

      const calls = (await google.current()).calls;
      const streams = calls.filter((call) => call.path === "/v1beta/properties/2001/dataStreams");
      expect(streams.length).toBeGreaterThan(0);
      expect(streams[0]?.headers.authorization).toMatch(/^Bearer ya29\./);
      const report = calls.findLast((call) => call.path === "/v1beta/properties/2001:runReport");
      expect(JSON.parse(report?.body ?? "{}")).toMatchObject({
        dimensions: [{ name: "date" }],
        metrics: [{ name: "sessions" }, { name: "activeUsers" }, { name: "keyEvents" }],
      });
    });

    it("GA4 down fails the snapshot (the job retries); the stored days stay as they were", async () => {
      const owner = await buildOwner(env());
      await connectOAuth(owner.client, "googleAnalytics");
      const group = await createGroup(owner.client, "GA4 outage", { metrics_source: "sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
      const before = await storedRows(env(), acme);
      expect(before.length).toBe(3 * BACKFILL_DAYS);
      const fake = await google.current();
      fake.down.add("2001");
      try {
        await expect(
          env()
            .services.get("campaigns")
            .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(connectedLatestDay(env()), 3) }),
        ).rejects.toThrow();
        expect(await storedRows(env(), acme)).toEqual(before);
        expect((await owner.client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        fake.down.delete("2001");
      }
    }, 30_000);
  },
  async () => ({ ...(await google.env()) }),
);
