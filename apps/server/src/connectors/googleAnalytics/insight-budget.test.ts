import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { extraDimension, optionalQueryAllowed } from "../../features/insights/budget";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { lagDaysOf } from "../index";
import { notePropertyQuota } from "./quota";

/** What insights may ask of a GA4 widget beside its own answer (features/insights/budget.ts). */
const GA4 = { type: "googleAnalytics.ga4", inputs: { property: "1001", profile: "2001", metrics: ["sessions"] } };
const DEMO = { type: "demo.analytics", inputs: { property: "harbor-outfitters", metrics: ["sessions"] } };
type Spec = typeof GA4 | typeof DEMO;
const instances = (...specs: Spec[]) =>
  specs.map((spec, index) => buildInstance({ id: `i${index}`, prefix: "abcd"[index], ...spec }));
const clean = { notices: [] };

describe("GA4 in insights' budget", () => {
  it("its breakdown is the channel; its lag a day", () => {
    expect(extraDimension(instances(GA4), "breakdown")).toBe("sessionDefaultChannelGroup");
    expect(lagDaysOf(instances(GA4))).toBe(1);
  });

  it.each<[string, Spec[], (counters: ReturnType<typeof createMemoryRateLimitStore>) => Promise<unknown>, boolean]>([
    ["GA4 with its tokens open", [GA4], async () => {}, true],
    [
      "GA4 down to the reserve kept for viewers",
      [GA4],
      (counters) =>
        notePropertyQuota(
          counters,
          "2001",
          "core",
          { tokensPerDay: { consumed: 170_000, remaining: 30_000 } },
          Date.now(),
        ),
      false,
    ],
    [
      "one instance down to its reserve holds the whole widget",
      [DEMO, GA4],
      (counters) =>
        notePropertyQuota(
          counters,
          "2001",
          "core",
          { tokensPerHour: { consumed: 39_000, remaining: 1_000 } },
          Date.now(),
        ),
      false,
    ],
  ])("optionalQueryAllowed: %s", async (_name, specs, prepare, expected) => {
    const counters = createMemoryRateLimitStore();
    await prepare(counters);
    expect(await optionalQueryAllowed(counters, instances(...specs), clean)).toBe(expected);
  });
});
