import { shiftDay, todayInTimezone } from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import type { AnyJobDefinition } from "../registry";
import { coverageRepo } from "./coverage-repo";
import { metricReads } from "./metrics-read";
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

const ZBackfillPayload = z.object({ companyId: z.string(), domainId: z.string(), source: z.string() });
export type TBackfillPayload = z.infer<typeof ZBackfillPayload>;
const ZSnapshotPayload = z.object({ companyId: z.string(), day: z.string() });
export type TSnapshotPayload = z.infer<typeof ZSnapshotPayload>;

export type { DomainMetrics, DomainMetricsStatus } from "./metrics-read";

/**
 * Daily domain metrics (docs/decisions.md, "Mission Control metric sources"): jobs copy each group's provider values into domain_metric_days
 * (60 days when a domain is added, the last days once a day), and the group page reads only those rows,
 * turning them into 7/30-day changes with core's computeChange. The jobs are here; the reading is
 * metrics-read.ts.
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

    ...metricReads(repo, providers, coverage),
  };
}

export type CampaignMetrics = ReturnType<typeof campaignMetrics>;
