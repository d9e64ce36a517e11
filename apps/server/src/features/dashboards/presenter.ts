import {
  DEFAULT_LANGUAGE,
  dashboardRangeFor,
  EMPTY_DASHBOARD_STYLES,
  isRangeType,
  type RangeType,
  STYLE_IMAGE_PATH,
  type TAutomaticReport,
  type TDashboard,
  type TDashboardListItem,
  type TDashboardStyles,
  type TLanguage,
  type TWidget,
  ZLanguage,
} from "@app/core";
import type { DashboardsTable } from "../../infra/db/schema";

const IMAGE_STYLES = ["logoImage", "backgroundImage", "clientImage"] as const;

/**
 * Styles with only the company's own uploaded images: a value stored before images were checked
 * (`javascript:…`, another company's file) is not shown to anyone.
 */
export function withOwnImages(companyId: string, styles: TDashboardStyles): TDashboardStyles {
  const next = { ...styles };
  for (const key of IMAGE_STYLES) {
    const value = next[key];
    if (value !== null && !(STYLE_IMAGE_PATH.test(value) && value.startsWith(`/files/${companyId}/`))) next[key] = null;
  }
  return next;
}

export function parseWidgets(row: Pick<DashboardsTable, "widgets">): TWidget[] {
  return JSON.parse(row.widgets) as TWidget[];
}

/**
 * A preset range type (Monthly, Last 30 Days…) is relative to today, so its dates are
 * recomputed in the viewer's zone on every load; Custom keeps the saved dates.
 */
export function presentDashboard(
  row: DashboardsTable,
  today: string,
  lockHolder: string | null,
  automaticReports: TAutomaticReport[],
): TDashboard {
  const rangeType: RangeType = isRangeType(row.range_type) ? row.range_type : "last_30_days";
  let startDate = row.start_date;
  let endDate = row.end_date;
  if (rangeType !== "custom" || !startDate || !endDate) {
    const preset = dashboardRangeFor(rangeType === "custom" ? "last_30_days" : rangeType, { today });
    startDate = preset.startDate;
    endDate = preset.endDate;
  }
  return {
    id: row.id,
    permalink: row.permalink,
    name: row.name,
    active: row.active === 1,
    rangeType,
    startDate: String(startDate),
    endDate: String(endDate),
    compareStartDate: row.compare_start_date,
    compareEndDate: row.compare_end_date,
    defaults: JSON.parse(row.defaults) as Record<string, unknown>,
    widgets: parseWidgets(row),
    automaticReports,
    styles: withOwnImages(row.company_id, {
      ...EMPTY_DASHBOARD_STYLES,
      ...(JSON.parse(row.styles) as Partial<TDashboardStyles>),
    }),
    passwordProtected: row.password_hash !== null,
    locked: lockHolder,
    hiddenDateSelector: row.hidden_date_selector === 1,
    footer: row.footer,
    language: languageOf(row.language),
  };
}

/** A stored language as the contract has it; a row written by hand with anything else reads in English. */
export function languageOf(stored: string | null | undefined): TLanguage {
  const parsed = ZLanguage.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_LANGUAGE;
}

export function presentListItem(row: DashboardsTable): TDashboardListItem {
  return {
    id: row.id,
    permalink: row.permalink,
    name: row.name,
    active: row.active === 1,
    passwordProtected: row.password_hash !== null,
    widgetsCount: parseWidgets(row).length,
    updatedAt: row.updated_at,
  };
}
