import { nextRunAfter, type ReportDateRange, reportRange } from "@app/core";
import { z } from "zod";
import { widgetType } from "../../connectors";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import type { DashboardsService } from "../dashboards/service";
import type { AnyJobDefinition } from "../registry";
import type { WidgetsService } from "../widgets/service";
import { scheduleOf } from "./delivery";
import { reportsRepo } from "./repo";

export const PREWARM_PASS_JOB = "reports.prewarm";
export const PREWARM_REPORT_JOB = "reports.prewarm-one";
/** How long before a send its data is fetched: inside the 15 minutes a recent stored result is served. */
export const PREWARM_AHEAD_MS = 12 * 60_000;

const ZPrewarm = z.object({ companyId: z.string(), reportId: z.string(), slot: z.string() });

/**
 * Fetches the data a scheduled report will need shortly before it is sent (docs/decisions.md,
 * "Persistent results"): the render at send time then finds every provider widget's numbers stored
 * and recent (no provider call, nothing to wait for), and if the provider fails by then, the report
 * still carries these numbers with their "Data as of". Only widgets of provider connectors are asked;
 * the queries go through the connectors' quota buckets like any other, and an instance whose provider
 * allowance is held or down to its reserve (a GA4 property's tokens) is left out: pre-warm only saves a
 * wait later and must not spend the last tokens. One job per (report, slot).
 */
export function prewarmService(
  ctx: AppContext,
  deps: { dashboards: () => DashboardsService; widgets: () => WidgetsService },
) {
  const repo = reportsRepo(ctx.db);

  /** One pass: a job for every report due within PREWARM_AHEAD_MS. */
  async function prewarmDue(): Promise<number> {
    const now = ctx.clock.now();
    let queued = 0;
    for (const row of await repo.listAllForScheduling()) {
      const slot = nextRunAfter(scheduleOf(row), now);
      if (slot.getTime() - now.getTime() > PREWARM_AHEAD_MS) continue;
      await ctx.jobs.enqueue(
        PREWARM_REPORT_JOB,
        { companyId: row.company_id, reportId: row.id, slot: slot.toISOString() },
        { key: `prewarm:${row.id}:${slot.toISOString()}` },
      );
      queued += 1;
    }
    return queued;
  }

  /** The widgets' data for the period the report will send, as its print view will ask for it. */
  async function prewarmReport(payload: z.infer<typeof ZPrewarm>): Promise<number> {
    const row = await repo.find(payload.companyId, payload.reportId);
    if (!row) return 0;
    const range = reportRange(row.date_range as ReportDateRange, new Date(payload.slot), row.timezone);
    let asked = 0;
    for (const widget of await deps.dashboards().widgetsById(row.company_id, row.dashboard_id)) {
      if (widget.nature !== "interactive") continue;
      const instances = [];
      for (const instance of widget.instances) {
        const connector = widgetType(instance.type)?.connector;
        const allowed = (await connector?.prewarmAllowed?.(ctx.rateLimits, instance.type, instance.inputs)) ?? true;
        if (allowed) instances.push(instance);
      }
      const stored = instances.some((instance) => {
        const found = widgetType(instance.type);
        return found?.connector.settlingDays !== undefined && found.config.realtime !== true;
      });
      if (!stored) continue;
      try {
        await deps.widgets().data(row.company_id, {
          instances,
          startDate: range.startDate,
          endDate: range.endDate,
          comparison: true,
          timezone: row.timezone,
        });
        asked += 1;
      } catch (error) {
        // A failing widget fails the same way at send time, with its own message: nothing to do here.
        ctx.logger.warn({ err: error, report: row.id, widget: widget.id }, "pre-warming a report widget failed");
      }
    }
    return asked;
  }

  const passJob: JobDefinition<Record<string, never>> = {
    name: PREWARM_PASS_JOB,
    payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
    schedule: { everyMs: 5 * 60_000 },
    timeoutMs: 5 * 60_000,
    async handle() {
      await prewarmDue();
    },
  };
  const reportJob: JobDefinition<z.infer<typeof ZPrewarm>> = {
    name: PREWARM_REPORT_JOB,
    payload: ZPrewarm,
    key: (payload) => `prewarm:${payload.reportId}:${payload.slot}`,
    retry: { attempts: 1, backoffMs: 1000 },
    timeoutMs: 5 * 60_000,
    async handle(payload) {
      await prewarmReport(payload);
    },
  };

  return { prewarmDue, prewarmReport, jobs: [passJob, reportJob] as AnyJobDefinition[] };
}

export type PrewarmService = ReturnType<typeof prewarmService>;
