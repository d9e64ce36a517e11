import {
  copyUrlParams,
  type DayRange,
  describeSchedule,
  dueRuns,
  type MonthDetail,
  REPORT_DATE_RANGE_LABELS,
  type ReportDateRange,
  type ReportSchedule,
  rangeText,
  reportRange,
  type Weekday,
} from "@app/core";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { ReportDeliveriesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { JobDefinition } from "../../infra/jobs";
import type { MailAttachment, MailDkim } from "../../infra/mail";
import { newId } from "../../infra/security";
import type { CompaniesService } from "../companies/service";
import type { DashboardsService } from "../dashboards/service";
import { BlankRenderError, RenderTimeoutError } from "../exports/chromium-renderer";
import type { DashboardRenderer } from "../exports/renderer";
import { pdfFilename } from "../exports/service";
import type { InsightsService } from "../insights/service";
import type { AnyJobDefinition } from "../registry";
import type { Actor } from "../users/service";
import { type ReportRow, reportsRepo } from "./repo";
import { reportMail } from "./report-mail";

/** How long reports due together share one render of the same dashboard, period and zone. */
const RENDER_SHARE_MS = 10 * 60_000;
/** A slot sent more than this after its time is marked late (the service was down when it was due). */
export const LATE_AFTER_MS = 5 * 60_000;
/** Attempts of one delivery in all; the backoff doubles from the base (2 s, 4 s…). */
export const DELIVERY_ATTEMPTS = 4;
const DELIVERY_BACKOFF_MS = 2_000;

export const SEND_JOB = "reports.send";
export const SCHEDULE_JOB = "reports.schedule";

/** Who a company's reports come from: its name always; its own address and DKIM once verified. */
export type SenderLookup = (companyId: string) => Promise<{ fromName: string; fromAddress?: string; dkim?: MailDkim }>;

const ZSendPayload = z.object({ companyId: z.string(), deliveryId: z.string() });
type TSendPayload = z.infer<typeof ZSendPayload>;

export function scheduleOf(row: ReportRow): ReportSchedule {
  const time = { hour: row.hour, minute: row.minute, timezone: row.timezone };
  return row.period === "WEEK"
    ? { ...time, period: "WEEK", detail: Number(row.detail) as Weekday }
    : { ...time, period: "MONTH", detail: row.detail as MonthDetail };
}

/** Why a delivery failed, in words the agency can act on (shown as the report's last result). */
export function failureReason(error: unknown): string {
  if (error instanceof BlankRenderError) return "The dashboard showed no data when the report was made.";
  if (error instanceof RenderTimeoutError) return "The dashboard did not finish loading in time.";
  if (error instanceof AppError && error.status === 404) return "The dashboard of this report no longer exists.";
  const smtp = error as { responseCode?: number; response?: string; code?: string };
  if (typeof smtp.responseCode === "number") {
    return `The mail server refused the message (${smtp.responseCode}${smtp.response ? `: ${smtp.response.slice(0, 160)}` : ""}).`;
  }
  if (smtp.code === "ECONNECTION" || smtp.code === "ESOCKET" || smtp.code === "ECONNREFUSED") {
    return "The mail server could not be reached.";
  }
  return "The report could not be made.";
}

/** The goals' line and insights summary of a report's e-mail; a failure to read them never holds the report back. */
async function reportInsights(
  ctx: AppContext,
  insights: (() => Pick<InsightsService, "reportSummary">) | undefined,
  report: { company_id: string; dashboard_id: string; timezone: string },
  range: DayRange,
): Promise<{ goals: string | null; insights: string[] }> {
  if (!insights) return { goals: null, insights: [] };
  try {
    return await insights().reportSummary(report.company_id, report.dashboard_id, range, report.timezone);
  } catch (error) {
    ctx.logger.warn({ err: error, dashboard: report.dashboard_id }, "report insights failed: sent without them");
    return { goals: null, insights: [] };
  }
}

/**
 * Sending automatic reports (docs/product.md §3, §5): a scheduler job finds each report's due slot and
 * records it as a delivery keyed (report, slot), then a send job per delivery renders the dashboard for
 * the report's period in its zone, composes the e-mail and hands it to the mailer. The key makes a slot
 * go out once whatever restarts or how many workers look; a slot missed while the service was down goes
 * out once on the next run, marked late; failures retry with backoff and end as a visible reason.
 */
export function deliveryService(
  ctx: AppContext,
  deps: {
    companies: () => CompaniesService;
    dashboards: () => DashboardsService;
    renderer: () => DashboardRenderer;
    /** The dashboard's goals' line and insights summary for the e-mail (absent: none). */
    insights?: () => Pick<InsightsService, "reportSummary">;
    sender?: SenderLookup;
  },
) {
  const repo = reportsRepo(ctx.db);
  /**
   * Renders shared by reports of the same dashboard, period and zone in this process: a dashboard sent
   * to many recipient lists at the same time is rendered once. Promises, so concurrent sends wait for
   * the same render; a failed one is forgotten at once so the retry renders again.
   */
  const renders = new LRUCache<string, Promise<{ pdf: Buffer | null; preview: Buffer | null }>>({
    max: 40,
    ttl: RENDER_SHARE_MS,
  });
  function sharedRender(key: string, make: () => Promise<{ pdf: Buffer | null; preview: Buffer | null }>) {
    let render = renders.get(key);
    if (!render) {
      render = make();
      renders.set(key, render);
      render.catch(() => renders.delete(key));
    }
    return render;
  }
  // A queue of one: each send waits for the previous one to be recorded (or to fail).
  let sending: Promise<unknown> = Promise.resolve();
  function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = sending.then(work, work);
    sending = run.catch(() => {});
    return run;
  }
  const sender: SenderLookup =
    deps.sender ?? (async (companyId) => ({ fromName: (await deps.companies().load(companyId)).name }));

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

  async function send(payload: TSendPayload, attempt: number) {
    const delivery = await repo.findDelivery(payload.companyId, payload.deliveryId);
    if (delivery?.state !== "pending") return;
    const finish = (patch: Partial<ReportDeliveriesTable>) =>
      repo.updateDelivery(delivery.company_id, delivery.id, { ...patch, finished_at: ctx.clock.now().toISOString() });
    const report = await repo.find(delivery.company_id, delivery.report_id);
    if (!report)
      return finish({ state: "failed", error: "The report was deleted before it was sent.", attempts: attempt });
    await repo.updateDelivery(delivery.company_id, delivery.id, { attempts: attempt });
    try {
      const sentAt = new Date(delivery.scheduled_for);
      const range = reportRange(report.date_range as ReportDateRange, sentAt, report.timezone);
      const target = await deps.dashboards().exportTargetById(report.company_id, report.dashboard_id);
      const request = {
        companyId: report.company_id,
        dashboardId: report.dashboard_id,
        timezone: report.timezone,
        dateRange: {
          rangeType: "custom" as const,
          ...range,
          compareStartDate: null,
          compareEndDate: null,
          customCompare: false,
        },
      };
      const attachments: MailAttachment[] = [];
      const previewCid = report.with_preview === 1 ? `preview-${delivery.id}@reportz` : null;
      const filename = report.with_pdf === 1 ? pdfFilename(target.name, range) : null;
      const renderKey = JSON.stringify([
        target.dashboardId,
        target.version,
        report.timezone,
        range,
        Boolean(previewCid),
        Boolean(filename),
      ]);
      const rendered =
        previewCid || filename
          ? await sharedRender(renderKey, async () => {
              const renderer = deps.renderer();
              if (previewCid && filename) return renderer.both(request);
              if (filename) return { pdf: await renderer.pdf(request), preview: null };
              return { pdf: null, preview: await renderer.preview(request) };
            })
          : { pdf: null, preview: null };
      if (previewCid && rendered.preview) {
        attachments.push({
          filename: "preview.png",
          content: rendered.preview,
          contentType: "image/png",
          cid: previewCid,
        });
      }
      if (filename && rendered.pdf)
        attachments.push({ filename, content: rendered.pdf, contentType: "application/pdf" });
      const { goals, insights } = await reportInsights(ctx, deps.insights, report, range);
      const from = await sender(report.company_id);
      const link = new URL(`${ctx.config.appUrl}/dashboards/${encodeURIComponent(target.permalink)}`);
      for (const [key, value] of Object.entries(copyUrlParams(range))) if (value) link.searchParams.set(key, value);
      const mail = reportMail({
        companyName: from.fromName,
        dashboardName: target.name,
        periodText: rangeText(range.startDate, range.endDate),
        rangeLabel: REPORT_DATE_RANGE_LABELS[report.date_range as ReportDateRange],
        scheduleText: describeSchedule(scheduleOf(report)),
        dashboardUrl: link.toString(),
        previewCid,
        pdfFilename: filename,
        late: delivery.late === 1,
        goals,
        insights,
      });
      // One message at a time per process from the mail server's "250" to our `sent` row: renders run
      // side by side, but a crash can only ever catch one message in that window (see docs/decisions.md).
      await oneAtATime(async () => {
        await ctx.mailer.send({
          to: report.recipients,
          ...mail,
          fromName: from.fromName,
          ...(from.fromAddress && { fromAddress: from.fromAddress }),
          ...(from.dkim && { dkim: from.dkim }),
          attachments,
          messageId: `<report-${report.id}-${delivery.slot.replace(/[^A-Za-z0-9.-]/g, "")}@${new URL(ctx.config.appUrl).hostname}>`,
        });
        await finish({ state: "sent", error: null });
      });
    } catch (error) {
      ctx.logger.warn({ err: error, delivery: delivery.id, attempt }, "report delivery failed");
      if (attempt >= DELIVERY_ATTEMPTS) {
        await finish({ state: "failed", error: failureReason(error) });
        return;
      }
      throw error;
    }
  }

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
    retry: { attempts: DELIVERY_ATTEMPTS, backoffMs: DELIVERY_BACKOFF_MS },
    timeoutMs: ctx.config.render.widgetTimeoutMs * 2 + 120_000,
    handle: (payload, context) => send(payload, context.attempt),
  };
  const jobs: AnyJobDefinition[] = [scheduleJob, sendJob];

  return {
    jobs,
    scheduleDue,
    /** "Send now" (docs/product.md §3 reports page): a manual delivery of the report as if due now. */
    async sendNow(actor: Actor, row: ReportRow): Promise<void> {
      const now = ctx.clock.now();
      await claim({ ...row, company_id: actor.companyId }, `manual:${now.toISOString()}`, now, true, false);
    },
    /** The latest finished delivery of each report, for the API's `last_result`. */
    lastResults: (companyId: string, reportIds: string[]) => repo.lastResults(companyId, reportIds),
  };
}

export type DeliveryService = ReturnType<typeof deliveryService>;
