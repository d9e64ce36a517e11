import {
  type AlertState,
  alertDedupeKey,
  type DailyValue,
  type DomainMetricKey,
  effectiveRules,
  evaluateRule,
  MAX_NO_DATA_DAYS,
  nextAlertState,
  REALTIME_EVENTS,
  STOCK_TOLERANCE_DAYS,
  shiftDay,
  snoozeEndedSince,
  type TAlertRule,
  type TAlertRuleOverride,
  type TCampaignAlertsUpdated,
  ZAlertRuleOverride,
} from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import type { CampaignAlertsTable } from "../../infra/db/schema";
import { isUniqueViolation } from "../../infra/errors";
import { newId } from "../../infra/security";
import { alertSettings, parseJson } from "./alert-settings";
import { type AlertsRepo, alertsRepo, type DomainForEvaluation } from "./alerts-repo";
import type { CampaignMetrics } from "./metrics";

/** Days of stored values an evaluation reads: two 30-day windows, the stock tolerance, the longest silence. */
const HISTORY_DAYS = Math.max(2 * 30 + STOCK_TOLERANCE_DAYS, MAX_NO_DATA_DAYS) + 1;

const ZStoredOverrides = z.array(ZAlertRuleOverride);

/** A group's overrides of the company's rules, as stored in `campaigns.alert_settings`. */
export function parseOverrides(text: string | null): TAlertRuleOverride[] {
  return parseJson(text, ZStoredOverrides, []);
}

export interface EvaluationResult {
  /** Domains judged (a domain without stored values yet is skipped). */
  evaluated: number;
  opened: number;
  resolved: number;
}

/**
 * Mission Control alerts (docs/decisions.md, "Mission Control alerts"): the company's rules and digest setting, and the evaluation
 * that turns each domain's stored daily values into open and resolved alerts. It runs after every
 * snapshot and backfill, when a snooze ends and when rules change; each change is pushed to the
 * company's open pages.
 */
