/**
 * Method and path of every API route, by name: the one list the server registers its routes from and
 * the web client calls them by. No zod here (the web's first load imports it; see routes.ts for the
 * schemas of each route).
 */
export const ROUTE_LINES = {
  register: "POST /register",
  login: "POST /login",
  setPassword: "POST /password/set",
  logout: "POST /logout",
  socialRegister: "POST /register/:provider",
  socialLogin: "POST /login/:provider",
  socialCallback: "GET /auth/:provider/callback",
  health: "GET /api/health",
  pageData: "GET /api/page-data",
  companyShow: "GET /api/company",
  companyUpdate: "POST /api/company",
  companyDelete: "DELETE /api/company",
  companySenderUpdate: "PUT /api/company/sender",
  companySenderVerify: "POST /api/company/sender/verify",
  companyDomainVerify: "POST /api/company/domain/verify",
  companySubscriptionCreate: "POST /api/company/subscription",
  companySubscriptionChange: "PUT /api/company/subscription",
  paymentSecure: "POST /api/payment/secure",
  paymentWebhook: "POST /api/payment/webhook",
  companyPaymentPortal: "POST /api/company/payment-portal",
  ordersList: "GET /api/orders",
  orderPdf: "GET /api/orders/:id/pdf",
  domainAllowed: "GET /api/domains/allowed",
  couponLookup: "GET /api/coupons/:code",
  companyCouponApply: "POST /api/company/coupon",
  usersList: "GET /api/users",
  userShow: "GET /api/users/:id",
  userInvite: "POST /api/users",
  userUpdate: "PUT /api/users/:id",
  userDelete: "DELETE /api/users/:id",
  userData: "POST /api/user/data",
  sourcesList: "GET /api/sources",
  sourceCreate: "POST /api/sources",
  sourceUpdate: "PUT /api/sources/:id",
  sourceDelete: "DELETE /api/sources/:id",
  sourceProperties: "GET /api/sources/:id/properties",
  sourceOptions: "GET /api/sources/:id/:option",
  oauthStart: "POST /api/oauth/:connector/start",
  oauthCallback: "GET /api/oauth/:connector/callback",
  connectors: "GET /api/configs/connectors",
  widgetTypes: "GET /api/configs/widgets/:type",
  templates: "GET /api/configs/templates",
  fileUpload: "POST /api/files/:kind",
  fileDelete: "DELETE /api/files",
  automaticReportsList: "GET /api/automatic-reports",
  automaticReportCreate: "POST /api/automatic-reports",
  automaticReportUpdate: "PUT /api/automatic-reports/:id",
  automaticReportDelete: "DELETE /api/automatic-reports/:id",
  automaticReportSend: "POST /api/automatic-reports/:id/send",
  campaignsList: "GET /api/campaigns",
  campaignMetricsSources: "GET /api/campaigns/sources",
  campaignAlertSettings: "GET /api/campaigns/alert-settings",
  campaignAlertSettingsUpdate: "PUT /api/campaigns/alert-settings",
  campaignCreate: "POST /api/campaigns",
  campaignShow: "GET /api/campaigns/:id",
  campaignUpdate: "PUT /api/campaigns/:id",
  campaignDelete: "DELETE /api/campaigns/:id",
  campaignDomainAdd: "POST /api/campaigns/:id/domains",
  campaignDomainRemove: "DELETE /api/campaigns/:id/domains/:domainId",
  campaignDomainSnooze: "POST /api/campaigns/:id/domains/:domainId/snooze",
  campaignDomainUnsnooze: "DELETE /api/campaigns/:id/domains/:domainId/snooze",
  widgetAlertsList: "GET /api/dashboards/:id/widgets/:widgetId/alerts",
  widgetAlertCreate: "POST /api/dashboards/:id/widgets/:widgetId/alerts",
  widgetAlertUpdate: "PUT /api/widget-alerts/:id",
  widgetAlertDelete: "DELETE /api/widget-alerts/:id",
  widgetAlertSnooze: "POST /api/widget-alerts/:id/snooze",
  widgetAlertUnsnooze: "DELETE /api/widget-alerts/:id/snooze",
  widgetAlertsOpen: "GET /api/dashboards/:id/widget-alerts/open",
  widgetData: "POST /api/widgets/data",
  dashboardsList: "GET /api/dashboards",
  dashboardCreate: "POST /api/dashboards",
  dashboardClone: "POST /api/dashboards/:id/clone",
  dashboardRestore: "PUT /api/dashboards/:id/restore",
  dashboardArchive: "DELETE /api/dashboards/:id/archive",
  dashboardDelete: "DELETE /api/dashboards/:id",
  dashboardShow: "GET /api/dashboards/:permalink",
  dashboardWidgetData: "POST /api/dashboards/:permalink/widgets/:widgetId/data",
  dashboardInsights: "POST /api/dashboards/:permalink/insights",
  dashboardPdf: "GET /api/dashboards/:permalink/pdf",
  dashboardRealtimePdf: "GET /api/dashboards/:permalink/realtime/pdf",
  dashboardUpdate: "PUT /api/dashboards/:id",
  dashboardSave: "POST /api/dashboards/:id",
  dashboardEmbedCreate: "POST /api/dashboards/:id/embed",
  dashboardEmbedRevoke: "DELETE /api/dashboards/:id/embed",
  broadcastingAuth: "POST /broadcasting/auth",
  broadcastingUserAuth: "POST /broadcasting/user-auth",
  opsProbeEnqueue: "POST /ops/probe-jobs",
  opsProbeRuns: "GET /ops/probe-jobs",
} as const;

export type RouteName = keyof typeof ROUTE_LINES;
export type RouteMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Method and path (with `:param` placeholders) of a route line. */
export function splitRouteLine(line: string): { method: RouteMethod; path: string } {
  const space = line.indexOf(" ");
  return { method: line.slice(0, space) as RouteMethod, path: line.slice(space + 1) };
}

/** The path of a route with its parameters filled in (each one URL-encoded). */
export function routePath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ""));
}
