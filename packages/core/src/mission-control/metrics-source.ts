import type { CampaignMetricsSource } from "../contract/campaigns";

/**
 * The create-group form's first choice of "Metrics from": the company's connected sources when one of
 * them can feed a group, else the server's Ahrefs key when it has one, else nothing (the user picks:
 * demo numbers are never a default, and connected sources a company has none of would show no number).
 * `feeding` are the connectors whose sources can feed a group (the catalogue's `domainMetrics`: the
 * connectors declare it, so no list of them is kept here).
 */
export function suggestedCampaignMetricsSource(
  options: readonly { id: CampaignMetricsSource; available: boolean }[],
  connectedConnectors: readonly string[],
  feeding: readonly string[],
): CampaignMetricsSource | null {
  const offered = (id: CampaignMetricsSource) => options.some((option) => option.id === id && option.available);
  if (offered("sources") && connectedConnectors.some((name) => feeding.includes(name))) {
    return "sources";
  }
  return offered("ahrefs") ? "ahrefs" : null;
}
