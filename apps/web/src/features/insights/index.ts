export { WidgetInsight } from "./components/WidgetInsight";
export { type DashboardInsightsState, InsightLinesContext, useDashboardInsights } from "./query";
