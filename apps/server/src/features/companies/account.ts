import type { TBillingDetailsUpdate, TCompany, TCompanyUpdate } from "@app/core";
import type { Db } from "../../infra/db";
import { storeImage } from "../../infra/storage";
import { companyChanged } from "../audit/events";
import type { CompanyDeps } from "./deps";
import { presentCompany } from "./presenter";
import { companiesRepo } from "./repo";

export const TRIAL_DAYS = 14;

/** The billing details section, replaced whole. */
const billingColumns = (input: TBillingDetailsUpdate) => ({
  billing_name: input.name,
  billing_address: input.address,
  billing_postal_code: input.postal_code,
  billing_city: input.city,
  billing_country: input.country,
  vat_id: input.vat_id,
});

/** What a company update writes (docs/product.md §3 company settings). */
function companyPatch(input: TCompanyUpdate, logoPath: string | undefined, domainChanged: boolean) {
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.domain !== undefined && { domain: input.domain }),
    ...(input.phone !== undefined && { phone: input.phone }),
    ...(input.site_title !== undefined && { site_title: input.site_title || null }),
    ...(logoPath !== undefined && { logo: logoPath }),
    ...(input.remove_logo && !logoPath && { logo: null }),
    // A new domain has no CNAME found yet: it serves nothing until verified again.
    ...(domainChanged && { domain_cname: input.domain_cname, domain_verified_at: null }),
  };
}

/** The company itself: its creation in trial, what its settings page shows, and its changes. */
export function accountUseCases({
  ctx,
  storage,
  audit,
  hosts,
  onAccountChange,
  load,
  usage,
  domainFacts,
  checkDomainFree,
}: CompanyDeps) {
  return {
    /** Creates a company in its trial (registration), on `db` (the registration's transaction) when given. */
    async createInTrial(
      input: { id: string; name: string; dashboards: number; interval: number; timezone: string },
      db: Db = ctx.db,
    ): Promise<void> {
      // The server's clock, as every rule judging the trial's end reads it.
      const now = ctx.clock.now();
      const expires = new Date(now.getTime() + TRIAL_DAYS * 24 * 3600 * 1000);
      await companiesRepo(db).insert({
        id: input.id,
        name: input.name,
        domain: null,
        logo: null,
        phone: null,
        site_title: null,
        state: "trial",
        expires_at: expires.toISOString(),
        services_dashboards: input.dashboards,
        services_bonus_dashboards: 0,
        subscription_id: null,
        // The interval asked for at sign-up: the subscription page and checkout start from it.
        subscription_interval: input.interval,
        discount: 0,
        cancellation: null,
        domain_cname: null,
        domain_verified_at: null,
        timezone: input.timezone,
        created_at: now.toISOString(),
      });
    },

    async get(companyId: string): Promise<TCompany> {
      return presentCompany(
        await load(companyId),
        await usage(companyId),
        ctx.config.siteTitle,
        domainFacts(companyId),
        ctx.clock.now(),
      );
    },

    async update(companyId: string, input: TCompanyUpdate, logo: Buffer | null): Promise<TCompany> {
      const current = await load(companyId);
      const domainChanged = input.domain_cname !== undefined && input.domain_cname !== current.domain_cname;
      if (domainChanged && input.domain_cname) await checkDomainFree(companyId, input.domain_cname);
      // Store the new logo first: a bad file fails the whole request before anything is written.
      const logoPath = logo ? await storeImage(storage, companyId, logo, "logo") : undefined;
      const domain = { domain: input.domain_cname ?? "" };
      const event = domainChanged ? companyChanged("company.domain_changed", companyId, domain) : null;
      await audit.within(ctx.db, event, (trx) =>
        companiesRepo(trx).update(companyId, companyPatch(input, logoPath, domainChanged)),
      );
      // The site title or the domain of a routed host may have changed.
      await hosts.clear();
      if (current.logo && (logoPath || input.remove_logo)) await storage.remove(companyId, current.logo);
      onAccountChange();
      return this.get(companyId);
    },

    /**
     * The billing details (features/billing/billing-details.ts checks them and tells the card provider
     * first): the whole section is replaced, nothing else of the company changes.
     */
    async setBillingDetails(companyId: string, input: TBillingDetailsUpdate): Promise<TCompany> {
      const event = companyChanged("billing.details_changed", companyId);
      await audit.within(ctx.db, event, (trx) => companiesRepo(trx).update(companyId, billingColumns(input)));
      onAccountChange();
      return this.get(companyId);
    },
  };
}
