import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type DashboardListParams, fetchDashboards, fetchTemplates } from "./api";

export const dashboardListKeys = {
  all: ["dashboards", "list"] as const,
  page: (params: DashboardListParams) => [...dashboardListKeys.all, params] as const,
  templates: ["configs", "templates"] as const,
};

/** One page of the dashboards list; the previous page stays on screen while the next one loads. */
export function dashboardListQuery(params: DashboardListParams) {
  return queryOptions({
    queryKey: dashboardListKeys.page(params),
    queryFn: () => fetchDashboards(params),
    placeholderData: keepPreviousData,
  });
}

/** Dashboard templates; the same for every company, so kept for the whole visit. */
export function templatesQuery() {
  return queryOptions({
    queryKey: dashboardListKeys.templates,
    queryFn: fetchTemplates,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
