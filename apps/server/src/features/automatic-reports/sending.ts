import { copyUrlParams, type DayRange, type ReportDateRange, reportRange } from "@app/core";
import { translatorFor } from "@app/core/i18n/catalogues";
import { periodText, reportRangeLabel, scheduleText } from "@app/core/i18n/report-text";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { ReportDeliveriesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { MailAttachment, MailDkim } from "../../infra/mail";
import type { CompaniesService } from "../companies/service";
import type { DashboardsService } from "../dashboards/service";
import { BlankRenderError, RenderTimeoutError } from "../exports/chromium-renderer";
import type { DashboardRenderer } from "../exports/renderer";
import { pdfFilename } from "../exports/service";
import type { InsightsService } from "../insights/service";
import type { ReportRow, reportsRepo } from "./repo";
import { reportMail } from "./report-mail";
import { scheduleOf } from "./scheduling";

/** How long reports due together share one render of the same dashboard, period and zone. */
const RENDER_SHARE_MS = 10 * 60_000;
/** Attempts of one delivery in all; the wait between them doubles from REPORT_RETRY_BASE_MS (2 s, 4 s…). */
export const DELIVERY_ATTEMPTS = 4;

/** Who a company's reports come from: its name always; its own address and DKIM once verified. */
export type SenderLookup = (companyId: string) => Promise<{ fromName: string; fromAddress?: string; dkim?: MailDkim }>;

export const ZSendPayload = z.object({ companyId: z.string(), deliveryId: z.string() });
export type TSendPayload = z.infer<typeof ZSendPayload>;

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

/** What delivery asks of other features: the company, the dashboard and its render, the insights, the sender. */
export interface DeliveryDeps {
  companies: () => CompaniesService;
  dashboards: () => DashboardsService;
  renderer: () => DashboardRenderer;
  /** The dashboard's insights summary for the e-mail (absent: none). */
  insights?: () => Pick<InsightsService, "reportSummary">;
  sender?: SenderLookup;
}

/**
 * The send job's work: one delivery rendered for the report's period in its zone (renders shared by
 * reports due together), composed into its e-mail and handed to the mailer, or failed with a reason.
 */
export function sendStep(ctx: AppContext, deps: DeliveryDeps, repo: ReturnType<typeof reportsRepo>) {
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

  /** The goals' line and insights summary of the e-mail; a failure to read them never holds the report back. */
  async function reportInsights(
    companyId: string,
    dashboardId: string,
    range: DayRange,
    timezone: string,
  ): Promise<{ goals: string | null; insights: string[] }> {
    if (!deps.insights) return { goals: null, insights: [] };
    try {
      return await deps.insights().reportSummary(companyId, dashboardId, range, timezone);
    } catch (error) {
      ctx.logger.warn({ err: error, dashboard: dashboardId }, "report insights failed: sent without them");
      return { goals: null, insights: [] };
    }
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
      const { goals, insights } = await reportInsights(report.company_id, report.dashboard_id, range, report.timezone);
      const from = await sender(report.company_id);
      const link = new URL(`${ctx.config.appUrl}/dashboards/${encodeURIComponent(target.permalink)}`);
      for (const [key, value] of Object.entries(copyUrlParams(range))) if (value) link.searchParams.set(key, value);
      const mail = reportMail({
        ...reportWords(report, range, target.language),
        companyName: from.fromName,
        dashboardName: target.name,
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

  return send;
}

/**
 * The period, range and schedule of a report in its dashboard's language, which the client reads the
 * e-mail in (docs/decisions.md, "Report e-mails in the dashboard's language").
 */
function reportWords(report: ReportRow, range: DayRange, language: string) {
  const translator = translatorFor(language);
  return {
    language,
    periodText: periodText(range.startDate, range.endDate, translator),
    rangeLabel: reportRangeLabel(report.date_range as ReportDateRange, translator),
    scheduleText: scheduleText(scheduleOf(report), translator),
  };
}
