import type { TCampaignAlertSettings } from "@app/core";
import { ROLE_ADMIN } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { SenderLookup } from "../automatic-reports/delivery";
import type { SourcesService } from "../sources/service";
import type { Actor } from "../users/service";
import { campaignAlertJobs, type DigestWidgetAlerts } from "./alert-jobs";
import { campaignAlerts } from "./alerts";
import { alertsRepo } from "./alerts-repo";
import { type CampaignDeps, sharedHelpers } from "./deps";
import { domainUseCases } from "./domains";
import { ADMIN_SETTINGS, groupUseCases } from "./groups";
import { campaignMetrics } from "./metrics";
import { metricsProviders } from "./providers";
import { viewUseCases } from "./view";

/**
 * Mission Control groups (docs/product.md §1: groups track domains, alerts can be snoozed for a week) and their
 * domains. The group itself is the admin's (docs/product.md §6 makes its creation admin only, and renaming or
 * deleting it undoes that work); the domains in it are every member's to add, remove and snooze, as
 * the spec lists nothing else about groups as admin only and the mc onboarding asks any new user to
 * add and snooze a domain.
 * Assembled from its use cases, each in its own module of this folder: view.ts (the list, one group, one
 * domain), groups.ts (create, change, delete a group), domains.ts (add, remove, snooze a domain); deps.ts
 * holds what they share.
 */
export function campaignsService(
  ctx: AppContext,
  sources?: () => SourcesService,
  sender: SenderLookup = async () => ({ fromName: ctx.config.siteTitle }),
  // The digest lists open widget alerts too (docs/decisions.md "Widget alerts on the dashboard").
  widgetAlerts?: () => DigestWidgetAlerts,
) {
  const helpers = sharedHelpers(ctx);
  const { repo } = helpers;
  const providers = metricsProviders(ctx, sources);
  const alertRows = alertsRepo(ctx.db);
  const metrics = campaignMetrics(ctx, repo, providers, {
    // Every stored snapshot or backfill is judged at once (docs/decisions.md, "Mission Control alerts": evaluated after each snapshot job).
    afterStore: (companyId, domainIds) => alerts.evaluate(companyId, domainIds).then(() => undefined),
  });
  const alerts = campaignAlerts(ctx, metrics, alertRows);
  const alertJobs = campaignAlertJobs(ctx, alerts, alertRows, sender, () => repo.companiesWithDomains(), widgetAlerts);
  const deps: CampaignDeps = { ctx, providers, alertRows, metrics, alerts, alertJobs, ...helpers };
  const view = viewUseCases(deps);

  return {
    /** The snapshot and alert jobs (metrics.ts, alert-jobs.ts); tests run their handlers directly. */
    jobs: [...metrics.jobs, ...alertJobs.jobs],
    metrics,
    alerts,
    alertJobs,

    /** GET /api/campaigns/alert-settings: the company's rules (its own, or the defaults) and digest. */
    alertSettings: (actor: Actor) => alerts.settings(actor.companyId),

    /**
     * PUT /api/campaigns/alert-settings (admin only). Every domain is judged again by a job, so a
     * loosened rule lets its alerts resolve and a tightened one opens new ones without waiting a day.
     */
    async saveAlertSettings(actor: Actor, input: TCampaignAlertSettings): Promise<TCampaignAlertSettings> {
      if (actor.roleName !== ROLE_ADMIN) throw AppError.forbidden(ADMIN_SETTINGS);
      const saved = await alerts.saveSettings(actor.companyId, input);
      await alertJobs.enqueueEvaluation(actor.companyId, null);
      return saved;
    },

    /** campaignsCount of the company (docs/product.md §3): its groups. */
    count: (companyId: string) => repo.count(companyId),

    /** GET /api/campaigns/sources: the metrics sources the create form offers, with this server's availability. */
    metricsSources: () => providers.options(),

    ...view.useCases,
    ...groupUseCases(deps, view),
    ...domainUseCases(deps, view),
  };
}

export type CampaignsService = ReturnType<typeof campaignsService>;
