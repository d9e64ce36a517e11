/**
 * The company states of docs/product.md §4. `state` stays a plain string on the wire (older rows and
 * operators may hold others); these are the ones the billing rules know by name.
 */
export const COMPANY_STATES = ["trial", "active", "canceled", "overdue", "restored"] as const;
export type CompanyState = (typeof COMPANY_STATES)[number];

/** The company facts the derived flags of docs/product.md §3 are computed from. */
export interface CompanyBillingFacts {
  state: string;
  subscription: { id: string; interval: number } | null;
  services: { dashboards: number; bonusDashboards: number };
  dashboardsCount: number;
  /**
   * End of the trial or of the paid period (ISO 8601), null when open-ended. Optional so callers that
   * only need the allowance keep compiling; absent counts as null.
   */
  expiresAt?: string | null;
}

export interface CompanyFlags {
  hasSubscription: boolean;
  isCanceled: boolean;
  isOverdue: boolean;
  isTrialWithoutSubscription: boolean;
  canCreateDashboard: boolean;
  canCreateAutomaticReport: boolean;
}

/** Where the company stands with its service at one instant (what the flags and banners build on). */
export interface BillingStanding {
  /** `expiresAt` is set and `now` is at or after it. Never true without a `now`. */
  expired: boolean;
  /** A trial without subscription that has not expired: the only state banner 120 speaks of. */
  trialRunning: boolean;
  /**
   * The company may create dashboards and (state permitting) automatic reports. False for an expired
   * trial without subscription and for a canceled company past its period. Viewing, and Mission
   * Control, are never gated by this (docs/product.md §4).
   */
  hasService: boolean;
  /** Active dashboards have reached services.dashboards + services.bonusDashboards. */
  allowanceUsedUp: boolean;
}

/** Dashboards the company may hold: services.dashboards plus services.bonusDashboards (docs/product.md §9). */
export function dashboardAllowance(services: CompanyBillingFacts["services"]): number {
  return services.dashboards + services.bonusDashboards;
}

/**
 * Whether `expiresAt` has passed at `now`. Without `now` the expiry is not judged (callers that pass no
 * clock keep the allowance-only behaviour); an unparseable `expiresAt` counts as no expiry rather than
 * locking a company out on bad data.
 */
export function isExpired(expiresAt: string | null | undefined, now: Date | undefined): boolean {
  if (expiresAt == null || now === undefined) return false;
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end)) return false;
  return now.getTime() >= end;
}

/**
 * Service rules (docs/product.md §4; the product decisions are recorded in docs/decisions.md):
 * - overdue keeps service whatever the date: the card provider is still retrying the charge, and
 *   banner 128 asks for a new card; the provider's final "canceled" ends it;
 * - canceled keeps service until the end of its period (`expiresAt`) and loses it after, with or
 *   without a subscription (a canceled trial ends with its trial);
 * - any other state keeps service while it has a subscription; without one, until `expiresAt` (an
 *   expired trial, an operator-granted period, a restored account's grace period).
 */
export function billingStanding(company: CompanyBillingFacts, now?: Date): BillingStanding {
  const hasSubscription = company.subscription !== null;
  const expired = isExpired(company.expiresAt, now);
  let hasService: boolean;
  if (company.state === "overdue") hasService = true;
  else if (company.state === "canceled") hasService = !expired;
  else hasService = hasSubscription || !expired;
  return {
    expired,
    trialRunning: company.state === "trial" && !hasSubscription && !expired,
    hasService,
    allowanceUsedUp: company.dashboardsCount >= dashboardAllowance(company.services),
  };
}

/**
 * docs/product.md §3/§4: canceled and overdue count only when a subscription exists; a trial
 * without subscription is trial-only, and stops being one once it has expired. Pass `now` for the
 * expiry to count (core never reads the clock).
 */
export function companyFlags(company: CompanyBillingFacts, now?: Date): CompanyFlags {
  const standing = billingStanding(company, now);
  const hasSubscription = company.subscription !== null;
  const isCanceled = hasSubscription && company.state === "canceled";
  const isOverdue = hasSubscription && company.state === "overdue";
  // Automatic reports keep their earlier meaning (trial, or a subscription that is not canceled): a
  // report is a recurring promise a canceled subscription will not keep, so it stops at cancellation
  // rather than at the end of the period; losing service (expired trial) stops it too.
  const reportsAllowed = company.state === "trial" || (hasSubscription && company.state !== "canceled");
  return {
    hasSubscription,
    isCanceled,
    isOverdue,
    isTrialWithoutSubscription: standing.trialRunning,
    canCreateDashboard: standing.hasService && !standing.allowanceUsedUp,
    canCreateAutomaticReport: standing.hasService && reportsAllowed,
  };
}
