import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import type { AnyJobDefinition } from "../registry";
import type { WidgetAlertsService } from "./service";

export const SCHEDULE_EVALUATIONS_JOB = "widget-alerts.schedule";
export const EVALUATE_JOB = "widget-alerts.evaluate";
/**
 * How often rules are evaluated. Widget data is daily for nearly every connector and the data path
 * caches tables for 10 minutes and keeps provider results; hourly notices a refresh within the hour
 * without asking providers more often than a dashboard left open would.
 */
export const EVALUATION_EVERY_MS = 3_600_000;

const ZEvaluatePayload = z.object({ companyId: z.string(), slot: z.string() });
export type TEvaluatePayload = z.infer<typeof ZEvaluatePayload>;

/** The hour an evaluation belongs to: one job per company and hour, however many passes enqueue it. */
export function evaluationSlot(now: Date): string {
  return new Date(Math.floor(now.getTime() / EVALUATION_EVERY_MS) * EVALUATION_EVERY_MS).toISOString();
}

/** An hourly pass enqueues one evaluation job per company that has rules not paused. */
export function widgetAlertJobs(ctx: AppContext, service: () => WidgetAlertsService) {
  async function scheduleEvaluations(): Promise<number> {
    const slot = evaluationSlot(ctx.clock.now());
    let enqueued = 0;
    for (const companyId of await service().companiesToEvaluate()) {
      const { duplicate } = await ctx.jobs.enqueue(EVALUATE_JOB, { companyId, slot } satisfies TEvaluatePayload);
      if (!duplicate) enqueued += 1;
    }
    return enqueued;
  }

  const scheduleJob: JobDefinition<Record<string, never>> = {
    name: SCHEDULE_EVALUATIONS_JOB,
    payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
    schedule: { everyMs: EVALUATION_EVERY_MS },
    async handle() {
      await scheduleEvaluations();
    },
  };
  const evaluateJob: JobDefinition<TEvaluatePayload> = {
    name: EVALUATE_JOB,
    payload: ZEvaluatePayload,
    key: (payload) => `${EVALUATE_JOB}:${payload.companyId}:${payload.slot}`,
    retry: { attempts: 3, backoffMs: 60_000 },
    timeoutMs: 15 * 60_000,
    async handle(payload) {
      await service().evaluateCompany(payload.companyId);
    },
  };
  const jobs: AnyJobDefinition[] = [scheduleJob, evaluateJob];
  return { jobs, scheduleEvaluations };
}
