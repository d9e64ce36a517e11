import {
  type DashboardDateRange,
  isDefaultCompare,
  type ParamSource,
  rangeFromUrlParams,
  type TDashboard,
} from "@app/core";
import type { DateRangeValue } from "../../ui/date-range";
import type { WidgetRange } from "../widgets/api";

// Kept apart from queries.ts (React Query): the app's entry computes the range before React loads
// (early-widgets.ts).

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

/** The period and zone the widgets ask their data for (compare dates only with a custom comparison). */
export function widgetRangeOf(range: DateRangeValue, timezone: string): WidgetRange {
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    compareStartDate: range.customCompare ? range.compareStartDate : null,
    compareEndDate: range.customCompare ? range.compareEndDate : null,
    timezone,
  };
}
