import { CAMPAIGN_MESSAGES, DOMAIN_MESSAGES, snoozeUntil, type TCampaignDomain } from "@app/core";
import { AppError } from "../../infra/errors";
import { newId } from "../../infra/security";
import type { Actor } from "../users/service";
import type { CampaignDeps } from "./deps";
import type { viewUseCases } from "./view";

/** The domains of a group (every member's): adding, removing, snoozing their alerts and showing them again. */
export function domainUseCases(
  { ctx, repo, metrics, alerts, alertJobs, now, load, orFieldError, onboardingFact }: CampaignDeps,
  { presentDomain }: ReturnType<typeof viewUseCases>,
) {
  async function setSnooze(actor: Actor, campaignId: string, id: string, until: string | null) {
    await load(actor, campaignId);
    if (!(await repo.setSnoozedUntil(actor.companyId, campaignId, id, until))) {
      throw AppError.notFound(CAMPAIGN_MESSAGES.domainNotFound);
    }
    return presentDomain(actor, campaignId, id);
  }

  return {
    /** POST /api/campaigns/{id}/domains: the domain arrives normalised by the contract; unique in the group. */
    async addDomain(actor: Actor, campaignId: string, domain: string): Promise<TCampaignDomain> {
      const group = await load(actor, campaignId);
      if (await repo.findDomainByHost(actor.companyId, campaignId, domain)) {
        throw AppError.validation({ domain: [DOMAIN_MESSAGES.duplicate] });
      }
      const id = newId();
      await orFieldError(
        () =>
          repo.insertDomain({
            id,
            company_id: actor.companyId,
            campaign_id: campaignId,
            domain,
            label: null,
            alerts_snoozed_until: null,
            alerts_evaluated_at: null,
            created_at: now(),
          }),
        "domain",
        DOMAIN_MESSAGES.duplicate,
      );
      // Its last 60 days, so the 7- and 30-day changes show as soon as the job has run.
      await metrics.enqueueBackfill(actor.companyId, id, group.metrics_source);
      await onboardingFact(actor, "domain_added");
      return presentDomain(actor, campaignId, id);
    },

    /** DELETE /api/campaigns/{id}/domains/{domainId}: the domain with its values and alerts. */
    async removeDomain(actor: Actor, campaignId: string, id: string): Promise<void> {
      await load(actor, campaignId);
      if (!(await repo.deleteDomain(actor.companyId, campaignId, id))) {
        throw AppError.notFound(CAMPAIGN_MESSAGES.domainNotFound);
      }
    },

    /**
     * POST …/snooze: hides the domain's alerts for a week from now (docs/product.md §1); snoozing again restarts
     * the week. Data keeps flowing; alerts are only hidden from counts and e-mails.
     */
    async snooze(actor: Actor, campaignId: string, id: string): Promise<TCampaignDomain> {
      const until = snoozeUntil(ctx.clock.now()).toISOString();
      const domain = await setSnooze(actor, campaignId, id, until);
      await onboardingFact(actor, "domain_snoozed");
      // Hidden alerts leave the group's count: the other open pages update their badges.
      await alertJobs.announce(actor.companyId, [campaignId]);
      return domain;
    },

    /**
     * DELETE …/snooze: shows the domain's alerts again at once. The snooze ends now rather than being
     * cleared, so the evaluation run here decides afresh (core's snoozeEndedSince): passes counted
     * before the snooze no longer matter.
     */
    async unsnooze(actor: Actor, campaignId: string, id: string): Promise<TCampaignDomain> {
      await setSnooze(actor, campaignId, id, now());
      await alerts.evaluate(actor.companyId, [id]);
      await alertJobs.announce(actor.companyId, [campaignId]);
      return presentDomain(actor, campaignId, id);
    },
  };
}
