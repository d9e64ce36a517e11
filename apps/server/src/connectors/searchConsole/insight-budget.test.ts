import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { extraDimension, optionalQueryAllowed } from "../../features/insights/budget";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { lagDaysOf } from "../index";
import { searchConsoleQuotas } from "./index";

/** What insights may ask of a Search Console widget beside its own answer (features/insights/budget.ts). */
const GSC = { type: "searchConsole.performance", inputs: { property: "https://acme.com/", metrics: ["clicks"] } };
const instances = () => [buildInstance({ id: "i0", prefix: "a", ...GSC })];

describe("Search Console in insights' budget", () => {
  it("its breakdown is the device; its lag two days", () => {
    expect(extraDimension(instances(), "breakdown")).toBe("device");
    expect(lagDaysOf(instances())).toBe(2);
  });

  it("optionalQueryAllowed: not with most of the site's minute used", async () => {
    const counters = createMemoryRateLimitStore();
    expect(await optionalQueryAllowed(counters, instances(), { notices: [] })).toBe(true);
    const [site] = searchConsoleQuotas({ id: "", account: null }, "https://acme.com/");
    for (let hit = 0; hit < site.max * 0.8; hit += 1) await counters.hit(`provider:search-console:${site.key}`, 60_000);
    expect(await optionalQueryAllowed(counters, instances(), { notices: [] })).toBe(false);
  });
});
