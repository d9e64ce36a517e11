import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { lagDaysOf } from "../index";

/** How late insights and widget alerts judge this connector's days (features/insights/budget.ts, lagDaysOf). */
describe("Instagram in insights' budget", () => {
  it("its lag is two days (numbers up to 48 hours late)", () => {
    expect(lagDaysOf([buildInstance({ id: "i0", prefix: "a", type: "instagram.insights", inputs: {} })])).toBe(2);
  });
});
