import { queryOptions } from "@tanstack/react-query";
import { ApiError } from "../../lib/api";
import { fetchDashboard } from "./api";
import { takeEarlyDashboard } from "./early-fetch";

export { initialRange, widgetRangeOf } from "./range";

export const dashboardKeys = {
  show: (permalink: string, password: string | null) => ["dashboard", permalink, password] as const,
};

/** The dashboard as its viewer may see it; always fresh when the screen opens (another editor may have saved). */
export function dashboardQuery(permalink: string, timezone: string, password: string | null) {
  return queryOptions({
    queryKey: dashboardKeys.show(permalink, password),
    // The request main.tsx started for this very address, else a new one.
    queryFn: ({ signal }) =>
      takeEarlyDashboard(permalink, timezone, password) ?? fetchDashboard(permalink, timezone, password, signal),
    staleTime: 0,
    gcTime: 0,
    retry: (failureCount, error) => failureCount < 2 && !(error instanceof ApiError && error.status < 500),
  });
}
