import {
  billingStanding,
  type CompanyBillingFacts,
  REALTIME_EVENTS,
  type TBillingDetailsUpdate,
  type TCompany,
  type TCompanyDelete,
  type TCompanyUpdate,
} from "@app/core";
import type { Updateable } from "kysely";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import type { Db } from "../../infra/db";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import { type Storage, storeImage } from "../../infra/storage";
import { companyChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import { customDomains } from "./custom-domains";
import { type CompanyUsage, presentCompany } from "./presenter";
import { companiesRepo } from "./repo";

export const TRIAL_DAYS = 14;

/** The company a verified custom domain serves, and the site title its pages carry there. */
export interface HostCompany {
  companyId: string;
  siteTitle: string;
}

/**
 * Host → company answers are kept this long: every request on a custom domain asks, and most requests
 * (the app's own host aside) ask about the same few hosts. Changes clear the cache at once.
 */
const HOST_CACHE_TTL_MS = 30_000;

/**
 * The billing facts `standing()` judges are kept this long: every public view of a shared dashboard
 * asks for its company's standing. A state change clears them at once (setState, deletion); the verdict
 * itself is worked out on each call, because an expiry date passes without any write.
 */
const STANDING_CACHE_TTL_MS = 60_000;

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

/** Company rows as other features read them (an inviter's company name), never through the companies repo. */
export function companyRecords(db: Db) {
  const repo = companiesRepo(db);
  return { find: (companyId: string) => repo.find(companyId) };
}

/** A state patch applied inside a transaction (setState's body); false when the patch changes nothing. */
async function applyState(
  tx: Db,
  companyId: string,
  patch: CompanyStatePatch | ((row: CompaniesTable) => CompanyStatePatch | null),
): Promise<boolean> {
  const txRepo = companiesRepo(tx);
  const row = await txRepo.find(companyId);
  if (!row) throw AppError.notFound("Company not found.");
  const next = typeof patch === "function" ? patch(row) : patch;
  if (!next) return false;
  // A new period (a payment, a restore) ends the "service ended" notice the expiry job gave.
  const reopened = next.expires_at !== undefined && next.service_ended_at === undefined;
  await txRepo.update(companyId, { ...next, ...(reopened && { service_ended_at: null }) });
  return true;
}

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

export function companiesService(
  ctx: AppContext,
  storage: Storage,
  usageCounters: UsageCounter[] = [],
  onAccountChange: () => void = () => {},
  canceller: () => SubscriptionCanceller | null = () => null,
) {
  const repo = companiesRepo(ctx.db);
  const audit = auditLog(ctx);
  // Wrapped: a cache holds objects, and "no company" is an answer worth keeping too (unknown hosts).
  const hosts = ctx.cache<{ company: HostCompany | null }>("custom-domains", {
    maxSize: 10_000,
    ttlMs: HOST_CACHE_TTL_MS,
  });
  const standingFacts = ctx.cache<CompanyBillingFacts>("company-standing", {
    maxSize: 10_000,
    ttlMs: STANDING_CACHE_TTL_MS,
  });

  async function usage(companyId: string): Promise<CompanyUsage> {
    const result: CompanyUsage = { dashboardsCount: 0, campaignsCount: 0 };
    for (const counter of usageCounters) Object.assign(result, await counter(companyId));
    return result;
  }

  async function load(companyId: string): Promise<CompaniesTable> {
    const row = await repo.find(companyId);
    if (!row) throw AppError.notFound("Company not found.");
    return row;
  }
  const domains = customDomains(ctx, repo, hosts, load, usage);
  const { domainFacts, checkDomainFree } = domains;

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

    /**
     * Whether the company is served now (docs/product.md §4): an expired trial or a canceled company past
     * its period may not create dashboards, and its shared dashboards answer 402. Viewing by its own
     * members and Mission Control are never gated.
     */
    async standing(companyId: string) {
      let facts = await standingFacts.get(`${companyId}:`);
      if (!facts) {
        const row = await load(companyId);
        facts = {
          state: row.state,
          subscription:
            row.subscription_id !== null ? { id: row.subscription_id, interval: row.subscription_interval ?? 1 } : null,
          services: { dashboards: row.services_dashboards, bonusDashboards: row.services_bonus_dashboards },
          dashboardsCount: 0,
          expiresAt: row.expires_at,
        };
        await standingFacts.set(`${companyId}:`, facts);
      }
      return billingStanding(facts, ctx.clock.now());
    },

    /** Raw facts for rules that need more than the presented shape (messages, limits). */
    load,

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

    ...domains.methods,

    /**
     * docs/product.md §7 DELETE /api/company: with `delete` the company and everything it owns goes
     * (returns null); otherwise the subscription is canceled and the reason kept.
     */
    async deleteOrCancel(companyId: string, input: TCompanyDelete): Promise<TCompany | null> {
      const row = await load(companyId);
      // The card provider first: if it cannot be reached nothing changes here, and the admin may retry.
      if (row.subscription_id) await canceller()?.cancelSubscription(row, input.delete);
      if (input.delete) {
        await repo.delete(companyId);
        await Promise.all([hosts.clear(), standingFacts.deletePrefix(`${companyId}:`)]);
        onAccountChange();
        return null;
      }
      // A paid subscription ends with its period: service stays until the next charge would have been.
      return this.setState(
        companyId,
        {
          state: "canceled",
          cancellation: JSON.stringify({ ...input.cancellation, at: nowIso() }),
          ...(row.subscription_id && row.next_charge_at && { expires_at: row.next_charge_at, next_charge_at: null }),
        },
        audit.alongside(companyChanged("billing.canceled", companyId)),
      );
    },

    /**
     * The one door for a change of a company's subscription state (docs/product.md §4): cancellation,
     * the card provider's webhooks, the expiry job, a restore. `patch` may be worked out from the row as
     * it is inside the transaction; null changes nothing. `within` runs first in the same transaction
     * (a webhook records its event and order there) and false from it stops everything. After commit
     * the members' browsers hear CompanySubscriptionUpdated, so banners change without a reload.
     */
    async setState(
      companyId: string,
      patch: CompanyStatePatch | ((row: CompaniesTable) => CompanyStatePatch | null),
      within?: (tx: Db) => Promise<boolean>,
    ): Promise<TCompany> {
      const changed = await ctx.db.transaction().execute(async (tx) => {
        if (within && !(await within(tx))) return false;
        return applyState(tx, companyId, patch);
      });
      if (changed) await standingFacts.deletePrefix(`${companyId}:`);
      const company = await this.get(companyId);
      if (!changed) return company;
      onAccountChange();
      // docs/product.md §4 CompanySubscriptionUpdated: members' browsers update the company and its banners.
      const { state, services } = company;
      await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.subscriptionUpdated, { state, services });
      return company;
    },

    /**
     * setState for a company created in the caller's transaction `tx` (a registration claiming the
     * checkout it paid, docs/product.md §4): the same patch rules, no broadcast, because nobody can
     * listen to a company that is not committed yet.
     */
    async setStateInside(tx: Db, companyId: string, patch: CompanyStatePatch): Promise<void> {
      await applyState(tx, companyId, patch);
    },

    /** The company of a card provider's customer id, or null (features/billing maps webhooks with it). */
    async findByStripeCustomer(customerId: string): Promise<CompaniesTable | null> {
      return (await repo.findByStripeCustomer(customerId)) ?? null;
    },

    /** Ids of companies whose service has ended at `now` and that have not been told (the expiry job). */
    async serviceEndedUnannounced(now: Date): Promise<string[]> {
      return (await repo.serviceEndedUnannounced(now.toISOString())).map((row) => row.id);
    },
  };
}

export type CompaniesService = ReturnType<typeof companiesService>;
