import type { ChangeWindow, TCampaign } from "@app/core";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { fetchAlertSettings, fetchCampaign, fetchCampaigns, fetchMetricsSources } from "./api";

import { campaignKeys } from "./keys";

export { campaignKeys };

/** While a domain's history is still being fetched (a job), the group is asked again this often. */
const BACKFILL_POLL_MS = 2000;

function isCollecting(campaign: TCampaign | undefined): boolean {
  return campaign?.domains.some((domain) => domain.metrics_status === "backfilling") ?? false;
}

/** The company's groups (GET /api/campaigns). */
export function campaignsQuery() {
  return queryOptions({ queryKey: campaignKeys.list, queryFn: fetchCampaigns });
}

/**
 * One group over a 7- or 30-day window. The previous window's answer stays on screen while the other
 * loads (the toggle does not flash a loader), and the group is polled while a domain is backfilling.
 */
export function campaignQuery(id: string, window: ChangeWindow) {
  return queryOptions({
    queryKey: [...campaignKeys.detail(id), window] as const,
    queryFn: () => fetchCampaign(id, window),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (isCollecting(query.state.data) ? BACKFILL_POLL_MS : false),
  });
}

/** The metrics sources this server offers (they change only with its configuration). */
export function metricsSourcesQuery() {
  return queryOptions({ queryKey: campaignKeys.sources, queryFn: fetchMetricsSources, staleTime: Infinity });
}

/** The company's alert rules and digest frequency. */
export function alertSettingsQuery() {
  return queryOptions({ queryKey: campaignKeys.alertSettings, queryFn: fetchAlertSettings });
}
