import {
  type CampaignMetricsSource,
  type ChangeWindow,
  DEFAULT_CAMPAIGN_METRICS_SOURCE,
  isDomainMetricKey,
  type TAlertRule,
  type TAlertRuleOverride,
  type TCampaign,
  type TCampaignAlert,
  type TCampaignDomain,
  type TCampaignSummary,
  ZCampaignMetricsSource,
} from "@app/core";
import type { CampaignAlertsTable } from "../../infra/db/schema";
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

/** An open alert as the group page lists it. */
export function presentCampaignAlert(row: CampaignAlertsTable): TCampaignAlert {
  return {
    id: row.id,
    rule: row.rule,
    metric: isDomainMetricKey(row.metric) ? row.metric : null,
    reason: row.reason,
    opened_at: row.opened_at,
  };
}

/** A group with its domains and their metrics over `window` days (the group page). */
export function presentCampaign(
  row: CampaignRow,
  domains: CampaignDomainRow[],
  now: string,
  view: {
    window: ChangeWindow;
    label: string | null;
    metrics: Map<string, DomainMetrics>;
    alerts: readonly CampaignAlertsTable[];
    rules: TAlertRule[];
    overrides: TAlertRuleOverride[];
  },
): TCampaign {
  const alertsByDomain = new Map<string, TCampaignAlert[]>();
  // In the order of the rules, so every domain lists its alerts alike (traffic, authority, rank…).
  const order = new Map(view.rules.map((rule, index) => [rule.id, index]));
  const rank = (alert: CampaignAlertsTable) => order.get(alert.rule) ?? order.size;
  for (const alert of [...view.alerts].sort((a, b) => rank(a) - rank(b))) {
    const list = alertsByDomain.get(alert.campaign_domain_id) ?? [];
    list.push(presentCampaignAlert(alert));
    alertsByDomain.set(alert.campaign_domain_id, list);
  }
  return {
    ...presentCampaignSummary(row),
    window: view.window,
    metrics_label: view.label,
    domains: domains.map((domain) => {
      const metrics = view.metrics.get(domain.id) ?? { status: "backfilling", metrics: [] };
      const shown = presentCampaignDomain(domain, now);
      return {
        ...shown,
        metrics_status: metrics.status,
        metrics: metrics.metrics,
        metrics_hint: metrics.hint ?? null,
        // A snoozed domain's alerts are hidden (docs/product.md §1), not resolved.
        alerts: shown.snoozed ? [] : (alertsByDomain.get(domain.id) ?? []),
      };
    }),
    alert_rules: view.rules,
    alert_overrides: view.overrides,
  };
}
