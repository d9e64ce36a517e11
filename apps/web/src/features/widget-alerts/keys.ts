/**
 * The query keys widget alerts are cached under: public, for the realtime channel, which refreshes a
 * dashboard's alerts when they open or resolve. A file of its own, so importing the keys loads none of
 * the feature.
 */
export const widgetAlertKeys = {
  all: ["widget-alerts"] as const,
  /** Every widget list of one dashboard (a prefix of `widget`). */
  dashboard: (dashboardId: string) => ["widget-alerts", dashboardId] as const,
  widget: (dashboardId: string, widgetId: string) => ["widget-alerts", dashboardId, widgetId] as const,
  /** The dashboard's open alerts, one query for every card's badge. */
  open: (dashboardId: string) => ["widget-alerts", "open", dashboardId] as const,
};
