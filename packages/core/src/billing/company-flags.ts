/** The company facts the derived flags of docs/product.md §3 are computed from. */
export interface CompanyBillingFacts {
  state: string;
  subscription: { id: string; interval: number } | null;
  services: { dashboards: number; bonusDashboards: number };
  dashboardsCount: number;
}

export interface CompanyFlags {
  hasSubscription: boolean;
  isCanceled: boolean;
  isOverdue: boolean;
  isTrialWithoutSubscription: boolean;
  canCreateDashboard: boolean;
  canCreateAutomaticReport: boolean;
}

/** Dashboards the company may hold: services.dashboards plus services.bonusDashboards (docs/product.md §9). */
export function dashboardAllowance(services: CompanyBillingFacts["services"]): number {
  return services.dashboards + services.bonusDashboards;
}

/**
 * docs/product.md §3/§4: canceled and overdue count only when a subscription exists; a trial
 * without subscription is trial-only.
 */
export function companyFlags(company: CompanyBillingFacts): CompanyFlags {
  const hasSubscription = company.subscription !== null;
  const isCanceled = hasSubscription && company.state === "canceled";
  const isOverdue = hasSubscription && company.state === "overdue";
  const isTrialWithoutSubscription = !hasSubscription && company.state === "trial";
  const canCreateDashboard = company.dashboardsCount < dashboardAllowance(company.services);
  const active = company.state === "trial" || (hasSubscription && !isCanceled);
  return {
    hasSubscription,
    isCanceled,
    isOverdue,
    isTrialWithoutSubscription,
    canCreateDashboard,
    canCreateAutomaticReport: active,
  };
}
