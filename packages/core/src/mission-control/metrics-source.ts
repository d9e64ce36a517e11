import type { CampaignMetricsSource } from "../contract/campaigns";

/**
 * Connectors whose sources feed a group using "Connected sources" (the server's connected provider:
 * Search Console, Analytics, Ahrefs and the rank trackers).
 */
export const CAMPAIGN_CONNECTED_CONNECTORS: readonly string[] = [
  "searchConsole",
  "googleAnalytics",
  "ahrefsV3",
  "seranking",
  "accuranker",
];

/**
 * The create-group form's first choice of "Metrics from": the company's connected sources when one of
 * them can feed a group, else the server's Ahrefs key when it has one, else nothing (the user picks:
 * demo numbers are never a default, and connected sources a company has none of would show no number).
 */
export function suggestedCampaignMetricsSource(
  options: readonly { id: CampaignMetricsSource; available: boolean }[],
  connectedConnectors: readonly string[],
): CampaignMetricsSource | null {
  const offered = (id: CampaignMetricsSource) => options.some((option) => option.id === id && option.available);
  if (offered("sources") && connectedConnectors.some((name) => CAMPAIGN_CONNECTED_CONNECTORS.includes(name))) {
    return "sources";
  }
  return offered("ahrefs") ? "ahrefs" : null;
}
