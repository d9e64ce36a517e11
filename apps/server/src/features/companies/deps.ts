import type { CompanyBillingFacts } from "@app/core";
import type { Updateable } from "kysely";
import type { AppContext } from "../../context";
import type { Cache } from "../../infra/cache";
import type { CompaniesTable } from "../../infra/db/schema";
import type { Storage } from "../../infra/storage";
import type { auditLog } from "../audit/record";
import type { customDomains } from "./custom-domains";
import type { CompanyUsage } from "./presenter";
import type { companiesRepo } from "./repo";
import type { HostCompany } from "./service";

/**
 * What a change of a company's subscription state may set (docs/product.md §4): the state, the period,
 * the plan and the card provider's ids. Every such change goes through `setState`.
 */
export type CompanyStatePatch = Pick<
  Updateable<CompaniesTable>,
  | "state"
  | "expires_at"
  | "next_charge_at"
  | "subscription_id"
  | "subscription_interval"
  | "services_dashboards"
  | "stripe_customer_id"
  | "cancellation"
  | "service_ended_at"
>;

/** The card provider's side of a cancellation (features/billing); absent when payments are off. */
export interface SubscriptionCanceller {
  /** `immediately`: the company is deleted; otherwise the subscription ends with its paid period. */
  cancelSubscription(company: CompaniesTable, immediately: boolean): Promise<void>;
}

/** Usage counters other features report (dashboards, groups); registered at start-up. */
export type UsageCounter = (companyId: string) => Promise<Partial<CompanyUsage>>;

/**
 * What every use case of the companies service works with: the context, the repo, the caches, the hooks
 * given at start-up and the helpers they share (a company's row, its usage, its domain facts).
 * `service.ts` builds it once and hands it to each use-case module: account.ts (the company's settings),
 * subscription-state.ts (its standing, cancellation and state changes), custom-domains.ts.
 */
export interface CompanyDeps {
  ctx: AppContext;
  storage: Storage;
  repo: ReturnType<typeof companiesRepo>;
  audit: ReturnType<typeof auditLog>;
  hosts: Cache<{ company: HostCompany | null }>;
  standingFacts: Cache<CompanyBillingFacts>;
  onAccountChange: () => void;
  canceller: () => SubscriptionCanceller | null;
  load(companyId: string): Promise<CompaniesTable>;
  usage(companyId: string): Promise<CompanyUsage>;
  domainFacts: ReturnType<typeof customDomains>["domainFacts"];
  checkDomainFree: ReturnType<typeof customDomains>["checkDomainFree"];
}
