// What other features load on demand: the dashboard's insights (its request, the summary and the
// lines' store feed), kept out of the public dashboard's first load (the budget in apps/web/src/bundle-budget.test.ts): nothing is said
// before the widgets have drawn anyway.
export { DashboardInsights, type DashboardInsightsProps } from "./components/DashboardInsights";
