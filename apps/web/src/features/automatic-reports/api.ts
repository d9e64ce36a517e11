import type { TAutomaticReport } from "@app/core";
import { call } from "../../lib/api";
import { type ReportFormValues, reportPayload } from "./form-rules";

/** Every automatic report of the company (docs/product.md §7). */
export async function fetchAutomaticReports(): Promise<TAutomaticReport[]> {
  return (await call("automaticReportsList")).data;
}

export async function deleteAutomaticReport(id: string): Promise<void> {
  await call("automaticReportDelete", { params: { id } });
}

export async function saveAutomaticReport(input: {
  id: string | null;
  dashboardId: string;
  values: ReportFormValues;
}): Promise<TAutomaticReport> {
  // The contract's input type is what zod parses *to*; the form sends what it parses *from* (text fields).
  const body = reportPayload(input.dashboardId, input.values) as never;
  return input.id
    ? (await call("automaticReportUpdate", { params: { id: input.id }, body })).data
    : (await call("automaticReportCreate", { body })).data;
}

/** "Send now": the server delivers it by a job; the answer is the report as it stands. */
export async function sendAutomaticReport(id: string): Promise<TAutomaticReport> {
  return (await call("automaticReportSend", { params: { id } })).data;
}
