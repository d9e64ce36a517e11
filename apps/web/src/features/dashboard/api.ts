import {
  HEADERS,
  ROUTE_LINES,
  type RouteInput,
  routePath,
  splitRouteLine,
  type TDashboard,
  type TDashboardStyles,
} from "@app/core";
import { ApiError, apiHeaders, call, callWithHeaders } from "../../lib/api";

export interface LoadedDashboard {
  dashboard: TDashboard;
  /** docs/product.md §4: the server marks viewers who are not members with `x-public`; they only read. */
  isPublic: boolean;
}

/**
 * GET /api/dashboards/{permalink}, reading the `x-public` answer header too. 422 means a password is
 * needed (or was wrong); 404 not found.
 */
export async function fetchDashboard(
  permalink: string,
  timezone: string,
  password: string | null,
  signal?: AbortSignal,
): Promise<LoadedDashboard> {
  const { data, headers } = await callWithHeaders(
    "dashboardShow",
    { params: { permalink }, query: { timezone } },
    { signal, headers: password ? { [HEADERS.authorization]: password } : {} },
  );
  return { dashboard: data.data, isPublic: headers.get(HEADERS.public) === "1" };
}

/** PUT /api/dashboards/{id} {type}: takes or releases the edit lock (409 when someone else holds it). */
export async function setDashboardLock(id: string, type: "lock" | "unlock"): Promise<string | null> {
  return (await call("dashboardUpdate", { params: { id }, body: { type } })).data.locked ?? null;
}

/**
 * Releases the lock while the page goes away (pagehide): a keepalive request outlives the page, and
 * its failure must not reload a page that is closing, so it is sent directly (same route, same headers).
 */
export function releaseLockOnExit(id: string): void {
  const { method, path } = splitRouteLine(ROUTE_LINES.dashboardUpdate);
  const body: RouteInput<"dashboardUpdate">["body"] = { type: "unlock" };
  try {
    void fetch(routePath(path, { id }), {
      method,
      keepalive: true,
      credentials: "same-origin",
      headers: apiHeaders({ "Content-Type": "application/json" }),
      body: JSON.stringify(body),
    }).catch(() => {});
  } catch {
    // The page is closing: nothing left to tell the user.
  }
}

/** POST /api/dashboards/{id}: the multipart save of docs/product.md §7; answers the stored styles. */
export async function saveDashboard(
  id: string,
  form: FormData,
  signal: AbortSignal,
): Promise<{ styles: TDashboardStyles; notices: string[] }> {
  const { styles, notices } = (await call("dashboardSave", { params: { id }, form }, { signal })).data;
  return { styles, notices: notices ?? [] };
}

/** PUT /api/dashboards/{id} {category:'new_password'}: sets, or with "" removes, the dashboard's password. */
export async function setDashboardPassword(id: string, password: string): Promise<boolean> {
  const answer = await call("dashboardUpdate", { params: { id }, body: { category: "new_password", password } });
  return answer.data.passwordProtected ?? password !== "";
}

/** PUT /api/dashboards/{id} {category:'refresh_permalink'}: a new address; the old one and its embed links die. */
export async function refreshDashboardPermalink(id: string): Promise<string> {
  return (
    (await call("dashboardUpdate", { params: { id }, body: { category: "refresh_permalink" } })).data.permalink ?? ""
  );
}

/** POST /api/dashboards/{id}/embed: a signed embed link valid for `days` days. */
export async function createEmbedLink(id: string, days: number): Promise<{ url: string; expiresAt: string }> {
  return (await call("dashboardEmbedCreate", { params: { id }, body: { days } })).data;
}

/** DELETE /api/dashboards/{id}/embed: revokes every embed link made so far. */
export async function revokeEmbedLinks(id: string): Promise<void> {
  await call("dashboardEmbedRevoke", { params: { id } });
}

export interface PdfRequest {
  permalink: string;
  timezone: string;
  range: { startDate: string; endDate: string; compareStartDate: string | null; compareEndDate: string | null };
  /** The realtime view exports through its own path (docs/product.md §7). */
  realtime: boolean;
  /** A public viewer's password for a protected dashboard. */
  password: string | null;
  /** The value a 202 answered; sent back while polling. */
  check?: string;
}

/** One step of GET /api/dashboards/{permalink}/pdf: still being made (202/304) or the file. */
export type PdfStep = { state: "pending"; check: string } | { state: "ready"; file: Blob; filename: string };

/** The download name from Content-Disposition (RFC 5987 `filename*` first). */
function downloadName(header: string | null): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header ?? "");
  if (encoded) return decodeURIComponent(encoded[1]);
  return /filename="([^"]+)"/i.exec(header ?? "")?.[1] ?? "dashboard.pdf";
}

/**
 * Asks for the dashboard's PDF once. Not `call`: the answer is a file, a 202 with a check value or an
 * empty 304, which the JSON client does not read. The same headers go with it (embed token included).
 */
export async function requestDashboardPdf(request: PdfRequest, signal?: AbortSignal): Promise<PdfStep> {
  const line = ROUTE_LINES[request.realtime ? "dashboardRealtimePdf" : "dashboardPdf"];
  const query = new URLSearchParams({ timezone: request.timezone, date_range: JSON.stringify(request.range) });
  if (request.check) query.set("check", request.check);
  const headers = apiHeaders(request.password ? { [HEADERS.authorization]: request.password } : {});
  const path = routePath(splitRouteLine(line).path, { permalink: request.permalink });
  const response = await fetch(`${path}?${query}`, { headers, credentials: "same-origin", signal });
  if (response.status === 304) return { state: "pending", check: request.check ?? "" };
  if (response.status === 202) return { state: "pending", check: ((await response.json()) as { check: string }).check };
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, body);
  }
  return {
    state: "ready",
    file: await response.blob(),
    filename: downloadName(response.headers.get("content-disposition")),
  };
}
