import {
  CAMPAIGN_MESSAGES,
  type ChangeWindow,
  DEFAULT_CAMPAIGN_METRICS_SOURCE,
  DOMAIN_MESSAGES,
  effectiveRules,
  ROLE_ADMIN,
  snoozeUntil,
  type TAlertRuleOverride,
  type TCampaign,
  type TCampaignAlertSettings,
  type TCampaignDomain,
  type TCampaignInput,
  type TCampaignSummary,
} from "@app/core";
import type { AppContext } from "../../context";
import { AppError, isUniqueViolation } from "../../infra/errors";
import type { McOnboardingEvent } from "../../infra/events";
import { newId } from "../../infra/security";
import type { SenderLookup } from "../automatic-reports/delivery";
import type { SourcesService } from "../sources/service";
import type { Actor } from "../users/service";
import { campaignAlertJobs, type DigestWidgetAlerts } from "./alert-jobs";
import { campaignAlerts, parseOverrides } from "./alerts";
import { alertsRepo } from "./alerts-repo";
import { campaignMetrics } from "./metrics";
import { presentCampaign, presentCampaignDomain, presentCampaignSummary } from "./presenter";
import { metricsProviders } from "./providers";
import { type CampaignRow, campaignsRepo } from "./repo";

/** Creating, renaming and deleting groups is for admins (docs/product.md §6: group creation is admin only). */
const ADMIN_ONLY = "Only an admin can create, rename or delete groups.";
const ADMIN_SETTINGS = "Only an admin can change the alert rules.";

/**
 * Mission Control groups (docs/product.md §1: groups track domains, alerts can be snoozed for a week) and their
 * domains. The group itself is the admin's (docs/product.md §6 makes its creation admin only, and renaming or
 * deleting it undoes that work); the domains in it are every member's to add, remove and snooze, as
 * the spec lists nothing else about groups as admin only and the mc onboarding asks any new user to
 * add and snooze a domain.
 */
