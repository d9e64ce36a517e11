import {
  type ChangeWindow,
  computeChange,
  type DailyValue,
  type DomainMetricKey,
  isDomainMetricKey,
  STOCK_TOLERANCE_DAYS,
  shiftDay,
  type TDomainMetricChange,
} from "@app/core";
import type { CoverageRepo } from "./coverage-repo";
import type { MetricsProviders } from "./providers";
import type { CampaignsRepo } from "./repo";

/** A domain whose latest value is older than this many days beyond its window is treated as having none. */
const STALE_GRACE_DAYS = 7;

export type DomainMetricsStatus = "ready" | "backfilling" | "no_provider" | "not_covered";
export interface DomainMetrics {
  status: DomainMetricsStatus;
  metrics: TDomainMetricChange[];
  /** With not_covered: what to connect for the domain. */
  hint?: string;
}

/**
 * Reading the stored domain metrics (metrics.ts's jobs write them): the group page's changes and the
 * alert rules' history, from domain_metric_days only, so no page ever waits for a provider.
 */
export function metricReads(repo: CampaignsRepo, providers: MetricsProviders, coverage: CoverageRepo) {
  return {
    /** The provider behind a group's source, or null when this version has none for it. */
    providerFor: (source: string) => providers.forSource(source),

    /**
     * Each domain's stored daily values per metric from one provider, from `fromDay` on (what the
     * alert rules judge); a domain with no values is absent.
     */
    async history(companyId: string, domainIds: readonly string[], providerId: string, fromDay: string) {
      const series = new Map<string, Map<DomainMetricKey, DailyValue[]>>();
      for (const row of await repo.metricDays(companyId, domainIds, providerId, fromDay)) {
        if (!isDomainMetricKey(row.metric)) continue;
        const byMetric = series.get(row.campaign_domain_id) ?? new Map<DomainMetricKey, DailyValue[]>();
        series.set(row.campaign_domain_id, byMetric);
        const values = byMetric.get(row.metric) ?? [];
        byMetric.set(row.metric, values);
        values.push({ day: row.day, value: Number(row.value) });
      }
      return series;
    },

    /** The label of a source's values ("Demo data"), or null when this version has no provider for it. */
    labelOf: (source: string) => providers.forSource(source)?.label ?? null,

    /**
     * Each domain's change per covered metric over `window` days, as of its latest stored day (so a
     * snapshot running late shows slightly older values with their day, not a false fall).
     */
    async forDomains(
      companyId: string,
      domainIds: readonly string[],
      source: string,
      window: ChangeWindow,
    ): Promise<Map<string, DomainMetrics>> {
      const result = new Map<string, DomainMetrics>();
      const provider = providers.forSource(source);
      if (!provider) {
        for (const id of domainIds) result.set(id, { status: "no_provider", metrics: [] });
        return result;
      }
      const hints = provider.coverage ? await coverage.hints(companyId, domainIds, provider.id) : new Map();
      const latest = provider.latestCompleteDay();
      const from = shiftDay(latest, -(2 * window + STOCK_TOLERANCE_DAYS + STALE_GRACE_DAYS));
      const series = new Map<string, Map<DomainMetricKey, DailyValue[]>>();
      for (const row of await repo.metricDays(companyId, domainIds, provider.id, from)) {
        if (!isDomainMetricKey(row.metric) || row.day > latest) continue;
        const byMetric = series.get(row.campaign_domain_id) ?? new Map<DomainMetricKey, DailyValue[]>();
        series.set(row.campaign_domain_id, byMetric);
        const values = byMetric.get(row.metric) ?? [];
        byMetric.set(row.metric, values);
        values.push({ day: row.day, value: Number(row.value) });
      }
      for (const id of domainIds) {
        const hint = hints.get(id);
        if (hint) {
          result.set(id, { status: "not_covered", metrics: [], hint });
          continue;
        }
        const byMetric = series.get(id);
        if (!byMetric) {
          result.set(id, { status: "backfilling", metrics: [] });
          continue;
        }
        let asOf = "";
        for (const values of byMetric.values()) for (const value of values) if (value.day > asOf) asOf = value.day;
        // A provider whose metrics depend on what covers the domain (Search Console only, Ahrefs only)
        // shows those it stored; the others show every metric they deliver, N/A where a value is missing.
        const shown = provider.coverage ? provider.metrics.filter((metric) => byMetric.has(metric)) : provider.metrics;
        const metrics = shown.map((metric) => {
          const change = computeChange(metric, byMetric.get(metric) ?? [], asOf, window);
          return {
            metric,
            as_of: change.asOf,
            current: change.current,
            baseline: change.baseline,
            change: change.change,
            percent_change: change.percentChange,
            tone: change.tone,
          };
        });
        result.set(id, { status: "ready", metrics });
      }
      return result;
    },
  };
}
