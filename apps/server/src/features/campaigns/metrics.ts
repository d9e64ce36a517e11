import {
  type ChangeWindow,
  computeChange,
  type DailyValue,
  type DomainMetricKey,
  isDomainMetricKey,
  STOCK_TOLERANCE_DAYS,
  shiftDay,
  type TDomainMetricChange,
  todayInTimezone,
} from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import type { AnyJobDefinition } from "../registry";
import { coverageRepo } from "./coverage-repo";
import { type MetricsProviders, metricsProviders } from "./providers";
import type { CampaignsRepo } from "./repo";

export const BACKFILL_JOB = "campaigns.backfill";
export const SNAPSHOT_JOB = "campaigns.snapshot";
export const SCHEDULE_SNAPSHOTS_JOB = "campaigns.schedule-snapshots";

/** Days of history fetched for a new domain: two 30-day windows, so the 30-day change exists at once. */
export const BACKFILL_DAYS = 60;
/**
 * Days the daily snapshot fetches again: providers revise recent days (Search Console fills in for ~3
 * days), and the demo's scripted drop moves with the clock; 7 covers both, and an upsert makes it cheap.
 */
export const SNAPSHOT_DAYS = 7;
/** A domain whose latest value is older than this many days beyond its window is treated as having none. */
const STALE_GRACE_DAYS = 7;

const ZBackfillPayload = z.object({ companyId: z.string(), domainId: z.string(), source: z.string() });
export type TBackfillPayload = z.infer<typeof ZBackfillPayload>;
const ZSnapshotPayload = z.object({ companyId: z.string(), day: z.string() });
export type TSnapshotPayload = z.infer<typeof ZSnapshotPayload>;

export type DomainMetricsStatus = "ready" | "backfilling" | "no_provider" | "not_covered";
export interface DomainMetrics {
  status: DomainMetricsStatus;
  metrics: TDomainMetricChange[];
  /** With not_covered: what to connect for the domain. */
  hint?: string;
}

/**
 * Daily domain metrics (docs/decisions.md, "Mission Control metric sources"): jobs copy each group's provider values into domain_metric_days
 * (60 days when a domain is added, the last days once a day), and the group page reads only those rows,
 * turning them into 7/30-day changes with core's computeChange.
 */
export function campaignMetrics(
  ctx: AppContext,
  repo: CampaignsRepo,
  providers: MetricsProviders = metricsProviders(ctx),
  hooks: {
    /** Runs after values were stored for these domains (null: every domain of the company): the alert evaluation. */
    afterStore?: (companyId: string, domainIds: string[] | null) => Promise<void>;
  } = {},
) {
  const now = () => ctx.clock.now().toISOString();
  const coverage = coverageRepo(ctx.db);

  async function store(companyId: string, domainId: string, domain: string, source: string, days: number, to?: string) {
    const provider = providers.forSource(source);
    if (!provider) return;
    // A domain nothing of the company covers: say what to connect, fetch nothing; the values of an
    // earlier coverage stay (unread while the hint stands). One covered since the last job (a source
    // connected meanwhile) gets its whole history, not only the snapshot's days. A provider failing
    // here fails the job, which retries; nothing stored is touched.
    let span = days;
    if (provider.coverage) {
      const found = await provider.coverage(companyId, domain);
      const change = await coverage.set(
        companyId,
        domainId,
        provider.id,
        found.covered
          ? { hint: null, plan: found.plan ? JSON.stringify(found.plan) : null }
          : { hint: found.hint, plan: null },
        now(),
      );
      if (!found.covered) return;
      if (change.refetch) span = Math.max(days, BACKFILL_DAYS);
      // A metric another source now gives (a rank tracker's position after Search Console's): its old
      // values go, so no window compares one source's numbers with another's (a false alert).
      if (change.moved.length > 0) await repo.deleteMetricDays(companyId, domainId, provider.id, change.moved);
    }
    const latest = provider.latestCompleteDay();
    const last = to && to < latest ? to : latest;
    const values = await provider.fetch({ companyId, domain, from: shiftDay(last, -(span - 1)), to: last });
    await repo.upsertMetricDays(companyId, domainId, provider.id, values, now());
  }

  /** A new domain's history; nothing when it was removed or its group's source changed meanwhile. */
  async function backfill(payload: TBackfillPayload): Promise<void> {
    const domain = await repo.domainWithSource(payload.companyId, payload.domainId);
    if (!domain || domain.metrics_source !== payload.source) return;
    await store(domain.company_id, domain.id, domain.domain, domain.metrics_source, BACKFILL_DAYS);
    await hooks.afterStore?.(domain.company_id, [domain.id]);
  }

  /** The last SNAPSHOT_DAYS days up to `day` of every domain of the company. */
  async function snapshot(payload: TSnapshotPayload): Promise<void> {
    for (const domain of await repo.companyDomainsWithSource(payload.companyId)) {
      await store(domain.company_id, domain.id, domain.domain, domain.metrics_source, SNAPSHOT_DAYS, payload.day);
    }
    await hooks.afterStore?.(payload.companyId, null);
  }

  /**
   * One snapshot job per company per day. Keyed by company and day, so the hourly pass enqueues each
   * day's job once and a pass missed while down is caught up by the next one.
   */
  async function scheduleSnapshots(): Promise<number> {
    const day = shiftDay(todayInTimezone("UTC", ctx.clock.now()), -1);
    let enqueued = 0;
    for (const companyId of await repo.companiesWithDomains()) {
      const { duplicate } = await ctx.jobs.enqueue(SNAPSHOT_JOB, { companyId, day } satisfies TSnapshotPayload);
      if (!duplicate) enqueued += 1;
    }
    return enqueued;
  }

  const backfillJob: JobDefinition<TBackfillPayload> = {
    name: BACKFILL_JOB,
    payload: ZBackfillPayload,
    // Once per domain and source: a source switched back and forth does not fetch the same history twice.
    key: (payload) => `campaigns.backfill:${payload.domainId}:${payload.source}`,
    retry: { attempts: 5, backoffMs: 30_000 },
    handle: backfill,
  };
  const snapshotJob: JobDefinition<TSnapshotPayload> = {
    name: SNAPSHOT_JOB,
    payload: ZSnapshotPayload,
    key: (payload) => `campaigns.snapshot:${payload.companyId}:${payload.day}`,
    retry: { attempts: 5, backoffMs: 60_000 },
    timeoutMs: 15 * 60_000,
    handle: snapshot,
  };
  const scheduleJob: JobDefinition<Record<string, never>> = {
    name: SCHEDULE_SNAPSHOTS_JOB,
    payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
    schedule: { everyMs: 3_600_000 },
    async handle() {
      await scheduleSnapshots();
    },
  };
  const jobs: AnyJobDefinition[] = [backfillJob, snapshotJob, scheduleJob];

  return {
    jobs,
    backfill,
    snapshot,
    scheduleSnapshots,

    /** Queues a domain's history (when it is added, or its group's source changes). */
    async enqueueBackfill(companyId: string, domainId: string, source: string): Promise<void> {
      await ctx.jobs.enqueue(BACKFILL_JOB, { companyId, domainId, source } satisfies TBackfillPayload);
    },

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

export type CampaignMetrics = ReturnType<typeof campaignMetrics>;
