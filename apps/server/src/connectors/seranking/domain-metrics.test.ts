import { shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb } from "../../../test/harness";
import {
  addDomain,
  connectedLatestDay,
  createGroup,
  runBackfill,
  storedRows,
} from "../../features/campaigns/test-helpers";
import { SERANKING_KEY, serankingFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ seranking: serankingFake() }));

describeEachDb(
  "Mission Control: a company's SE Ranking",
  (env) => {
    it("a rank tracker down fails the snapshot; the stored days stay as they were", async () => {
      const owner = await buildOwner(env());
      const tracker = await owner.client.api("POST", "/api/sources", {
        name: "seranking",
        account: "Acme SEO",
        token: SERANKING_KEY,
      });
      expect(tracker.statusCode, tracker.body).toBe(200);
      const group = await createGroup(owner.client, "Tracker outage", { metrics_source: "sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
      const before = await storedRows(env(), acme);
      expect(before.length).toBeGreaterThan(0);
      const seranking = (await fakes.current()).parts.seranking;
      seranking.failNext.push(
        ...Array.from({ length: 5 }, () => ({ status: 503, body: { message: "Service Unavailable" } })),
      );
      try {
        await expect(
          env()
            .services.get("campaigns")
            .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(connectedLatestDay(env()), 3) }),
        ).rejects.toThrow();
        expect(await storedRows(env(), acme)).toEqual(before);
        expect((await owner.client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        seranking.failNext.length = 0;
      }
    }, 30_000);
  },
  async () => ({ ...(await fakes.env()) }),
);
