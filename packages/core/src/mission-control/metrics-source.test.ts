import { describe, expect, it } from "vitest";
import type { CampaignMetricsSource } from "../contract/campaigns";
import { suggestedCampaignMetricsSource } from "./metrics-source";

const ALL = [
  { id: "sources", available: true },
  { id: "ahrefs", available: true },
  { id: "demo", available: true },
] as { id: CampaignMetricsSource; available: boolean }[];
const NO_KEY = ALL.map((option) => (option.id === "ahrefs" ? { ...option, available: false } : option));

// Connectors as the catalogue describes them: three whose sources feed a group (a search console, an
// SEO tool, a rank tracker), and the rest (an ad platform, made-up data) which do not.
const FEEDING = ["siteSearch", "seoTool", "rankTracker"];

describe("suggestedCampaignMetricsSource", () => {
  it.each([
    ["Search Console connected", ALL, ["siteSearch"], "sources"],
    ["Ahrefs connected, no server key", NO_KEY, ["seoTool"], "sources"],
    ["a rank tracker connected", NO_KEY, ["madeUp", "rankTracker"], "sources"],
    ["nothing connected, the server's Ahrefs key", ALL, [], "ahrefs"],
    ["only sources that feed no group, the server's key", ALL, ["adPlatform", "madeUp"], "ahrefs"],
    ["nothing connected, no server key: the user picks", NO_KEY, [], null],
    ["only demo data connected, no server key", NO_KEY, ["madeUp"], null],
  ] as const)("%s → %s", (_case, options, connected, expected) => {
    expect(suggestedCampaignMetricsSource(options, connected, FEEDING)).toBe(expected);
  });
});
