export { WidgetInsight } from "./components/WidgetInsight";
export {
  type DashboardInsightsState,
  dashboardInsightsQuery,
  InsightLinesContext,
  useDashboardInsights,
} from "./query";
