import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { lagDaysOf } from "../index";

/** How late insights and widget alerts judge this connector's days (features/insights/budget.ts, lagDaysOf). */
describe("Klaviyo in insights' budget", () => {
  it("its lag is none", () => {
    // Settling (a week of late attribution) is not lag: yesterday's sends are there to judge.
    expect(lagDaysOf([buildInstance({ id: "i0", prefix: "a", type: "klaviyo.report", inputs: {} })])).toBe(0);
  });
});
