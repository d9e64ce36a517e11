import { createContext, useContext } from "react";
import type { ChartColours } from "./charts/chart-options";

/** How widgets are painted on a dashboard: the chart colours plus whether the theme is dark. */
export interface WidgetLook extends ChartColours {
  dark: boolean;
}

/** A calm palette that reads well on white: indigo, teal, amber, orange, rose, blue, violet, lime. */
export const LIGHT_PALETTE = ["#595df0", "#12a594", "#f2a20c", "#e8590c", "#d6336c", "#1c7ed6", "#7048e8", "#66a80f"];
/** The same hues lifted for dark cards. */
export const DARK_PALETTE = ["#9a9df8", "#38d9a9", "#ffd43b", "#ff922b", "#f783ac", "#4dabf7", "#b197fc", "#a9e34b"];

export const DEFAULT_LOOK: WidgetLook = {
  dark: false,
  palette: LIGHT_PALETTE,
  text: "#1f2433",
  muted: "#6b7285",
  line: "#e6e8ef",
  surface: "#ffffff",
};

export const WidgetLookContext = createContext<WidgetLook>(DEFAULT_LOOK);

/** The look of the dashboard the widget is on. */
export function useWidgetLook(): WidgetLook {
  return useContext(WidgetLookContext);
}
