import {
  type CampaignMetricsSource,
  type ChangeWindow,
  DEFAULT_CAMPAIGN_METRICS_SOURCE,
  type TCampaign,
  type TCampaignDomain,
  type TCampaignSummary,
  ZCampaignMetricsSource,
} from "@app/core";
import type { DomainMetrics } from "./metrics";
import type { CampaignDomainRow, CampaignRow } from "./repo";

/** A source this version does not know (written by a later one) reads as the default; its domains say no_provider. */
function knownSource(value: string): CampaignMetricsSource {
  const parsed = ZCampaignMetricsSource.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_CAMPAIGN_METRICS_SOURCE;
}

/** A group as the groups list shows it: counts, no domains. */
export function presentCampaignSummary(row: CampaignRow): TCampaignSummary {
  return {
    id: row.id,
    name: row.name,
    metrics_source: knownSource(row.metrics_source),
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

/** A group with its domains and their metrics over `window` days (the group page). */
export function presentCampaign(
  row: CampaignRow,
  domains: CampaignDomainRow[],
  now: string,
  view: { window: ChangeWindow; label: string | null; metrics: Map<string, DomainMetrics> },
): TCampaign {
  return {
    ...presentCampaignSummary(row),
    window: view.window,
    metrics_label: view.label,
    domains: domains.map((domain) => {
      const metrics = view.metrics.get(domain.id) ?? { status: "backfilling", metrics: [] };
      return { ...presentCampaignDomain(domain, now), metrics_status: metrics.status, metrics: metrics.metrics };
    }),
  };
}
