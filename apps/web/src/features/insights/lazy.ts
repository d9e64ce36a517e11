// What other features load on demand: the dashboard's insights (its request, the summary and the
// lines' store feed), kept out of the public dashboard's first load (issue 6 §5 budget): nothing is said
// before the widgets have drawn anyway.
export { DashboardInsights, type DashboardInsightsProps } from "./components/DashboardInsights";
