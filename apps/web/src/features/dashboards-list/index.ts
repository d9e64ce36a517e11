export { AllowanceMeter } from "./components/AllowanceMeter";
export { CreateDashboardForm } from "./components/CreateDashboardForm";
export { type DashboardBrowseState, DashboardsBrowser } from "./components/DashboardsBrowser";
export { dashboardListKeys, dashboardListQuery, templatesQuery } from "./queries";
