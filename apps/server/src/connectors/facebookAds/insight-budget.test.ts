import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { extraDimension, optionalQueryAllowed } from "../../features/insights/budget";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { lagDaysOf } from "../index";

/** What insights may ask of a Facebook Ads widget beside its own answer (features/insights/budget.ts). */
const META = { type: "facebookAds.insights", inputs: { property: "act_42", metrics: ["spend"] } };
const instances = () => [buildInstance({ id: "i0", prefix: "a", ...META })];

describe("Facebook Ads in insights' budget", () => {
  it("its breakdown is the campaign; its lag a day, not the 28 days Meta keeps revising", () => {
    expect(extraDimension(instances(), "breakdown")).toBe("campaign");
    // Widget alerts judged Meta widgets 28 days late when they used settlingDays as the lag.
    expect(lagDaysOf(instances())).toBe(1);
  });

  it.each([
    ["Meta holding the ad account", "provider:meta:hold:key:account:42", false],
    ["Meta holding another account", "provider:meta:hold:key:account:7", true],
  ])("optionalQueryAllowed: %s", async (_name, hold, expected) => {
    const counters = createMemoryRateLimitStore();
    await counters.hit(hold, 60_000);
    expect(await optionalQueryAllowed(counters, instances(), { notices: [] })).toBe(expected);
  });
});
