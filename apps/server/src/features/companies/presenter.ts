import { companyFlags, type TCompany } from "@app/core";
import type { CompaniesTable } from "../../infra/db/schema";

export interface CompanyUsage {
  dashboardsCount: number;
  campaignsCount: number;
  /** The white-label sender (features/sender); none until an address is set. */
  sender?: { emailDns: TCompany["emailDns"]; fromAddress: string | null; verifiedWhitelabel: boolean };
  /** The coupons applied to the company, oldest first (features/coupons). */
  coupons?: TCompany["coupons"];
}

/** The custom domain's CNAME target (config), and why the Verify just made failed (that answer only). */
export interface DomainFacts {
  target: string;
  problem?: string | null;
}

/** Company of docs/product.md §3 with its derived flags and its white-label sender. */
export function presentCompany(
  row: CompaniesTable,
  usage: CompanyUsage,
  defaultSiteTitle: string,
  domain: DomainFacts,
  /** The server's clock: a trial or a paid period that ended changes the flags (docs/product.md §4). */
  now?: Date,
): TCompany {
  const facts = {
    state: row.state,
    subscription:
      row.subscription_id !== null ? { id: row.subscription_id, interval: row.subscription_interval ?? 1 } : null,
    services: { dashboards: row.services_dashboards, bonusDashboards: row.services_bonus_dashboards },
    dashboardsCount: usage.dashboardsCount,
    expiresAt: row.expires_at,
  };
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    emailUsername: null,
    logo: row.logo,
    phone: row.phone,
    billingDetails: {
      name: row.billing_name,
      address: row.billing_address,
      postalCode: row.billing_postal_code,
      city: row.billing_city,
      country: row.billing_country,
      vatId: row.vat_id,
    },
    siteTitle: row.site_title || defaultSiteTitle,
    timezone: row.timezone,
    discount: row.discount,
    activeEmail: false,
    domainCname: row.domain_cname,
    domainRecord: row.domain_cname
      ? {
          type: "CNAME",
          host: row.domain_cname,
          value: domain.target,
          verified: row.domain_verified_at !== null,
          problem: domain.problem ?? null,
        }
      : null,
    emailDns: usage.sender?.emailDns ?? [],
    fromAddress: usage.sender?.fromAddress ?? null,
    verifiedWhitelabel: usage.sender?.verifiedWhitelabel ?? false,
    services: facts.services,
    coupons: usage.coupons ?? [],
    state: row.state,
    expiresAt: row.expires_at,
    subscription: facts.subscription,
    dashboardsCount: usage.dashboardsCount,
    campaignsCount: usage.campaignsCount,
    ...companyFlags(facts, now),
  };
}
