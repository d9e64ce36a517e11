import { REALTIME_EVENTS, type TCompany, type TCompanyDelete, type TCompanyUpdate } from "@app/core";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import type { Db } from "../../infra/db";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import { type Storage, storeImage } from "../../infra/storage";
import { type CompanyUsage, presentCompany } from "./presenter";
import { companiesRepo } from "./repo";

export const TRIAL_DAYS = 14;

/** Usage counters other features report (dashboards, groups); registered at start-up. */
export type UsageCounter = (companyId: string) => Promise<Partial<CompanyUsage>>;

/** Company rows as other features read them (an inviter's company name), never through the companies repo. */
export function companyRecords(db: Db) {
  const repo = companiesRepo(db);
  return { find: (companyId: string) => repo.find(companyId) };
}

export function companiesService(
  ctx: AppContext,
  storage: Storage,
  usageCounters: UsageCounter[] = [],
  onAccountChange: () => void = () => {},
) {
  const repo = companiesRepo(ctx.db);

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

  return {
    /** Creates a company in its trial (registration), on `db` (the registration's transaction) when given. */
    async createInTrial(
      input: { id: string; name: string; dashboards: number; interval: number },
      db: Db = ctx.db,
    ): Promise<void> {
      const now = new Date();
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
        subscription_interval: null,
        discount: 0,
        cancellation: null,
        created_at: now.toISOString(),
      });
    },

    async get(companyId: string): Promise<TCompany> {
      return presentCompany(await load(companyId), await usage(companyId), ctx.config.siteTitle);
    },

    /** Raw facts for rules that need more than the presented shape (messages, limits). */
    load,

    async update(companyId: string, input: TCompanyUpdate, logo: Buffer | null): Promise<TCompany> {
      const current = await load(companyId);
      // Store the new logo first: a bad file fails the whole request before anything is written.
      const logoPath = logo ? await storeImage(storage, companyId, logo, "logo") : undefined;
      await repo.update(companyId, {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.domain !== undefined && { domain: input.domain }),
        ...(input.phone !== undefined && { phone: input.phone }),
        ...(input.site_title !== undefined && { site_title: input.site_title || null }),
        ...(logoPath !== undefined && { logo: logoPath }),
        ...(input.remove_logo && !logoPath && { logo: null }),
      });
      if (current.logo && (logoPath || input.remove_logo)) await storage.remove(companyId, current.logo);
      onAccountChange();
      return this.get(companyId);
    },

    /**
     * docs/product.md §7 DELETE /api/company: with `delete` the company and everything it owns goes
     * (returns null); otherwise the subscription is canceled and the reason kept.
     */
    async deleteOrCancel(companyId: string, input: TCompanyDelete): Promise<TCompany | null> {
      await load(companyId);
      if (input.delete) {
        await repo.delete(companyId);
        onAccountChange();
        return null;
      }
      await repo.update(companyId, {
        state: "canceled",
        cancellation: JSON.stringify({ ...input.cancellation, at: nowIso() }),
      });
      onAccountChange();
      const company = await this.get(companyId);
      // docs/product.md §4 CompanySubscriptionUpdated: members' browsers update the company and its banners.
      const { state, services } = company;
      await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.subscriptionUpdated, { state, services });
      return company;
    },
  };
}

export type CompaniesService = ReturnType<typeof companiesService>;
