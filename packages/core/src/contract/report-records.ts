import { z } from "zod";
import { MAX_REPORTS_PER_DASHBOARD, MONTH_DETAILS, REPORT_DATE_RANGES } from "../dates/report-schedule";
import { dataEnvelope } from "./common";

/**
 * Refusals of the automatic-report rules that are not about one field's shape (docs/product.md §5, §8).
 * The limit's wording is the spec's own; the others are ours, since the spec names the rule but no text.
 */
export const AUTOMATIC_REPORT_REFUSALS = {
  perDashboardLimit: `You can only set-up ${MAX_REPORTS_PER_DASHBOARD} automatic reports per dashboard. Remove one to continue.`,
  notAllowed: "Your subscription does not include automatic reports. Subscribe to schedule reports again.",
  dashboardMissing: "The selected dashboard does not exist.",
  /** The PDF export tooltip of docs/product.md §5, given when a report asks for the PDF of such a dashboard. */
  pdfAboveWidgetLimit: (max: number) => `PDF export is disabled for dashboards with more than ${max} widgets.`,
} as const;

const base = {
  id: z.string(),
  dashboard_id: z.string(),
  /** The dashboard it sends, for lists that show reports of several dashboards. */
  dashboard: z.object({
    id: z.string(),
    name: z.string(),
    permalink: z.string(),
    /** Its widgets, for the form's PDF rule (docs/product.md §5: no PDF above `maxPdfWidgets`). */
    widget_count: z.number().int().min(0),
  }),
  /** Comma-separated addresses ('a@x.com, b@y.com'), at most 5. */
  recipients: z.string(),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
  /** IANA zone the hour and minute are read in. */
  timezone: z.string(),
  date_range: z.enum(REPORT_DATE_RANGES),
  with_pdf: z.boolean(),
  with_preview: z.boolean(),
  /** The next time it is due (ISO instant), from the stored schedule. */
  next_run_at: z.string(),
  /** The latest delivery (scheduled or sent by hand), or null before the first one. */
  last_result: z
    .object({
      status: z.enum(["sent", "failed"]),
      /** When it was sent or finally failed (ISO instant). */
      at: z.string(),
      /** The slot it was due for (ISO instant); a manual send has its own request time. */
      scheduled_for: z.string(),
      /** Sent after its slot because the service was down at the time (docs/product.md §3). */
      late: z.boolean(),
      manual: z.boolean(),
      /** Why it failed, in words a user can act on; null when sent. */
      error: z.string().nullable(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

/**
 * An automatic report as the API answers it (docs/product.md §3 field names). `detail` follows `period`:
 * a day of the month for MONTH, a weekday 0 (Sunday) to 6 for WEEK, so the schedule helpers of core
 * take a report as it is.
 */
export const ZAutomaticReport = z.discriminatedUnion("period", [
  z.object({ ...base, period: z.literal("MONTH"), detail: z.enum(MONTH_DETAILS) }),
  z.object({ ...base, period: z.literal("WEEK"), detail: z.literal([0, 1, 2, 3, 4, 5, 6]) }),
]);
export type TAutomaticReport = z.infer<typeof ZAutomaticReport>;

/** GET /api/automatic-reports: every report of the company, by dashboard name then creation. */
export const ZAutomaticReportListResponse = dataEnvelope(z.array(ZAutomaticReport));
/** POST /api/automatic-reports and PUT /api/automatic-reports/{id}. */
export const ZAutomaticReportResponse = dataEnvelope(ZAutomaticReport);
