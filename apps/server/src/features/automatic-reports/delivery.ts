import { z } from "zod";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { JobDefinition } from "../../infra/jobs";
import type { RecordedAudit } from "../audit/record";
import type { AnyJobDefinition } from "../registry";
import type { Actor } from "../users/service";
import { type ReportRow, reportsRepo } from "./repo";
import { SEND_JOB, schedulingSteps } from "./scheduling";
import { DELIVERY_ATTEMPTS, type DeliveryDeps, sendStep, type TSendPayload, ZSendPayload } from "./sending";

export { LATE_AFTER_MS, SEND_JOB, scheduleOf } from "./scheduling";
export { DELIVERY_ATTEMPTS, type DeliveryDeps, failureReason, type SenderLookup } from "./sending";

export const SCHEDULE_JOB = "reports.schedule";

/**
 * Sending automatic reports (docs/product.md §3, §5): a scheduler job finds each report's due slot and
 * records it as a delivery keyed (report, slot), then a send job per delivery renders the dashboard for
 * the report's period in its zone, composes the e-mail and hands it to the mailer. The key makes a slot
 * go out once whatever restarts or how many workers look; a slot missed while the service was down goes
 * out once on the next run, marked late; failures retry with backoff and end as a visible reason.
 * The scheduler's side is scheduling.ts, the send job's sending.ts; this assembles their jobs.
 */
export function deliveryService(ctx: AppContext, deps: DeliveryDeps) {
  const repo = reportsRepo(ctx.db);
  const { scheduleDue, sendByHand } = schedulingSteps(ctx, repo);
  const send = sendStep(ctx, deps, repo);

  const scheduleJob: JobDefinition<Record<string, never>> = {
    name: SCHEDULE_JOB,
    payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
    schedule: { everyMs: 60_000 },
    timeoutMs: 5 * 60_000,
    async handle() {
      await scheduleDue();
    },
  };
  const sendJob: JobDefinition<TSendPayload> = {
    name: SEND_JOB,
    payload: ZSendPayload,
    // One delivery row per (report, slot), so its id is the idempotency key of that slot.
    key: (payload) => `delivery:${payload.deliveryId}`,
    retry: { attempts: DELIVERY_ATTEMPTS, backoffMs: ctx.config.reportRetryBaseMs },
    timeoutMs: ctx.config.render.widgetTimeoutMs * 2 + 120_000,
    handle: (payload, context) => send(payload, context.attempt),
  };
  const jobs: AnyJobDefinition[] = [scheduleJob, sendJob];

  return {
    jobs,
    scheduleDue,
    /** "Send now": a manual delivery as if due now, with its "sent by hand" audit row (scheduling.ts). */
    sendNow: (actor: Actor, row: ReportRow, record: (trx: Db) => Promise<RecordedAudit>) =>
      sendByHand({ ...row, company_id: actor.companyId }, record),
    /** The latest finished delivery of each report, for the API's `last_result`. */
    lastResults: (companyId: string, reportIds: string[]) => repo.lastResults(companyId, reportIds),
  };
}

export type DeliveryService = ReturnType<typeof deliveryService>;
