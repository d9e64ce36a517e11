import type {
  CampaignMetricsSource,
  ChangeWindow,
  TAlertRuleOverride,
  TCampaign,
  TCampaignAlertSettings,
  TCampaignDomain,
  TCampaignMetricsSourceOption,
  TCampaignSummary,
} from "@app/core";
import { call } from "../../lib/api";

/** The company's groups with their counts (GET /api/campaigns). */
export async function fetchCampaigns(): Promise<TCampaignSummary[]> {
  return (await call("campaignsList")).data;
}

/** One group with its domains' metrics over the last `window` days. */
export async function fetchCampaign(id: string, window: ChangeWindow): Promise<TCampaign> {
  return (await call("campaignShow", { params: { id }, query: { window: window === 30 ? "30" : "7" } })).data;
}

/** Where a group's metrics can come from on this server, in the form's order (GET /api/campaigns/sources). */
export async function fetchMetricsSources(): Promise<TCampaignMetricsSourceOption[]> {
  return (await call("campaignMetricsSources")).data;
}

/**
 * A new group with its metrics source (contract CAMPAIGN_METRICS_SOURCES), always sent, so the group
 * keeps the chosen one whatever the server's default becomes.
 */
export async function createCampaign(input: { name: string; source: CampaignMetricsSource }): Promise<TCampaign> {
  return (await call("campaignCreate", { body: { name: input.name, metrics_source: input.source } })).data;
}

/** Adds a domain or URL as typed; the server normalises it and answers 422 under `domain` when it is not one. */
export async function addCampaignDomain(campaignId: string, domain: string): Promise<TCampaignDomain> {
  return (await call("campaignDomainAdd", { params: { id: campaignId }, body: { domain } })).data;
}

export async function removeCampaignDomain(campaignId: string, domainId: string): Promise<void> {
  await call("campaignDomainRemove", { params: { id: campaignId, domainId } });
}

/** Hides the domain's alerts for CAMPAIGN_SNOOZE_DAYS. */
export async function snoozeCampaignDomain(campaignId: string, domainId: string): Promise<TCampaignDomain> {
  return (await call("campaignDomainSnooze", { params: { id: campaignId, domainId } })).data;
}

export async function unsnoozeCampaignDomain(campaignId: string, domainId: string): Promise<TCampaignDomain> {
  return (await call("campaignDomainUnsnooze", { params: { id: campaignId, domainId } })).data;
}

/** The company's alert rules and digest frequency (GET /api/campaigns/alert-settings). */
export async function fetchAlertSettings(): Promise<TCampaignAlertSettings> {
  return (await call("campaignAlertSettings")).data;
}

/** Saves them (admin only); the server judges every domain again with the new rules. */
export async function saveAlertSettings(input: TCampaignAlertSettings): Promise<TCampaignAlertSettings> {
  return (await call("campaignAlertSettingsUpdate", { body: input })).data;
}

/** Renames a group and, when given, replaces its changes to the company's alert rules (admin only). */
export async function updateCampaign(
  id: string,
  input: { name: string; alert_overrides?: TAlertRuleOverride[] },
): Promise<TCampaign> {
  return (await call("campaignUpdate", { params: { id }, body: input })).data;
}

/** Deletes a group with its domains, their data and alerts (admin only). */
export async function deleteCampaign(id: string): Promise<void> {
  await call("campaignDelete", { params: { id } });
}
