import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { lagDaysOf } from "../index";

/** How late insights and widget alerts judge this connector's days (features/insights/budget.ts, lagDaysOf). */
describe("Business Profile in insights' budget", () => {
  it("its lag is three days", () => {
    expect(
      lagDaysOf([buildInstance({ id: "i0", prefix: "a", type: "googleMyBusiness.performance", inputs: {} })]),
    ).toBe(3);
  });
});
