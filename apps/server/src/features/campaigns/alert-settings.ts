import {
  ALERT_DIGEST_FREQUENCIES,
  type AlertDigestFrequency,
  DEFAULT_ALERT_DIGEST,
  DEFAULT_ALERT_RULES,
  type TCampaignAlertSettings,
  ZAlertRule,
} from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { AlertsRepo } from "./alerts-repo";

const ZStoredRules = z.array(ZAlertRule);

/** JSON written by this or a later version; anything unreadable falls back rather than failing a page. */
export function parseJson<T>(text: string | null, schema: z.ZodType<T>, fallback: T): T {
  if (!text) return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The company's alert rules and digest setting (docs/decisions.md, "Mission Control alerts"): the
 * defaults until the company saves its own; the evaluation in alerts.ts judges by them.
 */
export function alertSettings(ctx: Pick<AppContext, "clock">, repo: AlertsRepo) {
  async function settings(companyId: string): Promise<TCampaignAlertSettings> {
    const row = await repo.settings(companyId);
    const digest = ALERT_DIGEST_FREQUENCIES.find((value) => value === row?.digest) ?? DEFAULT_ALERT_DIGEST;
    const rules = parseJson(row?.rules ?? null, ZStoredRules, [...DEFAULT_ALERT_RULES]);
    return { rules: rules.length > 0 ? rules : [...DEFAULT_ALERT_RULES], digest };
  }

  return {
    settings,
    async saveSettings(companyId: string, input: TCampaignAlertSettings): Promise<TCampaignAlertSettings> {
      await repo.saveSettings({
        company_id: companyId,
        rules: JSON.stringify(input.rules),
        digest: input.digest satisfies AlertDigestFrequency,
        updated_at: ctx.clock.now().toISOString(),
      });
      return settings(companyId);
    },
  };
}
