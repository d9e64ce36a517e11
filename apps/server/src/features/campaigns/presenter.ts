import type { TCampaign, TCampaignDomain, TCampaignSummary } from "@app/core";
import type { CampaignDomainRow, CampaignRow } from "./repo";

/** A group as the groups list shows it: counts, no domains. */
export function presentCampaignSummary(row: CampaignRow): TCampaignSummary {
  return {
    id: row.id,
    name: row.name,
    domain_count: row.domain_count,
    open_alert_count: row.open_alert_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A tracked domain; `now` (ISO instant) decides whether its snooze is still running. */
export function presentCampaignDomain(row: CampaignDomainRow, now: string): TCampaignDomain {
  const snoozed = row.alerts_snoozed_until !== null && row.alerts_snoozed_until > now;
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    domain: row.domain,
    label: row.label,
    alerts_snoozed_until: row.alerts_snoozed_until,
    snoozed,
    open_alert_count: row.open_alert_count,
    created_at: row.created_at,
  };
}

/** A group with its domains (the group page). */
export function presentCampaign(row: CampaignRow, domains: CampaignDomainRow[], now: string): TCampaign {
  return { ...presentCampaignSummary(row), domains: domains.map((domain) => presentCampaignDomain(domain, now)) };
}
