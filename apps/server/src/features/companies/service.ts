import { createHmac } from "node:crypto";
import {
  billingStanding,
  type CompanyBillingFacts,
  CUSTOM_DOMAIN_MESSAGES,
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
import { AppError, isUniqueViolation } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import { type Storage, storeImage } from "../../infra/storage";
import { checkRecords } from "../sender/dns-check";
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

export function companiesService(
  ctx: AppContext,
  storage: Storage,
  usageCounters: UsageCounter[] = [],
  onAccountChange: () => void = () => {},
  canceller: () => SubscriptionCanceller | null = () => null,
) {
  const repo = companiesRepo(ctx.db);
  // Wrapped: a cache holds objects, and "no company" is an answer worth keeping too (unknown hosts).
  const hosts = ctx.cache<{ company: HostCompany | null }>("custom-domains", {
    maxSize: 10_000,
    ttlMs: HOST_CACHE_TTL_MS,
  });
  const standingFacts = ctx.cache<CompanyBillingFacts>("company-standing", {
    maxSize: 10_000,
    ttlMs: STANDING_CACHE_TTL_MS,
  });
  /**
   * The CNAME target of one company: a name of its own under CUSTOM_DOMAIN_TARGET (the operator points
   * `*.target` at the app). A record pointing there proves the domain's owner chose this company, so
   * nobody can verify a domain whose CNAME a client created for another agency.
   */
  const targetOf = (companyId: string) =>
    `d-${createHmac("sha256", ctx.config.appKey).update(`custom-domain:${companyId}`).digest("hex").slice(0, 16)}.${ctx.config.customDomains.target}`;
  const domainFacts = (companyId: string, problem: string | null = null) => ({ target: targetOf(companyId), problem });

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

  /**
   * 422 when the domain is this app's own host or another company has verified it. A claim someone else
   * typed but never proved does not count: the real owner must be able to add the domain anyway.
   */
  async function checkDomainFree(companyId: string, domain: string): Promise<void> {
    const { ownHost, target } = ctx.config.customDomains;
    // Our own names (the app's host, the CNAME targets under it) are never a company's domain.
    if (domain === ownHost || domain === target || domain.endsWith(`.${target}`)) {
      throw AppError.validation({ domain_cname: [CUSTOM_DOMAIN_MESSAGES.ownHost] });
    }
    const holder = await repo.findByVerifiedDomain(domain);
    if (holder && holder.id !== companyId) throw AppError.validation({ domain_cname: [CUSTOM_DOMAIN_MESSAGES.taken] });
  }

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
      await repo.update(companyId, {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.domain !== undefined && { domain: input.domain }),
        ...(input.phone !== undefined && { phone: input.phone }),
        ...(input.site_title !== undefined && { site_title: input.site_title || null }),
        ...(logoPath !== undefined && { logo: logoPath }),
        ...(input.remove_logo && !logoPath && { logo: null }),
        // A new domain has no CNAME found yet: it serves nothing until verified again.
        ...(domainChanged && { domain_cname: input.domain_cname, domain_verified_at: null }),
      });
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
      await repo.update(companyId, {
        billing_name: input.name,
        billing_address: input.address,
        billing_postal_code: input.postal_code,
        billing_city: input.city,
        billing_country: input.country,
        vat_id: input.vat_id,
      });
      onAccountChange();
      return this.get(companyId);
    },

    /**
     * Verify (docs/product.md §3 domainCname): a real DNS look-up of the domain's CNAME (DNS_SERVERS, or
     * the system's resolvers). Found pointing at our target: verified from now on. Not found: the answer
     * says why, and an earlier verification stays (a DNS hiccup must not take a live domain down; only a
     * new domain clears it).
     */
    async verifyDomain(companyId: string): Promise<TCompany> {
      const row = await load(companyId);
      if (!row.domain_cname) throw AppError.validation({ domain_cname: [CUSTOM_DOMAIN_MESSAGES.notSet] });
      const [check] = await checkRecords(
        [{ kind: "custom-domain", type: "CNAME", host: row.domain_cname, value: targetOf(companyId) }],
        ctx.config.sender.dnsServers,
      );
      if (check.verified) {
        // The DNS is the truth today: a company verified earlier whose CNAME no longer points at it loses
        // the domain to the one it points at now (its target is this company's own).
        await repo.unverifyDomainForOthers(row.domain_cname, companyId);
        await repo.update(companyId, { domain_verified_at: nowIso() }).catch((error: unknown) => {
          // Another verification of the same host won the race between the two statements.
          if (isUniqueViolation(error)) throw AppError.validation({ domain_cname: [CUSTOM_DOMAIN_MESSAGES.taken] });
          throw error;
        });
        await hosts.clear();
      }
      return presentCompany(
        await load(companyId),
        await usage(companyId),
        ctx.config.siteTitle,
        domainFacts(companyId, check.problem),
        ctx.clock.now(),
      );
    },

    /**
     * The company whose verified custom domain `host` is (lower case, no port), or null: the app's own
     * host and unknown hosts are served as usual. Cached briefly; every change clears the cache.
     */
    /** Our own host, single-label names and IPv4 addresses are never a company's domain: no look-up. */
    mayBeCustomHost(host: string): boolean {
      return host !== "" && host !== ctx.config.customDomains.ownHost && host.includes(".") && !/^[\d.]+$/.test(host);
    },

    async forHost(host: string): Promise<HostCompany | null> {
      if (!this.mayBeCustomHost(host)) return null;
      const cached = await hosts.get(host);
      if (cached) return cached.company;
      const row = await repo.findByVerifiedDomain(host);
      // Without a site title of its own the company's name stands in: never the product's name there.
      const company = row ? { companyId: row.id, siteTitle: row.site_title || row.name } : null;
      await hosts.set(host, { company });
      return company;
    },

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
      return this.setState(companyId, {
        state: "canceled",
        cancellation: JSON.stringify({ ...input.cancellation, at: nowIso() }),
        ...(row.subscription_id && row.next_charge_at && { expires_at: row.next_charge_at, next_charge_at: null }),
      });
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
