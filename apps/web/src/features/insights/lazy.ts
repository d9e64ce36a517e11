// What other features load on demand: the dashboard's insights summary, kept out of the public
// dashboard's first load (the budget in apps/web/src/bundle-budget.test.ts). The request and the cards'
// lines are not here (query.ts): the server's page of a public view runs no app to load this with.
export { DashboardInsights, type DashboardInsightsProps } from "./components/DashboardInsights";
