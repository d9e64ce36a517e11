import { ROUTE_LINES, routePath, splitRouteLine, type TAuditLogResponse } from "@app/core";
import { ApiError, apiHeaders, call } from "../../lib/api";

/** The page's filters as the query sends them (empty ones left out). */
export interface AuditFilters {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
  page: number;
}

function queryOf(filters: Partial<AuditFilters>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) if (value) query[key] = String(value);
  return query;
}

/** GET /api/company/audit-log: one page, newest first. */
export async function fetchAuditLog(filters: AuditFilters): Promise<TAuditLogResponse> {
  return call("auditLog", { query: queryOf(filters) as never });
}

/**
 * GET /api/company/audit-log/export with the same filters, saved by the browser as CSV. Not `call`: the
 * answer is a file; the same headers go with it (the API answers only the app's own requests).
 */
export async function downloadAuditCsv(filters: Omit<AuditFilters, "page">): Promise<void> {
  const path = splitRouteLine(ROUTE_LINES.auditLogCsv).path;
  const search = new URLSearchParams(queryOf(filters)).toString();
  const response = await fetch(`${routePath(path, {})}${search ? `?${search}` : ""}`, {
    headers: apiHeaders(),
    credentials: "same-origin",
  });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "audit-log.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
