/** Who may open a route once signed in (docs/product.md §2 table, §6). */
export type RouteAccess = "all" | "admin" | "adminOrSelf";

export interface RouteDefinition {
  path: string;
  name: string;
  /** Route title; null means the page sets no title of its own (dashboard, user, group pages). */
  title: string | null;
  access: RouteAccess;
  /** Error pages are open to everybody (guard 1). */
  errorPage?: boolean;
  /** Pages outside the signed-in app (login, registration, invitation), shown only to guests. */
  guestOnly?: boolean;
}

/** The route table of docs/product.md §2, plus the guest pages it implies (login, registration, invitation). */
export const ROUTES: readonly RouteDefinition[] = [
  { path: "/users/:userId", name: "user", title: null, access: "adminOrSelf" },
  { path: "/dashboards", name: "dashboards.index", title: "Dashboards", access: "all" },
  { path: "/dashboards/create", name: "dashboards.create", title: "Create Dashboard", access: "all" },
  { path: "/dashboards/:permalink", name: "dashboard.show", title: null, access: "all" },
  { path: "/dashboards/:permalink/print", name: "dashboard.print", title: null, access: "all" },
  { path: "/dashboards/:permalink/realtime", name: "dashboard.realTime", title: null, access: "all" },
  { path: "/dashboards/:permalink/embed", name: "dashboard.embedded", title: null, access: "all" },
  { path: "/groups", name: "campaigns.index", title: "Groups", access: "all" },
  { path: "/groups/create", name: "campaigns.create", title: "Create Group", access: "admin" },
  { path: "/groups/:campaignId", name: "campaign.show", title: null, access: "all" },
  { path: "/company/sources", name: "company.sources", title: "Company Sources", access: "all" },
  { path: "/company/settings", name: "company.settings", title: "Company Settings", access: "admin" },
  { path: "/company/subscription", name: "company.subscription", title: "Subscription", access: "admin" },
  { path: "/company/invoices", name: "company.invoices", title: "Invoices", access: "admin" },
  // Banner 128's link: Stripe's billing portal for the card, or the subscription page without one.
  { path: "/company/manage-payment", name: "company.managePayment", title: "Manage Payment", access: "admin" },
  { path: "/company/automatic-reports", name: "company.automaticReports", title: "Automatic Reports", access: "all" },
  { path: "/company/users", name: "company.users", title: "Users", access: "admin" },
  { path: "/company/audit-log", name: "company.auditLog", title: "Audit log", access: "admin" },
  { path: "/intro", name: "intro", title: "Intro", access: "all" },
  { path: "/two-factor/setup", name: "twoFactor.setup", title: "Two-Factor Sign-In", access: "all" },
  { path: "/404", name: "notFound", title: "Page Not Found", access: "all", errorPage: true },
  { path: "/403", name: "forbidden", title: "Forbidden", access: "all", errorPage: true },
  { path: "/402", name: "subscriptionRequired", title: "Subscription Required", access: "all", errorPage: true },
  { path: "/login", name: "login", title: "Log In", access: "all", guestOnly: true },
  { path: "/login/two-factor", name: "login.twoFactor", title: "Two-Factor Sign-In", access: "all", guestOnly: true },
  { path: "/register", name: "register", title: "Register", access: "all", guestOnly: true },
  { path: "/password/set/:token", name: "password.set", title: "Set Your Password", access: "all", guestOnly: true },
];

/** Fixed redirects of docs/product.md §2. */
export const REDIRECTS: Readonly<Record<string, string>> = {
  "/": "/dashboards",
  "/company": "/company/sources",
};

export interface MatchedRoute {
  route: RouteDefinition;
  params: Record<string, string>;
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const patternParts = pattern.split("/").filter(Boolean);
  const pathParts = path.split("/").filter(Boolean);
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < patternParts.length; i++) {
    const part = patternParts[i];
    if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(pathParts[i]);
    else if (part !== pathParts[i]) return null;
  }
  return params;
}

/**
 * Finds the route for a path. Static segments win over parameters
 * (so /dashboards/create is not taken for a dashboard permalink).
 */
export function matchRoute(path: string): MatchedRoute | null {
  const clean = path.split(/[?#]/)[0].replace(/\/+$/, "") || "/";
  let best: MatchedRoute | null = null;
  let bestStatic = -1;
  for (const route of ROUTES) {
    const params = matchPattern(route.path, clean);
    if (!params) continue;
    const staticCount = route.path.split("/").filter((p) => p && !p.startsWith(":")).length;
    if (staticCount > bestStatic) {
      best = { route, params };
      bestStatic = staticCount;
    }
  }
  return best;
}

export function routeByName(name: string): RouteDefinition {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`Unknown route ${name}`);
  return route;
}
