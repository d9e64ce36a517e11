import { createHmac } from "node:crypto";
import { CUSTOM_DOMAIN_MESSAGES, type TCompany } from "@app/core";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import { checkRecords } from "../sender/dns-check";
import { type CompanyUsage, presentCompany } from "./presenter";
import type { companiesRepo } from "./repo";
import type { HostCompany } from "./service";

/** The hosts cache companiesService keeps (service.ts): host → the company it serves, or none. */
interface HostsCache {
  get(host: string): Promise<{ company: HostCompany | null } | undefined>;
  set(host: string, value: { company: HostCompany | null }): Promise<void>;
  clear(): Promise<void>;
}

/**
 * A company's custom domain (docs/product.md §3 domainCname): the CNAME target it must point at, the check
 * that a domain is free, its verification by DNS, and which company a request's host serves. Part of
 * companiesService (service.ts), which hands over its repo, hosts cache and loaders.
 */
export function customDomains(
  ctx: AppContext,
  repo: ReturnType<typeof companiesRepo>,
  hosts: HostsCache,
  load: (companyId: string) => Promise<CompaniesTable>,
  usage: (companyId: string) => Promise<CompanyUsage>,
) {
  /**
   * The CNAME target of one company: a name of its own under CUSTOM_DOMAIN_TARGET (the operator points
   * `*.target` at the app). A record pointing there proves the domain's owner chose this company, so
   * nobody can verify a domain whose CNAME a client created for another agency.
   */
  const targetOf = (companyId: string) =>
    `d-${createHmac("sha256", ctx.config.appKey).update(`custom-domain:${companyId}`).digest("hex").slice(0, 16)}.${ctx.config.customDomains.target}`;
  const domainFacts = (companyId: string, problem: string | null = null) => ({ target: targetOf(companyId), problem });

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

  const methods = {
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
      if (!methods.mayBeCustomHost(host)) return null;
      const cached = await hosts.get(host);
      if (cached) return cached.company;
      const row = await repo.findByVerifiedDomain(host);
      // Without a site title of its own the company's name stands in: never the product's name there.
      const company = row ? { companyId: row.id, siteTitle: row.site_title || row.name } : null;
      await hosts.set(host, { company });
      return company;
    },
  };
  return { targetOf, domainFacts, checkDomainFree, methods };
}
