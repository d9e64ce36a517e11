import { dashboardColours, type TDashboardStyles } from "@app/core";
import type { CSSProperties } from "react";
import { DARK_PALETTE, LIGHT_PALETTE, type WidgetLook } from "../widgets";

export interface DashboardLook {
  dark: boolean;
  /** CSS variables the dashboard's canvas, header and cards read. */
  style: CSSProperties;
  widgets: WidgetLook;
}

/**
 * The dashboard's look from its styles (docs/product.md §3); the colours are computed in core, where the server
 * reads them too (it paints a public dashboard's header in its HTML with the same variables).
 */
export function dashboardLook(styles: TDashboardStyles): DashboardLook {
  const { dark, variables, text, muted, line, surface } = dashboardColours(styles);
  return {
    dark,
    style: variables as CSSProperties,
    widgets: { dark, palette: dark ? DARK_PALETTE : LIGHT_PALETTE, text, muted, line, surface },
  };
}
