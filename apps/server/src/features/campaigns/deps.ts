import { CAMPAIGN_MESSAGES } from "@app/core";
import type { AppContext } from "../../context";
import { AppError, isUniqueViolation } from "../../infra/errors";
import type { McOnboardingEvent } from "../../infra/events";
import type { Actor } from "../users/service";
import type { campaignAlertJobs } from "./alert-jobs";
import type { campaignAlerts } from "./alerts";
import type { alertsRepo } from "./alerts-repo";
import type { campaignMetrics } from "./metrics";
import type { metricsProviders } from "./providers";
import { type CampaignRow, campaignsRepo } from "./repo";

/**
 * What every use case of the groups service works with: the context, the repos, the metrics and alert
 * parts, and the helpers they share (below). `service.ts` builds it once and hands it to each use-case
 * module: view.ts (reading groups), groups.ts (creating, changing, deleting them), domains.ts.
 */
export interface CampaignDeps extends ReturnType<typeof sharedHelpers> {
  ctx: AppContext;
  providers: ReturnType<typeof metricsProviders>;
  alertRows: ReturnType<typeof alertsRepo>;
  metrics: ReturnType<typeof campaignMetrics>;
  alerts: ReturnType<typeof campaignAlerts>;
  alertJobs: ReturnType<typeof campaignAlertJobs>;
}

/** The repo and the helpers several use cases share: the time now, a member's group by id, a 422 from a unique index, an onboarding fact. */
export function sharedHelpers(ctx: AppContext) {
  const repo = campaignsRepo(ctx.db);
  const now = () => ctx.clock.now().toISOString();

  /** The company's group, or 404 (another company's group is not found, never forbidden). */
  async function load(actor: Actor, id: string): Promise<CampaignRow> {
    const row = await repo.find(actor.companyId, id, now());
    if (!row) throw AppError.notFound(CAMPAIGN_MESSAGES.notFound);
    return row;
  }

  /** A unique index caught what the check before could not (two requests at once): the same 422. */
  async function orFieldError<T>(write: () => Promise<T>, field: string, message: string): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.validation({ [field]: [message] });
      throw error;
    }
  }

  /** Tells the onboarding work what the user just did; a lost fact never fails the user's request. */
  async function onboardingFact(actor: Actor, event: McOnboardingEvent) {
    try {
      await ctx.events.publish("onboarding.event", { companyId: actor.companyId, userId: actor.id, flow: "mc", event });
    } catch (error) {
      ctx.logger.warn({ err: error, event }, "onboarding event not published");
    }
  }

  return { repo, now, load, orFieldError, onboardingFact };
}
