import { dueRuns, type MonthDetail, type ReportSchedule, type Weekday } from "@app/core";
import type { AppContext } from "../../context";
import { newId } from "../../infra/security";
import type { ReportRow, reportsRepo } from "./repo";

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
  async function claim(row: ReportRow, slot: string, scheduledFor: Date, manual: boolean, late: boolean) {
    const now = ctx.clock.now().toISOString();
    const { row: delivery, created } = await repo.claimDelivery({
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
      created_at: now,
    });
    // Enqueued again even when the row existed: the job key makes it a no-op unless the earlier
    // enqueue was lost (a crash between the insert and the enqueue).
    if (delivery.state === "pending") {
      await ctx.jobs.enqueue(SEND_JOB, { companyId: row.company_id, deliveryId: delivery.id });
    }
    return { delivery, created };
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

  return { claim, scheduleDue };
}
