import { dueRuns, type MonthDetail, type ReportSchedule, type Weekday } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { ReportDeliveriesTable } from "../../infra/db/schema";
import { newId } from "../../infra/security";
import { auditLog, type RecordedAudit } from "../audit/record";
import { type ReportRow, reportsRepo } from "./repo";

/** A slot sent more than this after its time is marked late (the service was down when it was due). */
export const LATE_AFTER_MS = 5 * 60_000;

export const SEND_JOB = "reports.send";

export function scheduleOf(row: ReportRow): ReportSchedule {
  const time = { hour: row.hour, minute: row.minute, timezone: row.timezone };
  return row.period === "WEEK"
    ? { ...time, period: "WEEK", detail: Number(row.detail) as Weekday }
    : { ...time, period: "MONTH", detail: row.detail as MonthDetail };
}

/**
 * The scheduler's side of delivery: each report's due slot recorded once as a delivery keyed (report,
 * slot), and the send job enqueued for it (sending.ts does the rest).
 */
export function schedulingSteps(ctx: AppContext, repo: ReturnType<typeof reportsRepo>) {
  const enqueueSend = (delivery: ReportDeliveriesTable) =>
    ctx.jobs.enqueue(SEND_JOB, { companyId: delivery.company_id, deliveryId: delivery.id });

  async function claim(row: ReportRow, slot: string, scheduledFor: Date, manual: boolean, late: boolean) {
    const pending = pendingDelivery(row, slot, scheduledFor, manual, late, ctx.clock.now());
    const { row: delivery, created } = await repo.claimDelivery(pending);
    // Enqueued again even when the row existed: the job key makes it a no-op unless the earlier
    // enqueue was lost (a crash between the insert and the enqueue).
    if (delivery.state === "pending") await enqueueSend(delivery);
    return { delivery, created };
  }

  /**
   * "Send now" (docs/product.md §3 reports page): a manual delivery of the report as if due now. The
   * delivery and its "sent by hand" audit row (`record`) commit together; the queue (Redis, when
   * distributed) cannot join that transaction, so it is asked after the commit, and when it refuses
   * nothing would ever send the delivery: it and its row are taken back together and the request fails
   * (docs/decisions.md, "Sent by hand: the delivery and its audit row in one transaction").
   */
  async function sendByHand(row: ReportRow, record: (trx: Db) => Promise<RecordedAudit>): Promise<void> {
    const now = ctx.clock.now();
    const pending = pendingDelivery(row, `manual:${now.toISOString()}`, now, true, false, now);
    const { delivery, recorded } = await ctx.db.transaction().execute(async (trx) => {
      const claimed = await reportsRepo(trx).claimDelivery(pending);
      // The same instant's second click holds the first one's delivery: one send, one row.
      return { delivery: claimed.row, recorded: claimed.created ? await record(trx) : null };
    });
    try {
      await enqueueSend(delivery);
    } catch (error) {
      if (recorded) {
        await ctx.db.transaction().execute(async (trx) => {
          await reportsRepo(trx).deleteDelivery(row.company_id, delivery.id);
          await auditLog(ctx).withdraw(trx, recorded);
        });
      }
      throw error;
    }
  }

  /** One pass of the scheduler: every report's latest due slot since its last one (or its creation). */
  async function scheduleDue(): Promise<number> {
    const now = ctx.clock.now();
    let claimed = 0;
    for (const row of await repo.listAllForScheduling()) {
      const since = (await repo.latestScheduledSlot(row.company_id, row.id)) ?? row.created_at;
      const due = dueRuns(scheduleOf(row), new Date(since), now);
      const slot = due.at(-1);
      if (!slot) continue;
      const late = now.getTime() - slot.getTime() > LATE_AFTER_MS;
      if (late && due.length > 1) {
        ctx.logger.warn(
          { report: row.id, missed: due.length },
          "report slots missed while down: sending the latest once",
        );
      }
      const { created } = await claim(row, slot.toISOString(), slot, false, late);
      if (created) claimed += 1;
    }
    return claimed;
  }

  return { claim, scheduleDue, sendByHand };
}

/** A pending delivery of `row`'s `slot` (claimed once: a slot already held answers its row). */
function pendingDelivery(
  row: ReportRow,
  slot: string,
  scheduledFor: Date,
  manual: boolean,
  late: boolean,
  now: Date,
): ReportDeliveriesTable {
  return {
    id: newId(),
    company_id: row.company_id,
    report_id: row.id,
    slot,
    scheduled_for: scheduledFor.toISOString(),
    late: late ? 1 : 0,
    manual: manual ? 1 : 0,
    state: "pending",
    attempts: 0,
    error: null,
    finished_at: null,
    created_at: now.toISOString(),
  };
}
