import type { CompanyBillingFacts } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { Storage } from "../../infra/storage";
import { auditLog } from "../audit/record";
import { accountUseCases } from "./account";
import { customDomains } from "./custom-domains";
import type { CompanyDeps, SubscriptionCanceller, UsageCounter } from "./deps";
import type { CompanyUsage } from "./presenter";
import { companiesRepo } from "./repo";
import { subscriptionStateUseCases } from "./subscription-state";

export { TRIAL_DAYS } from "./account";
export type { CompanyStatePatch, SubscriptionCanceller, UsageCounter } from "./deps";

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

/** Company rows as other features read them (an inviter's company name), never through the companies repo. */
export function companyRecords(db: Db) {
  const repo = companiesRepo(db);
  return { find: (companyId: string) => repo.find(companyId) };
}

/**
 * The companies service, assembled from its use cases, each in its own module of this folder: account.ts
 * (creation in trial, the settings and billing details), subscription-state.ts (standing, cancellation,
 * state changes) and custom-domains.ts; deps.ts holds what they share.
 */
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
  const deps: CompanyDeps = {
    ctx,
    storage,
    repo,
    audit,
    hosts,
    standingFacts,
    onAccountChange,
    canceller,
    load,
    usage,
    domainFacts,
    checkDomainFree,
  };
  const account = accountUseCases(deps);

  return {
    ...account,
    ...subscriptionStateUseCases(deps, (companyId) => account.get(companyId)),

    /** Raw facts for rules that need more than the presented shape (messages, limits). */
    load,

    ...domains.methods,
  };
}

export type CompaniesService = ReturnType<typeof companiesService>;
