import { AUTOMATIC_REPORT_REFUSALS, PDF_MESSAGES, type TPdfQuery } from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { JobDefinition } from "../../infra/jobs";
import { nowIso, sha256 } from "../../infra/security";
import type { DashboardsService } from "../dashboards/service";
import type { Actor } from "../users/service";
import { BlankRenderError } from "./chromium-renderer";
import type { DashboardRenderer, RenderRequest } from "./renderer";
import { exportsRepo } from "./repo";

/** Identical requests within this window share one PDF (and a poll finds it); later ones make a new one. */
export const PDF_SHARE_WINDOW_MS = 10 * 60_000;
/** A finished export's file is removed after this long (the client downloads it right away). */
export const PDF_KEEP_MS = 60 * 60_000;
/** Our own files, not uploads: a long dashboard with images may pass the 5 MB upload limit. */
const MAX_PDF_BYTES = 50 * 1024 * 1024;

export const PDF_JOB = "exports.pdf";

const ZPdfJob = z.object({
  key: z.string(),
  request: z.object({
    companyId: z.string(),
    dashboardId: z.string(),
    timezone: z.string(),
    dateRange: z
      .object({
        rangeType: z.string(),
        startDate: z.string().nullable(),
        endDate: z.string().nullable(),
        compareStartDate: z.string().nullable(),
        compareEndDate: z.string().nullable(),
        customCompare: z.boolean(),
      })
      .nullable(),
    paper: z.object({ format: z.enum(["A4", "Letter"]), landscape: z.boolean() }),
    realtime: z.boolean(),
  }),
});
type TPdfJob = z.infer<typeof ZPdfJob>;

export type PdfAnswer =
  | { kind: "pending"; check: string; polled: boolean }
  | { kind: "file"; bytes: Buffer; filename: string };

/** "Website Overview – 2026-10-01 to 2026-10-31.pdf", safe as a download name. */
export function pdfFilename(name: string, range: { startDate: string; endDate: string } | null): string {
  const base = name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, " ").trim() || "Dashboard";
  const period = range ? ` ${range.startDate} to ${range.endDate}` : "";
  return `${base.slice(0, 120)}${period}.pdf`;
}

export interface ViewerAccess {
  viewer: Actor | null;
  password: string | null;
  clientAddress: string;
  embedToken: string | null;
}

/**
 * PDF export (docs/product.md §4, §7): GET …/pdf answers 202 with a check value while the PDF is made
 * by a job (so the distributed mode renders on workers), 304 while the client polls too early, then the
 * file. The key is the request itself (dashboard as saved, period, zone, paper, time window), so
 * identical requests share one render, whichever process they reach.
 */
export function exportsService(ctx: AppContext, dashboards: DashboardsService, renderer: DashboardRenderer) {
  const repo = exportsRepo(ctx.db);

  async function request(access: ViewerAccess, permalink: string, query: TPdfQuery, realtime: boolean) {
    const target = await dashboards.exportTarget(
      access.viewer,
      permalink,
      access.password,
      access.clientAddress,
      access.embedToken,
    );
    if (target.widgetCount > ctx.config.maxPdfWidgets) {
      throw AppError.validation({ pdf: [AUTOMATIC_REPORT_REFUSALS.pdfAboveWidgetLimit(ctx.config.maxPdfWidgets)] });
    }
    if (target.widgetCount === 0) throw AppError.validation({ pdf: [PDF_MESSAGES.empty] });
    const range = query.date_range ?? null;
    const timezone = query.timezone || "UTC";
    const paper = { format: query.format, landscape: query.orientation === "landscape" };
    const window = Math.floor(ctx.clock.now().getTime() / PDF_SHARE_WINDOW_MS);
    const key = sha256(JSON.stringify([target.dashboardId, target.version, timezone, range, paper, realtime, window]));
    const existing = await repo.find(target.companyId, key);
    if (existing?.state === "ready" && existing.file) {
      const bytes = await ctx.storage.read(existing.file);
      if (bytes) return { kind: "file", bytes, filename: existing.filename } satisfies PdfAnswer;
    }
    if (existing?.state === "failed") {
      // Said once to the client that asked; the next click starts afresh.
      await repo.remove(target.companyId, key);
      throw new AppError("unavailable", existing.error ?? PDF_MESSAGES.failed);
    }
    if (!existing) {
      const inserted = await repo.insertPending({
        key,
        company_id: target.companyId,
        dashboard_id: target.dashboardId,
        filename: pdfFilename(target.name, range),
        created_at: nowIso(),
      });
      if (inserted) {
        const job: TPdfJob = {
          key,
          request: {
            companyId: target.companyId,
            dashboardId: target.dashboardId,
            timezone,
            dateRange: range
              ? {
                  rangeType: "custom",
                  startDate: range.startDate,
                  endDate: range.endDate,
                  compareStartDate: range.compareStartDate ?? null,
                  compareEndDate: range.compareEndDate ?? null,
                  customCompare: Boolean(range.compareStartDate && range.compareEndDate),
                }
              : null,
            paper,
            realtime,
          },
        };
        await ctx.jobs.enqueue(PDF_JOB, job, { key: `pdf:${key}` });
      }
    }
    return { kind: "pending", check: key, polled: query.check === key } satisfies PdfAnswer;
  }

  /**
   * The job: renders, stores, records. A blank or failed render is retried once; after that the export
   * is failed with a message the client shows (never a blank file with a green status).
   */
  const pdfJob: JobDefinition<TPdfJob> = {
    name: PDF_JOB,
    payload: ZPdfJob,
    key: (payload) => `pdf:${payload.key}`,
    retry: { attempts: 2, backoffMs: 500 },
    timeoutMs: ctx.config.render.widgetTimeoutMs + 90_000,
    async handle(payload, { attempt }) {
      const { key, request: job } = payload;
      const existing = await repo.find(job.companyId, key);
      if (existing && existing.state !== "pending") return;
      try {
        const bytes = await renderer.pdf(job as RenderRequest);
        const file = await ctx.storage.put(job.companyId, "pdf", bytes, MAX_PDF_BYTES);
        await repo.finish(job.companyId, key, { state: "ready", file }, nowIso());
      } catch (error) {
        ctx.logger.warn({ err: error, key, attempt }, "PDF render failed");
        if (attempt >= 2) {
          const message =
            error instanceof BlankRenderError && /no widgets/.test(error.message)
              ? PDF_MESSAGES.empty
              : PDF_MESSAGES.failed;
          await repo.finish(job.companyId, key, { state: "failed", error: message }, nowIso());
          return;
        }
        throw error;
      }
    },
  };

  /** Removes finished exports (rows and files) older than PDF_KEEP_MS. */
  const cleanupJob: JobDefinition<Record<string, never>> = {
    name: "exports.cleanup",
    payload: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
    schedule: { everyMs: 15 * 60_000 },
    async handle() {
      const before = new Date(ctx.clock.now().getTime() - PDF_KEEP_MS).toISOString();
      for (const row of await repo.listFinishedBefore(before)) {
        if (row.file) await ctx.storage.remove(row.company_id, row.file);
        await repo.remove(row.company_id, row.key);
      }
    },
  };

  return { request, jobs: [pdfJob, cleanupJob], renderer };
}

export type ExportsService = ReturnType<typeof exportsService>;
