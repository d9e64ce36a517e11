import { billingStanding, REALTIME_EVENTS, type TCompany, type TCompanyDelete } from "@app/core";
import { broadcastToCompany } from "../../infra/broadcast";
import type { Db } from "../../infra/db";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import { companyChanged } from "../audit/events";
import type { CompanyDeps, CompanyStatePatch } from "./deps";
import { companiesRepo } from "./repo";

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

/**
 * The company's subscription state: its standing now, cancellation or deletion, and the one door every
 * change of its state goes through.
 */
export function subscriptionStateUseCases(
  { ctx, repo, audit, hosts, standingFacts, onAccountChange, canceller, load }: CompanyDeps,
  get: (companyId: string) => Promise<TCompany>,
) {
  return {
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
      const company = await get(companyId);
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
