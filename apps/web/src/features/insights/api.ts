import { HEADERS, type TDashboardInsights, type TDashboardWidgetDataRequest } from "@app/core";
import { call } from "../../lib/api";

/**
 * POST /api/dashboards/{permalink}/insights: each widget's insights line and the ranked summary, for
 * members and public viewers alike (x-authorization carries a protected dashboard's password).
 */
export async function fetchDashboardInsights(
  permalink: string,
  body: TDashboardWidgetDataRequest,
  password: string | null,
  signal?: AbortSignal,
): Promise<TDashboardInsights> {
  const headers = password ? { [HEADERS.authorization]: password } : undefined;
  return (await call("dashboardInsights", { params: { permalink }, body }, { signal, headers })).data;
}
