import type { TAutomaticReport } from "@app/core";
import { call } from "../../lib/api";

/** Every automatic report of the company (docs/product.md §7). */
export async function fetchAutomaticReports(): Promise<TAutomaticReport[]> {
  return (await call("automaticReportsList")).data;
}

export async function deleteAutomaticReport(id: string): Promise<void> {
  await call("automaticReportDelete", { params: { id } });
}
