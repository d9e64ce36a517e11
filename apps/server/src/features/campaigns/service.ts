import {
  CAMPAIGN_MESSAGES,
  CAMPAIGN_SNOOZE_DAYS,
  type ChangeWindow,
  DEFAULT_CAMPAIGN_METRICS_SOURCE,
  DOMAIN_MESSAGES,
  ROLE_ADMIN,
  type TCampaign,
  type TCampaignDomain,
  type TCampaignInput,
  type TCampaignSummary,
} from "@app/core";
import type { AppContext } from "../../context";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { newId } from "../../infra/security";
import type { Actor } from "../users/service";
import { campaignMetrics } from "./metrics";
import { presentCampaign, presentCampaignDomain, presentCampaignSummary } from "./presenter";
import { type CampaignRow, campaignsRepo } from "./repo";

const DAY_MS = 24 * 3600 * 1000;

/** Creating, renaming and deleting groups is for admins (docs/product.md §6: group creation is admin only). */
const ADMIN_ONLY = "Only an admin can create, rename or delete groups.";

/**
 * Mission Control groups (docs/product.md §1: groups track domains, alerts can be snoozed for a week) and their
 * domains. The group itself is the admin's (docs/product.md §6 makes its creation admin only, and renaming or
 * deleting it undoes that work); the domains in it are every member's to add, remove and snooze, as
 * the spec lists nothing else about groups as admin only and the mc onboarding asks any new user to
 * add and snooze a domain.
 */
export function campaignsService(ctx: AppContext) {
  const repo = campaignsRepo(ctx.db);
  const metrics = campaignMetrics(ctx, repo);
  const now = () => ctx.clock.now().toISOString();

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
    return presentCampaign(row, domains, at, {
      window,
      label: metrics.labelOf(row.metrics_source),
      metrics: values,
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

  return {
    /** The snapshot jobs (features/campaigns/metrics.ts); tests run their handlers directly. */
    jobs: metrics.jobs,
    metrics,

    /** campaignsCount of the company (docs/product.md §3): its groups. */
    count: (companyId: string) => repo.count(companyId),

    /** GET /api/campaigns: every group of the company with its domain and open-alert counts. */
    async list(actor: Actor): Promise<TCampaignSummary[]> {
      return (await repo.list(actor.companyId, now())).map(presentCampaignSummary);
    },

    /** GET /api/campaigns/{id}?window=7|30: the group with its domains and their metrics. */
    get: (actor: Actor, id: string, window: ChangeWindow = 7) => present(actor, id, window),

    /** POST /api/campaigns (admin only). */
    async create(actor: Actor, input: TCampaignInput): Promise<TCampaign> {
      requireAdmin(actor);
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
            // "demo" while no other provider exists (core's DEFAULT_CAMPAIGN_METRICS_SOURCE).
            metrics_source: input.metrics_source ?? DEFAULT_CAMPAIGN_METRICS_SOURCE,
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
      await assertNameFree(actor, input.name, id);
      const patch = input.metrics_source
        ? { name: input.name, metrics_source: input.metrics_source }
        : { name: input.name };
      await orFieldError(() => repo.update(actor.companyId, id, patch, now()), "name", CAMPAIGN_MESSAGES.nameTaken);
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
            created_at: now(),
          }),
        "domain",
        DOMAIN_MESSAGES.duplicate,
      );
      // Its last 60 days, so the 7- and 30-day changes show as soon as the job has run.
      await metrics.enqueueBackfill(actor.companyId, id, group.metrics_source);
      // TODO(mc onboarding, issue 11 §5): the mc flow's 2→3 step ("domain added"). The server has no
      // onboarding hook yet: the web app advances the step and saves it through POST /api/user/data.
      // When one exists, emit it here (after the history backfill is queued).
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
      const until = new Date(ctx.clock.now().getTime() + CAMPAIGN_SNOOZE_DAYS * DAY_MS).toISOString();
      // TODO(mc onboarding, issue 11 §5): the mc flow's 4→5 step ("domain snoozed"); see addDomain.
      return setSnooze(actor, campaignId, id, until);
    },

    /** DELETE …/snooze: shows the domain's alerts again at once. */
    unsnooze: (actor: Actor, campaignId: string, id: string) => setSnooze(actor, campaignId, id, null),
  };
}

export type CampaignsService = ReturnType<typeof campaignsService>;
