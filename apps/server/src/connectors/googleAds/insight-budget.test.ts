import { buildInstance } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { extraDimension } from "../../features/insights/budget";

const ADS = { type: "googleAds.report", inputs: { property: "1", reportType: "campaign", metrics: ["clicks"] } };

describe("Google Ads in insights' budget", () => {
  it("its breakdown is the campaign", () => {
    expect(extraDimension([buildInstance({ id: "i0", prefix: "a", ...ADS })], "breakdown")).toBe("campaign");
  });
});
