import {
  CAMPAIGN_MESSAGES,
  DEFAULT_CAMPAIGN_METRICS_SOURCE,
  ROLE_ADMIN,
  type TAlertRuleOverride,
  type TCampaign,
  type TCampaignAlertSettings,
  type TCampaignInput,
} from "@app/core";
import { AppError } from "../../infra/errors";
import { newId } from "../../infra/security";
import type { Actor } from "../users/service";
import type { CampaignDeps } from "./deps";
import type { viewUseCases } from "./view";

/** Creating, renaming and deleting groups is for admins (docs/product.md §6: group creation is admin only). */
const ADMIN_ONLY = "Only an admin can create, rename or delete groups.";
export const ADMIN_SETTINGS = "Only an admin can change the alert rules.";

/** Creating, changing and deleting groups (the admin's): their name, metrics source and alert overrides. */
export function groupUseCases(
  { repo, providers, metrics, alerts, alertJobs, now, load, orFieldError }: CampaignDeps,
  { present }: ReturnType<typeof viewUseCases>,
) {
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

  /** Names are unique per company, ignoring case ("Acme" and "acme" would be two rows nobody tells apart). */
  async function assertNameFree(actor: Actor, name: string, exceptId: string | null) {
    if (await repo.findByName(actor.companyId, name, exceptId)) {
      throw AppError.validation({ name: [CAMPAIGN_MESSAGES.nameTaken] });
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
  };
}
