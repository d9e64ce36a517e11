import {
  CAMPAIGN_MESSAGES,
  type ChangeWindow,
  effectiveRules,
  type TCampaign,
  type TCampaignDomain,
  type TCampaignSummary,
} from "@app/core";
import { AppError } from "../../infra/errors";
import type { Actor } from "../users/service";
import { parseOverrides } from "./alerts";
import type { CampaignDeps } from "./deps";
import { presentCampaign, presentCampaignDomain, presentCampaignSummary } from "./presenter";

/** Reading groups: the list, one group with its domains and metrics, and one domain, as the API shows them. */
export function viewUseCases({ repo, metrics, alerts, alertRows, now, load, onboardingFact }: CampaignDeps) {
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

  return {
    present,
    presentDomain,
    useCases: {
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
    },
  };
}