export function campaignAlerts(ctx: AppContext, metrics: CampaignMetrics, repo: AlertsRepo = alertsRepo(ctx.db)) {
  const { settings, saveSettings } = alertSettings(ctx, repo);

  /** Judges one domain's rules against its series; returns the transitions it caused. */
  async function judgeDomain(
    companyId: string,
    domain: DomainForEvaluation,
    rules: readonly TAlertRule[],
    series: Map<DomainMetricKey, DailyValue[]>,
    providerLatest: string,
    open: Map<string, CampaignAlertsTable>,
    now: Date,
  ): Promise<{ opened: number; resolved: number }> {
    let opened = 0;
    let resolved = 0;
    const at = now.toISOString();
    // Change rules are judged as of the domain's own latest stored day (a late snapshot must not read
    // as a fall); no-data rules as of the provider's latest complete day (that is what "no data" means).
    let asOf = "";
    for (const values of series.values()) for (const value of values) if (value.day > asOf) asOf = value.day;
    const afresh = snoozeEndedSince(domain.alerts_snoozed_until, domain.alerts_evaluated_at, now);
    const judged = new Set<string>();
    for (const rule of rules) {
      const key = alertDedupeKey(domain.id, rule.id);
      judged.add(key);
      const day = rule.condition === "noDataFor" ? providerLatest : asOf;
      const evaluation = evaluateRule(rule, series.get(rule.metric) ?? [], day);
      const row = open.get(key);
      // A pass counts once per day of data: judging again the same day (an edit, an un-snooze) must not
      // walk an alert through its two passes in minutes.
      if (row && !evaluation.failing && !afresh && row.evaluated_day === day) continue;
      const previous: AlertState | null = row
        ? { status: "open", openedAt: row.opened_at, resolvedAt: null, passes: row.passing_count }
        : null;
      const next = nextAlertState(previous, evaluation.failing, now, afresh);
      const observed = JSON.stringify(evaluation.observed);
      if (next.transition === "opened") {
        try {
          await repo.insertAlert({
            id: newId(),
            company_id: companyId,
            campaign_domain_id: domain.id,
            rule: rule.id,
            dedupe_key: key,
            state: "open",
            opened_at: at,
            resolved_at: null,
            reason: evaluation.reason ?? rule.id,
            passing_count: 0,
            metric: rule.metric,
            observed,
            evaluated_day: day,
          });
          opened += 1;
        } catch (error) {
          // Another evaluation opened it a moment ago (the partial unique index): one alert, as meant.
          if (!isUniqueViolation(error)) throw error;
        }
      } else if (row && next.state) {
        const patch = {
          state: next.state.status,
          resolved_at: next.state.resolvedAt,
          passing_count: next.state.passes,
          observed,
          evaluated_day: day,
          // The reason follows the latest failing evaluation ("fell to 700" today, not last week's 900).
          ...(evaluation.reason ? { reason: evaluation.reason } : {}),
        };
        await repo.updateAlert(companyId, row.id, patch);
        if (next.transition === "resolved") resolved += 1;
      }
    }
    // An open alert whose rule is gone (deleted, turned off, or its metric no longer delivered) resolves now.
    for (const [key, row] of open) {
      if (!key.startsWith(`${domain.id}:`) || judged.has(key)) continue;
      await repo.updateAlert(companyId, row.id, { state: "resolved", resolved_at: at });
      resolved += 1;
    }
    return { opened, resolved };
  }
  /**
   * Judges the rules of some domains of a company (every domain when `domainIds` is null) against their
   * stored values, opens and resolves alerts, and tells the company's open pages what changed.
   */
  async function evaluate(companyId: string, domainIds: readonly string[] | null = null): Promise<EvaluationResult> {
    const now = ctx.clock.now();
    const companyRules = (await settings(companyId)).rules;
    const domains = await repo.domainsForEvaluation(companyId, domainIds);
    const result: EvaluationResult = { evaluated: 0, opened: 0, resolved: 0 };
    const changedGroups = new Set<string>();
    const bySource = new Map<string, DomainForEvaluation[]>();
    for (const domain of domains) {
      const list = bySource.get(domain.metrics_source) ?? [];
      list.push(domain);
      bySource.set(domain.metrics_source, list);
    }
    for (const [source, sourceDomains] of bySource) {
      const provider = metrics.providerFor(source);
      if (!provider) continue;
      const ids = sourceDomains.map((domain) => domain.id);
      const providerLatest = provider.latestCompleteDay();
      const history = await metrics.history(companyId, ids, provider.id, shiftDay(providerLatest, -HISTORY_DAYS));
      const open = new Map((await repo.openAlerts(companyId, ids)).map((row) => [row.dedupe_key, row]));
      const judged: string[] = [];
      for (const domain of sourceDomains) {
        const series = history.get(domain.id);
        // Nothing stored yet (its backfill is still to run): nothing to judge, and no "no data" alert.
        if (!series) continue;
        // A disabled rule is left out, so its open alert resolves at once like a deleted rule's: turning a
        // rule off is the agency saying it does not want to hear about it.
        const rules = effectiveRules(companyRules, parseOverrides(domain.alert_settings)).filter(
          (rule) => rule.enabled && provider.metrics.includes(rule.metric),
        );
        const changes = await judgeDomain(companyId, domain, rules, series, providerLatest, open, now);
        judged.push(domain.id);
        result.opened += changes.opened;
        result.resolved += changes.resolved;
        if (changes.opened + changes.resolved > 0) changedGroups.add(domain.campaign_id);
      }
      await repo.setEvaluatedAt(companyId, judged, now.toISOString());
      result.evaluated += judged.length;
    }
    if (changedGroups.size > 0) {
      const message: TCampaignAlertsUpdated = {
        campaign_ids: [...changedGroups].sort(),
        opened: result.opened,
        resolved: result.resolved,
      };
      await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.campaignAlertsUpdated, message);
    }
    return result;
  }

  return {
    evaluate,
    settings,
    /** Domains of the company whose snooze ended since they were last judged. */
    snoozeEnded: (companyId: string) => repo.snoozeEnded(companyId, ctx.clock.now().toISOString()),
    saveSettings,
  };
}

export type CampaignAlerts = ReturnType<typeof campaignAlerts>;
