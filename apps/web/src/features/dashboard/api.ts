import {
  HEADERS,
  RELOAD_STATUSES,
  type TDashboard,
  type TDashboardStyles,
  type TDashboardUpdateResponse,
} from "@app/core";
import { ApiError, api } from "../../lib/api";
import { getIdentification } from "../../lib/identification";

export interface LoadedDashboard {
  dashboard: TDashboard;
  /** docs/product.md §4: the server marks viewers who are not members with `x-public`; they only read. */
  isPublic: boolean;
}

function requestHeaders(extra: Record<string, string> = {}): Headers {
  const headers = new Headers({ Accept: "application/json", ...extra });
  headers.set(HEADERS.requestedWith, "XMLHttpRequest");
  headers.set(HEADERS.identification, getIdentification());
  return headers;
}

/**
 * GET /api/dashboards/{permalink}. This one call reads a response header (`x-public`), which the
 * shared `api()` wrapper does not expose, so it sends the same headers and follows the same reload
 * rule (docs/product.md §8) itself. 422 means a password is needed (or was wrong); 404 not found.
 */
export async function fetchDashboard(
  permalink: string,
  timezone: string,
  password: string | null,
  signal?: AbortSignal,
): Promise<LoadedDashboard> {
  const query = new URLSearchParams({ timezone });
  const headers = requestHeaders(password ? { [HEADERS.authorization]: password } : {});
  const response = await fetch(`/api/dashboards/${encodeURIComponent(permalink)}?${query}`, {
    headers,
    credentials: "same-origin",
    signal,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text for the error.
  }
  if (!response.ok) {
    if (RELOAD_STATUSES.includes(response.status)) window.location.reload();
    throw new ApiError(response.status, body);
  }
  return {
    dashboard: (body as { data: TDashboard }).data,
    isPublic: response.headers.get(HEADERS.public) === "1",
  };
}

/** PUT /api/dashboards/{id} {type}: takes or releases the edit lock (409 when someone else holds it). */
export async function setDashboardLock(id: string, type: "lock" | "unlock"): Promise<string | null> {
  const result = await api<TDashboardUpdateResponse>(`/api/dashboards/${encodeURIComponent(id)}`, {
    method: "PUT",
    json: { type },
  });
  return result.data.locked ?? null;
}

/**
 * Releases the lock while the page goes away (pagehide): a keepalive request outlives the page,
 * which `api()` cannot promise, so it is sent directly with the same headers.
 */
export function releaseLockOnExit(id: string): void {
  try {
    void fetch(`/api/dashboards/${encodeURIComponent(id)}`, {
      method: "PUT",
      keepalive: true,
      credentials: "same-origin",
      headers: requestHeaders({ "Content-Type": "application/json" }),
      body: JSON.stringify({ type: "unlock" }),
    }).catch(() => {});
  } catch {
    // The page is closing: nothing left to tell the user.
  }
}

/** POST /api/dashboards/{id}: the multipart save of docs/product.md §7; answers the stored styles. */
export async function saveDashboard(id: string, form: FormData, signal: AbortSignal): Promise<TDashboardStyles> {
  const result = await api<{ data: { styles: TDashboardStyles } }>(`/api/dashboards/${encodeURIComponent(id)}`, {
    method: "POST",
    form,
    signal,
  });
  return result.data.styles;
}
