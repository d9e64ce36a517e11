import {
  MAX_REPORTS_PER_DASHBOARD,
  REPORT_DEFAULTS,
  type ReportDateRange,
  type ReportSchedule,
  ZAutomaticReportInput,
} from "@app/core";

/** The report form's values as the fields hold them (text inputs are text). */
export interface ReportFormValues {
  recipients: string;
  period: "MONTH" | "WEEK";
  /** MONTH: FIRST_DAY | LAST_DAY | FIRST_WORK_DAY; WEEK: the weekday's digit "0" (Sunday) to "6". */
  detail: string;
  hour: string;
  minute: string;
  timezone: string;
  date_range: ReportDateRange;
  with_preview: boolean;
  with_pdf: boolean;
}

/** docs/product.md §9: 08:00, MONTH, FIRST_DAY, LAST_MONTH, preview on, PDF off, the user's own zone. */
export function defaultReportValues(timezone: string): ReportFormValues {
  return {
    recipients: "",
    period: REPORT_DEFAULTS.period,
    detail: REPORT_DEFAULTS.detail,
    hour: String(REPORT_DEFAULTS.hour),
    minute: String(REPORT_DEFAULTS.minute).padStart(2, "0"),
    timezone,
    date_range: REPORT_DEFAULTS.date_range,
    with_preview: REPORT_DEFAULTS.with_preview,
    with_pdf: REPORT_DEFAULTS.with_pdf,
  };
}

/** The payload POST/PUT send: the same contract the server checks. */
export function reportPayload(dashboardId: string, values: ReportFormValues) {
  return {
    dashboard_id: dashboardId,
    recipients: values.recipients,
    period: values.period,
    detail: values.period === "WEEK" && /^\d$/.test(values.detail) ? Number(values.detail) : values.detail,
    hour: values.hour,
    minute: values.minute,
    timezone: values.timezone,
    date_range: values.date_range,
    with_preview: values.with_preview,
    with_pdf: values.with_pdf,
  };
}

/**
 * Every field's first message, checked with the contract the server uses (packages/core
 * automatic-reports.ts), so the form and a 422 say the same words.
 */
export function reportFormErrors(dashboardId: string, values: ReportFormValues): Record<string, string> {
  const result = ZAutomaticReportInput.safeParse(reportPayload(dashboardId, values));
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "general");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The schedule of valid values, for "in words" and "next run" while the user edits; null when invalid. */
export function scheduleFromValues(values: ReportFormValues): ReportSchedule | null {
  const hour = Number(values.hour);
  const minute = Number(values.minute);
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || !Number.isInteger(minute) || minute < 0 || minute > 59) {
    return null;
  }
  const time = { hour, minute, timezone: values.timezone };
  if (values.period === "WEEK") {
    const day = Number(values.detail);
    return Number.isInteger(day) && day >= 0 && day <= 6
      ? { ...time, period: "WEEK", detail: day as 0 | 1 | 2 | 3 | 4 | 5 | 6 }
      : null;
  }
  return ["FIRST_DAY", "LAST_DAY", "FIRST_WORK_DAY"].includes(values.detail)
    ? { ...time, period: "MONTH", detail: values.detail as "FIRST_DAY" | "LAST_DAY" | "FIRST_WORK_DAY" }
    : null;
}

/**
 * docs/product.md §5: the schedule button is enabled only with recipients, a valid time and a free place
 * among the dashboard's 5 (an edit keeps its own place).
 */
export function canSchedule(values: ReportFormValues, reportsOnDashboard: number, editing: boolean): boolean {
  if (values.recipients.trim() === "") return false;
  if (scheduleFromValues(values) === null) return false;
  return editing || reportsOnDashboard < MAX_REPORTS_PER_DASHBOARD;
}
