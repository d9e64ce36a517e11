import { describe, expect, it } from "vitest";
import type { CampaignMetricsSource } from "../contract/campaigns";
import { suggestedCampaignMetricsSource } from "./metrics-source";

const ALL = [
  { id: "sources", available: true },
  { id: "ahrefs", available: true },
  { id: "demo", available: true },
] as { id: CampaignMetricsSource; available: boolean }[];
const NO_KEY = ALL.map((option) => (option.id === "ahrefs" ? { ...option, available: false } : option));

describe("suggestedCampaignMetricsSource", () => {
  it.each([
    ["Search Console connected", ALL, ["searchConsole"], "sources"],
    ["Ahrefs connected, no server key", NO_KEY, ["ahrefsV3"], "sources"],
    ["a rank tracker connected", NO_KEY, ["demo", "seranking"], "sources"],
    ["nothing connected, the server's Ahrefs key", ALL, [], "ahrefs"],
    ["only sources that feed no group, the server's key", ALL, ["facebookAds", "demo"], "ahrefs"],
    ["nothing connected, no server key: the user picks", NO_KEY, [], null],
    ["only demo data connected, no server key", NO_KEY, ["demo"], null],
  ] as const)("%s → %s", (_case, options, connected, expected) => {
    expect(suggestedCampaignMetricsSource(options, connected)).toBe(expected);
  });
});
