import {
  type DashboardDateRange,
  isDefaultCompare,
  type ParamSource,
  rangeFromUrlParams,
  type TDashboard,
} from "@app/core";
import { queryOptions } from "@tanstack/react-query";
import { ApiError } from "../../lib/api";
import type { DateRangeValue } from "../../ui/date-range";
import { fetchDashboard } from "./api";
import { takeEarlyDashboard } from "./early-fetch";

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

function picked(range: DashboardDateRange): DateRangeValue | null {
  if (!range.startDate || !range.endDate) return null;
  const custom = range.customCompare && range.compareStartDate && range.compareEndDate;
  return {
    rangeType: range.rangeType,
    startDate: range.startDate,
    endDate: range.endDate,
    compareStartDate: custom ? range.compareStartDate : null,
    compareEndDate: custom ? range.compareEndDate : null,
    customCompare: Boolean(custom),
  };
}

/**
 * The range the dashboard opens with: the one a copied link carries (docs/product.md §2 Copy URL: startDate,
 * endDate, compare dates, or month and year), else the dashboard's own.
 */
export function initialRange(dashboard: TDashboard, params: ParamSource): DateRangeValue {
  const fromUrl = rangeFromUrlParams(params);
  const fromLink = fromUrl ? picked(fromUrl) : null;
  if (fromLink) return fromLink;
  const main = { startDate: dashboard.startDate, endDate: dashboard.endDate };
  const custom = !isDefaultCompare(main, dashboard.compareStartDate, dashboard.compareEndDate);
  return {
    rangeType: dashboard.rangeType,
    startDate: dashboard.startDate,
    endDate: dashboard.endDate,
    compareStartDate: custom ? dashboard.compareStartDate : null,
    compareEndDate: custom ? dashboard.compareEndDate : null,
    customCompare: custom,
  };
}
