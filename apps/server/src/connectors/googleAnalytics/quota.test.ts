import { describe, expect, it } from "vitest";
import { manualClock } from "../../infra/clock";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { ProviderError } from "../http/errors";
import { untilPacificMidnight } from "../http/google-reset";
import {
  assertPropertyOpen,
  holdExhaustedProperty,
  notePropertyQuota,
  type PropertyQuota,
  propertyQuotaState,
  ZPropertyQuota,
} from "./quota";

/** What Google reports with plenty left, but the allowances named here. */
function quota(overrides: Partial<PropertyQuota> = {}): PropertyQuota {
  return {
    tokensPerDay: { consumed: 1_000, remaining: 199_000 },
    tokensPerHour: { consumed: 1_000, remaining: 39_000 },
    tokensPerProjectPerHour: { consumed: 1_000, remaining: 13_000 },
    concurrentRequests: { consumed: 0, remaining: 10 },
    ...overrides,
  };
}

function setup(start: string) {
  const clock = manualClock(start);
  const counters = createMemoryRateLimitStore(() => clock.now().getTime());
  const at = () => clock.now().getTime();
  return { clock, counters, at };
}

describe("GA4 property quota holds (propertyQuota → held until Google's reset)", () => {
  it("plenty left keeps the property open; an answer without propertyQuota changes nothing", async () => {
    const { counters, at } = setup("2026-11-26T10:40:00Z");
    await notePropertyQuota(counters, "9001", "core", quota(), at());
    await notePropertyQuota(counters, "9001", "core", undefined, at());
    expect(await propertyQuotaState(counters, "9001", "core")).toEqual({ state: "open", period: null });
    await expect(assertPropertyOpen(counters, "9001", "core", at())).resolves.toBeUndefined();
  });

  it("hourly tokens under 5 %: held until the next full hour, then open again", async () => {
    const { clock, counters, at } = setup("2026-11-26T10:40:00Z");
    await notePropertyQuota(
      counters,
      "9002",
      "core",
      quota({ tokensPerHour: { consumed: 38_500, remaining: 1_500 } }),
      at(),
    );
    expect(await propertyQuotaState(counters, "9002", "core")).toEqual({ state: "held", period: "hour" });
    const refused = await assertPropertyOpen(counters, "9002", "core", at()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ kind: "quota", retryAfterMs: 20 * 60_000 });
    clock.advance(20 * 60_000 - 1_000);
    expect((await propertyQuotaState(counters, "9002", "core")).state).toBe("held");
    clock.advance(1_000);
    expect(await propertyQuotaState(counters, "9002", "core")).toEqual({ state: "open", period: null });
    await expect(assertPropertyOpen(counters, "9002", "core", at())).resolves.toBeUndefined();
  });

  it("the per-project hourly tokens count too, and a small allowance keeps a floor of 50 tokens", async () => {
    const { counters, at } = setup("2026-11-26T10:40:00Z");
    await notePropertyQuota(
      counters,
      "9003",
      "core",
      quota({ tokensPerProjectPerHour: { consumed: 13_400, remaining: 600 } }),
      at(),
    );
    expect((await propertyQuotaState(counters, "9003", "core")).state).toBe("held");
    // 49 of 500 is over 5 %, but under the floor.
    await notePropertyQuota(counters, "9004", "core", { tokensPerHour: { consumed: 451, remaining: 49 } }, at());
    expect((await propertyQuotaState(counters, "9004", "core")).state).toBe("held");
  });

  it("daily tokens under 5 %: held until midnight Pacific time, when Google refreshes them", async () => {
    // 12:00 in Los Angeles (PST, UTC−8): twelve hours to the reset.
    const { clock, counters, at } = setup("2026-11-26T20:00:00Z");
    expect(untilPacificMidnight(at())).toBe(12 * 3_600_000);
    await notePropertyQuota(
      counters,
      "9005",
      "core",
      quota({ tokensPerDay: { consumed: 195_000, remaining: 5_000 } }),
      at(),
    );
    expect(await propertyQuotaState(counters, "9005", "core")).toEqual({ state: "held", period: "day" });
    clock.advance(12 * 3_600_000 - 1_000);
    expect((await propertyQuotaState(counters, "9005", "core")).state).toBe("held");
    clock.advance(1_000);
    expect((await propertyQuotaState(counters, "9005", "core")).state).toBe("open");
  });

  it("under 20 % is the pre-warm reserve: interactive requests still go, pre-warm does not", async () => {
    const { counters, at } = setup("2026-11-26T10:40:00Z");
    await notePropertyQuota(
      counters,
      "9006",
      "core",
      quota({ tokensPerDay: { consumed: 170_000, remaining: 30_000 } }),
      at(),
    );
    expect(await propertyQuotaState(counters, "9006", "core")).toEqual({ state: "reserve", period: "day" });
    await expect(assertPropertyOpen(counters, "9006", "core", at())).resolves.toBeUndefined();
  });

  it("reads Google's JSON, where a zero is left out: no `remaining` means none left", async () => {
    const { counters, at } = setup("2026-11-26T10:40:00Z");
    const parsed = ZPropertyQuota.parse({ tokensPerHour: { consumed: 40_000 }, tokensPerDay: { remaining: 150_000 } });
    expect(parsed.tokensPerHour).toEqual({ consumed: 40_000, remaining: 0 });
    await notePropertyQuota(counters, "9007", "core", parsed, at());
    expect(await propertyQuotaState(counters, "9007", "core")).toEqual({ state: "held", period: "hour" });
  });

  it("Core and Realtime are separate allowances; a RESOURCE_EXHAUSTED refusal holds for the wait it implies", async () => {
    const { clock, counters, at } = setup("2026-11-26T10:40:00Z");
    await notePropertyQuota(
      counters,
      "9008",
      "realtime",
      quota({ tokensPerHour: { consumed: 40_000, remaining: 0 } }),
      at(),
    );
    expect((await propertyQuotaState(counters, "9008", "realtime")).state).toBe("held");
    expect((await propertyQuotaState(counters, "9008", "core")).state).toBe("open");
    await holdExhaustedProperty(counters, "9009", "core", 5 * 3_600_000);
    expect(await propertyQuotaState(counters, "9009", "core")).toEqual({ state: "held", period: "day" });
    clock.advance(5 * 3_600_000);
    expect((await propertyQuotaState(counters, "9009", "core")).state).toBe("open");
  });
});
