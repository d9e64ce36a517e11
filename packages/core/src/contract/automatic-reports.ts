import { z } from "zod";
import {
  isMonthDetail,
  isWeekday,
  MAX_REPORT_RECIPIENTS,
  type MonthDetail,
  REPORT_DATE_RANGES,
  REPORT_DEFAULTS,
  REPORT_PERIODS,
  type Weekday,
} from "../dates/report-schedule";
import { normaliseTimeZone } from "../dates/zone";
import { zFormBoolean } from "./common";

/** Messages of the report form (docs/product.md §5: recipients required, max 5; hour 0–23; minute 0–59). */
export const REPORT_MESSAGES = {
  recipientsRequired: "The recipients field is required.",
  recipientsMax: `You can add at most ${MAX_REPORT_RECIPIENTS} recipients.`,
  recipientInvalid: (address: string) => `'${address}' is not a valid email address.`,
  hour: "The hour must be a whole number from 0 to 23.",
  minute: "The minute must be a whole number from 0 to 59.",
  period: "The period must be MONTH or WEEK.",
  monthDetail: "The detail of a monthly report must be FIRST_DAY, LAST_DAY or FIRST_WORK_DAY.",
  weekDetail: "The detail of a weekly report must be a weekday from 0 (Sunday) to 6 (Saturday).",
  dateRange: "The date range must be LAST_7_DAYS, LAST_30_DAYS, LAST_MONTH or LAST_WEEK.",
  timezone: "The timezone must be a time zone name such as Europe/Berlin.",
  dashboard: "The dashboard_id field is required.",
} as const;

const EMAIL = z.email();

/**
 * Recipients arrive as the form's comma-separated text ('a@x.com, b@y.com'), or as a list of addresses
 * or `{email}` objects (docs/product.md §3 describes a comma-separated {email} list). Semicolons and line
 * breaks, which people paste from mail clients, separate too. The same address twice counts once.
 */
export function splitRecipients(value: unknown): string[] {
  const parts: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,;\n]/) : [];
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const part of parts) {
    const raw = typeof part === "object" && part !== null && "email" in part ? part.email : part;
    const address = typeof raw === "string" ? raw.trim() : "";
    if (address === "" || seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    addresses.push(address);
  }
  return addresses;
}

/** The stored and displayed form of a recipient list. */
export function joinRecipients(addresses: readonly string[]): string {
  return addresses.join(", ");
}

export const ZReportRecipients = z
  .union([z.string(), z.array(z.union([z.string(), z.object({ email: z.string() })]))], {
    error: REPORT_MESSAGES.recipientsRequired,
  })
  .transform((value, context) => {
    const addresses = splitRecipients(value);
    if (addresses.length === 0) context.addIssue({ code: "custom", message: REPORT_MESSAGES.recipientsRequired });
    if (addresses.length > MAX_REPORT_RECIPIENTS) {
      context.addIssue({ code: "custom", message: REPORT_MESSAGES.recipientsMax });
    }
    for (const address of addresses) {
      if (!EMAIL.safeParse(address).success) {
        context.addIssue({ code: "custom", message: REPORT_MESSAGES.recipientInvalid(address) });
      }
    }
    return addresses;
  });

/** Form data sends numbers as text; '' stays invalid instead of becoming 0 as z.coerce would make it. */
function wholeNumber(min: number, max: number, message: string) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
}

const ZDetail = z.preprocess(
  (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  // Checked against the period below, where the message can say which kind of detail was expected.
  z.union([z.string(), z.number()], { error: REPORT_MESSAGES.monthDetail }),
);

/**
 * POST /api/automatic-reports (and PUT for an edit): the report payload of docs/product.md §3 with the
 * defaults of §9. `timezone` may be left out: the server fills in the user's own zone.
 */
export const ZAutomaticReportInput = z
  .object({
    dashboard_id: z.union([z.string(), z.number()], { error: REPORT_MESSAGES.dashboard }).transform(String),
    recipients: ZReportRecipients,
    period: z.enum(REPORT_PERIODS, { error: REPORT_MESSAGES.period }).default(REPORT_DEFAULTS.period),
    detail: ZDetail.optional(),
    hour: wholeNumber(0, 23, REPORT_MESSAGES.hour).default(REPORT_DEFAULTS.hour),
    minute: wholeNumber(0, 59, REPORT_MESSAGES.minute).default(REPORT_DEFAULTS.minute),
    timezone: z
      .string({ error: REPORT_MESSAGES.timezone })
      .transform((value, context) => {
        const zone = normaliseTimeZone(value);
        if (!zone) context.addIssue({ code: "custom", message: REPORT_MESSAGES.timezone });
        return zone ?? value;
      })
      .optional(),
    date_range: z.enum(REPORT_DATE_RANGES, { error: REPORT_MESSAGES.dateRange }).default(REPORT_DEFAULTS.date_range),
    with_pdf: zFormBoolean.default(REPORT_DEFAULTS.with_pdf),
    with_preview: zFormBoolean.default(REPORT_DEFAULTS.with_preview),
  })
  .superRefine(
    (report, context) => {
      if (typeof report.dashboard_id === "string" && report.dashboard_id.trim() === "") {
        context.addIssue({ code: "custom", path: ["dashboard_id"], message: REPORT_MESSAGES.dashboard });
      }
      // A monthly report without a detail takes the default of docs/product.md §9; a weekly one has no default day.
      if (report.period === "MONTH" && report.detail !== undefined && !isMonthDetail(report.detail)) {
        context.addIssue({ code: "custom", path: ["detail"], message: REPORT_MESSAGES.monthDetail });
      }
      if (report.period === "WEEK" && !isWeekday(report.detail)) {
        context.addIssue({ code: "custom", path: ["detail"], message: REPORT_MESSAGES.weekDetail });
      }
    },
    // Runs even when other fields failed, so the form shows every message at once; it reads only
    // fields it checks the type of.
    { when: () => true },
  )
  .transform(({ period, detail, ...rest }) =>
    // The refinement above guarantees these narrowings; the union makes `detail` follow `period` in types.
    period === "WEEK"
      ? { ...rest, period, detail: detail as Weekday }
      : { ...rest, period, detail: (detail ?? REPORT_DEFAULTS.detail) as MonthDetail },
  );
export type TAutomaticReportInput = z.infer<typeof ZAutomaticReportInput>;