export function campaignsService(
  ctx: AppContext,
  sources?: () => SourcesService,
  sender: SenderLookup = async () => ({ fromName: ctx.config.siteTitle }),
  // The digest lists open widget alerts too (docs/decisions.md "Widget alerts on the dashboard").
  widgetAlerts?: () => DigestWidgetAlerts,
) {
  const repo = campaignsRepo(ctx.db);
  const providers = metricsProviders(ctx, sources);
  const alertRows = alertsRepo(ctx.db);
  const metrics = campaignMetrics(ctx, repo, providers, {
    // Every stored snapshot or backfill is judged at once (docs/decisions.md, "Mission Control alerts": evaluated after each snapshot job).
    afterStore: (companyId, domainIds) => alerts.evaluate(companyId, domainIds).then(() => undefined),
  });
  const alerts = campaignAlerts(ctx, metrics, alertRows);
  const alertJobs = campaignAlertJobs(ctx, alerts, alertRows, sender, () => repo.companiesWithDomains(), widgetAlerts);
  const now = () => ctx.clock.now().toISOString();

  /** A source this server cannot use (Ahrefs without MC_AHREFS_KEY) is refused on the field, in words. */
  function assertSourceAvailable(source: string) {
    const option = providers.options().find((entry) => entry.id === source);
    if (option && !option.available) {
      throw AppError.validation({ metrics_source: [option.reason ?? CAMPAIGN_MESSAGES.metricsSource] });
    }
  }

  function requireAdmin(actor: Actor) {
    if (actor.roleName !== ROLE_ADMIN) throw AppError.forbidden(ADMIN_ONLY);
  }

  /** The company's group, or 404 (another company's group is not found, never forbidden). */
  async function load(actor: Actor, id: string): Promise<CampaignRow> {
    const row = await repo.find(actor.companyId, id, now());
    if (!row) throw AppError.notFound(CAMPAIGN_MESSAGES.notFound);
    return row;
  }

  async function present(actor: Actor, id: string, window: ChangeWindow = 7): Promise<TCampaign> {
    const at = now();
    const row = await load(actor, id);
    const domains = await repo.domains(actor.companyId, id, at);
    const values = await metrics.forDomains(
      actor.companyId,
      domains.map((domain) => domain.id),
      row.metrics_source,
      window,
    );
    const overrides = parseOverrides(row.alert_settings);
    const { rules } = await alerts.settings(actor.companyId);
    return presentCampaign(row, domains, at, {
      window,
      label: metrics.labelOf(row.metrics_source),
      metrics: values,
      alerts: await alertRows.openAlerts(
        actor.companyId,
        domains.map((domain) => domain.id),
      ),
      rules: effectiveRules(rules, overrides),
      overrides,
    });
  }

  async function presentDomain(actor: Actor, campaignId: string, id: string): Promise<TCampaignDomain> {
    const at = now();
    const row = await repo.findDomain(actor.companyId, campaignId, id, at);
    if (!row) throw AppError.notFound(CAMPAIGN_MESSAGES.domainNotFound);
    return presentCampaignDomain(row, at);
  }

  /** Names are unique per company, ignoring case ("Acme" and "acme" would be two rows nobody tells apart). */
  async function assertNameFree(actor: Actor, name: string, exceptId: string | null) {
    if (await repo.findByName(actor.companyId, name, exceptId)) {
      throw AppError.validation({ name: [CAMPAIGN_MESSAGES.nameTaken] });
    }
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

  async function setSnooze(actor: Actor, campaignId: string, id: string, until: string | null) {
    await load(actor, campaignId);
    if (!(await repo.setSnoozedUntil(actor.companyId, campaignId, id, until))) {
      throw AppError.notFound(CAMPAIGN_MESSAGES.domainNotFound);
    }
    return presentDomain(actor, campaignId, id);
  }

  /** Tells the onboarding work what the user just did; a lost fact never fails the user's request. */
  async function onboardingFact(actor: Actor, event: McOnboardingEvent) {
    try {
      await ctx.events.publish("onboarding.event", { companyId: actor.companyId, userId: actor.id, flow: "mc", event });
    } catch (error) {
      ctx.logger.warn({ err: error, event }, "onboarding event not published");
    }
  }

  /** Each override must name a rule the company has: a typo would otherwise be kept and never apply. */
  function checkOverrides(overrides: readonly TAlertRuleOverride[], rules: TCampaignAlertSettings["rules"]) {
    const ids = new Set(rules.map((rule) => rule.id));
    const errors: Record<string, string[]> = {};
    overrides.forEach((override, index) => {
      if (!ids.has(override.id)) errors[`alert_overrides.${index}.id`] = [CAMPAIGN_MESSAGES.overrideUnknown];
    });
    if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  }

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

    /** GET /api/campaigns: every group of the company with its domain and open-alert counts. */
    async list(actor: Actor): Promise<TCampaignSummary[]> {
      return (await repo.list(actor.companyId, now())).map(presentCampaignSummary);
    },

    /** GET /api/campaigns/{id}?window=7|30: the group with its domains and their metrics. */
    async get(actor: Actor, id: string, window: ChangeWindow = 7): Promise<TCampaign> {
      const group = await present(actor, id, window);
      // The page opens on 7 days, so asking for 30 is the user switching the toggle (mc step 3→4).
      if (window === 30) await onboardingFact(actor, "window_switched");
      return group;
    },

    /** POST /api/campaigns (admin only). */
    async create(actor: Actor, input: TCampaignInput): Promise<TCampaign> {
      requireAdmin(actor);
      if (input.metrics_source) assertSourceAvailable(input.metrics_source);
      await assertNameFree(actor, input.name, null);
      const id = newId();
      const at = now();
      await orFieldError(
        () =>
          repo.insert({
            id,
            company_id: actor.companyId,
            name: input.name,
            created_by: actor.id,
            alert_settings: null,
            // Never demo unless asked for: the server's key when it has one, else the connected sources.
            metrics_source:
              input.metrics_source ??
              (providers.options().find((option) => option.id === "ahrefs")?.available
                ? "ahrefs"
                : DEFAULT_CAMPAIGN_METRICS_SOURCE),
            created_at: at,
            updated_at: at,
          }),
        "name",
        CAMPAIGN_MESSAGES.nameTaken,
      );
      return present(actor, id);
    },

    /**
     * PUT /api/campaigns/{id} (admin only): renames the group and, when given, changes its metrics
     * source; a new source fetches each domain's history from it (the old source's values stay, unread).
     */
    async update(actor: Actor, id: string, input: TCampaignInput): Promise<TCampaign> {
      requireAdmin(actor);
      const before = await load(actor, id);
      // Only a change is checked: a group keeps its source when the server loses the key (no_provider).
      if (input.metrics_source && input.metrics_source !== before.metrics_source) {
        assertSourceAvailable(input.metrics_source);
      }
      await assertNameFree(actor, input.name, id);
      if (input.alert_overrides) checkOverrides(input.alert_overrides, (await alerts.settings(actor.companyId)).rules);
      const patch = {
        name: input.name,
        ...(input.metrics_source && { metrics_source: input.metrics_source }),
        // [] clears the group's overrides: its domains follow the company's rules again.
        ...(input.alert_overrides && {
          alert_settings: input.alert_overrides.length > 0 ? JSON.stringify(input.alert_overrides) : null,
        }),
      };
      await orFieldError(() => repo.update(actor.companyId, id, patch, now()), "name", CAMPAIGN_MESSAGES.nameTaken);
      if (input.alert_overrides)
        await alertJobs.enqueueEvaluation(actor.companyId, await repo.domainIds(actor.companyId, id));
      if (input.metrics_source && input.metrics_source !== before.metrics_source) {
        for (const domainId of await repo.domainIds(actor.companyId, id)) {
          await metrics.enqueueBackfill(actor.companyId, domainId, input.metrics_source);
        }
      }
      return present(actor, id);
    },

    /** DELETE /api/campaigns/{id} (admin only): the group, its domains and their values and alerts. */
    async remove(actor: Actor, id: string): Promise<void> {
      requireAdmin(actor);
      if (!(await repo.delete(actor.companyId, id))) throw AppError.notFound(CAMPAIGN_MESSAGES.notFound);
    },

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

export type CampaignsService = ReturnType<typeof campaignsService>;
