import { z } from "zod";
import { ZAlertRule, ZAlertRuleOverride } from "../mission-control/alert-rules";
import type { ChangeWindow } from "../mission-control/change";
import { DOMAIN_MESSAGES, MAX_DOMAIN_INPUT, normaliseDomain } from "../mission-control/domain";
import { DOMAIN_METRIC_KEYS } from "../mission-control/metrics";
import { dataEnvelope } from "./common";

/** Longest group name (the form's limit and the column's). */
export const MAX_CAMPAIGN_NAME = 100;
/** How long "snooze for a week" hides a domain's alerts (docs/product.md §1). */
export const CAMPAIGN_SNOOZE_DAYS = 7;

/** Messages of the group form and of the group rules (docs/product.md forms wording). */
export const CAMPAIGN_MESSAGES = {
  nameRequired: "The name field is required.",
  nameMax: `The name may not be greater than ${MAX_CAMPAIGN_NAME} characters.`,
  nameTaken: "A group with this name already exists.",
  notFound: "Group not found.",
  domainNotFound: "Domain not found.",
  metricsSource: "The selected metrics source is invalid.",
  window: "The window must be 7 or 30 days.",
  digest: "The digest must be daily, weekly or off.",
  rules: "Give between 1 and 50 rules.",
  ruleIdTaken: "Two rules have the same id.",
  overrideUnknown: "No alert rule of the company has this id.",
} as const;

/** How often a company's admins get the digest of new and still-open alerts (in the company's time zone). */
export const ALERT_DIGEST_FREQUENCIES = ["daily", "weekly", "off"] as const;
export type AlertDigestFrequency = (typeof ALERT_DIGEST_FREQUENCIES)[number];
export const DEFAULT_ALERT_DIGEST: AlertDigestFrequency = "daily";
/** Most rules a company keeps: each is judged for every domain every day. */
export const MAX_ALERT_RULES = 50;

/**
 * Where a group's domain metrics come from: "sources" (the company's connected sources that cover each
 * domain), "ahrefs" (the server's own Ahrefs key, any domain, only when the server has one:
 * MC_AHREFS_KEY) and "demo" (believable made-up values). Demo is never a default: it must be chosen,
 * so made-up numbers are never taken for a client's. A group created without a source gets the server's
 * Ahrefs key when it has one, else the connected sources (DEFAULT_CAMPAIGN_METRICS_SOURCE).
 */
export const CAMPAIGN_METRICS_SOURCES = ["demo", "sources", "ahrefs"] as const;
export type CampaignMetricsSource = (typeof CAMPAIGN_METRICS_SOURCES)[number];
export const DEFAULT_CAMPAIGN_METRICS_SOURCE: CampaignMetricsSource = "sources";

export const ZCampaignMetricsSource = z.enum(CAMPAIGN_METRICS_SOURCES, { error: CAMPAIGN_MESSAGES.metricsSource });

/**
 * Whether a domain's metrics can be shown: `ready` (values stored), `backfilling` (added, its history
 * not fetched yet), `no_provider` (the group's source delivers nothing for it) or `not_covered` (the
 * source exists but nothing of it covers this domain: `metrics_hint` says what to connect).
 */
export const CAMPAIGN_METRICS_STATUSES = ["ready", "backfilling", "no_provider", "not_covered"] as const;

/** One metric of a domain over the chosen window, as core's computeChange gives it. */
export const ZDomainMetricChange = z.object({
  metric: z.enum(DOMAIN_METRIC_KEYS),
  /** The day the current value describes; null when there is no current value. */
  as_of: z.string().nullable(),
  current: z.number().nullable(),
  baseline: z.number().nullable(),
  /** current − baseline in the metric's unit (positions for rank). */
  change: z.number().nullable(),
  /** Null (shown as N/A, never 0 %) when there is no baseline or it is zero. */
  percent_change: z.number().nullable(),
  tone: z.enum(["good", "bad", "flat"]),
});
export type TDomainMetricChange = z.infer<typeof ZDomainMetricChange>;

/** An open alert of a domain, as the group page lists it. */
export const ZCampaignAlert = z.object({
  id: z.string(),
  /** The id of the rule that opened it (see the group's `alert_rules`). */
  rule: z.string(),
  metric: z.enum(DOMAIN_METRIC_KEYS).nullable(),
  /** What it saw, in words ("Clicks fell from 1,200 to 700 (−41.67%) in the last 7 days…"). */
  reason: z.string(),
  opened_at: z.string(),
});
export type TCampaignAlert = z.infer<typeof ZCampaignAlert>;

/** A domain a group tracks, as the API answers it. */
export const ZCampaignDomain = z.object({
  id: z.string(),
  campaign_id: z.string(),
  /** The normalised host: lower case, punycode, without www. */
  domain: z.string(),
  label: z.string().nullable(),
  /** Until when its alerts are hidden (ISO instant), or null; a past instant counts as not snoozed. */
  alerts_snoozed_until: z.string().nullable(),
  /** True while `alerts_snoozed_until` is in the future. */
  snoozed: z.boolean(),
  /** Its open alerts (0 while snoozed: they are hidden). */
  open_alert_count: z.number().int().min(0),
  created_at: z.string(),
});
export type TCampaignDomain = z.infer<typeof ZCampaignDomain>;

/** A domain on the group page: with its metrics over the chosen window. */
export const ZCampaignDomainWithMetrics = ZCampaignDomain.extend({
  metrics_status: z.enum(CAMPAIGN_METRICS_STATUSES),
  /** One entry per metric the group's source covers; empty unless `metrics_status` is `ready`. */
  metrics: z.array(ZDomainMetricChange),
  /** With `not_covered`: what to connect ("Connect Search Console, Google Analytics 4, Ahrefs or a rank tracker for acme.com"); else null. */
  metrics_hint: z.string().nullable(),
  /** Its open alerts, newest first; empty while the domain is snoozed (they are hidden, not gone). */
  alerts: z.array(ZCampaignAlert),
});
export type TCampaignDomainWithMetrics = z.infer<typeof ZCampaignDomainWithMetrics>;

/** A group in the groups list: its counts, not its domains. */
export const ZCampaignSummary = z.object({
  id: z.string(),
  name: z.string(),
  metrics_source: ZCampaignMetricsSource,
  domain_count: z.number().int().min(0),
  /** Open alerts of its domains that are not snoozed. */
  open_alert_count: z.number().int().min(0),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCampaignSummary = z.infer<typeof ZCampaignSummary>;

/** A group with its domains and their metrics over `window` days (the group page). */
export const ZCampaign = ZCampaignSummary.extend({
  window: z.union([z.literal(7), z.literal(30)]),
  /** What the values are, to show beside them ("Demo data"); null when the source has no provider. */
  metrics_label: z.string().nullable(),
  domains: z.array(ZCampaignDomainWithMetrics),
  /** The rules judging this group's domains: the company's, with the group's overrides applied. */
  alert_rules: z.array(ZAlertRule),
  /** The group's own changes to the company's rules (what its rules form edits). */
  alert_overrides: z.array(ZAlertRuleOverride),
});
export type TCampaign = z.infer<typeof ZCampaign>;

/** GET /api/campaigns/{id}?window=7|30: the 7/30-day toggle; 7 when absent. */
export const ZCampaignShowQuery = z.object({
  window: z
    // Query values arrive as text; the two of core's CHANGE_WINDOWS.
    .enum(["7", "30"], { error: CAMPAIGN_MESSAGES.window })
    .default("7")
    .transform((value): ChangeWindow => (value === "30" ? 30 : 7)),
});
export type TCampaignShowQuery = z.infer<typeof ZCampaignShowQuery>;

/**
 * POST and PUT /api/campaigns: the group's name and where its metrics come from (absent: "demo" on
 * create, unchanged on update).
 */
export const ZCampaignInput = z.strictObject({
  name: z
    .string({ error: CAMPAIGN_MESSAGES.nameRequired })
    .trim()
    .min(1, CAMPAIGN_MESSAGES.nameRequired)
    .max(MAX_CAMPAIGN_NAME, CAMPAIGN_MESSAGES.nameMax),
  metrics_source: ZCampaignMetricsSource.optional(),
  /** The group's changes to the company's alert rules; absent: unchanged, [] : none (the company's rules). */
  alert_overrides: z.array(ZAlertRuleOverride).max(MAX_ALERT_RULES, CAMPAIGN_MESSAGES.rules).optional(),
});
export type TCampaignInput = z.infer<typeof ZCampaignInput>;

/** POST /api/campaigns/{id}/domains: a domain or URL as typed; it arrives normalised (core normaliseDomain). */
export const ZCampaignDomainInput = z.strictObject({
  domain: z
    .string({ error: DOMAIN_MESSAGES.required })
    .max(MAX_DOMAIN_INPUT)
    .transform((value, context) => {
      const result = normaliseDomain(value);
      if (result.ok) return result.domain;
      context.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }),
});
export type TCampaignDomainInput = z.infer<typeof ZCampaignDomainInput>;

/** GET/PUT /api/campaigns/alert-settings: the company's alert rules and digest (PUT: admin only). */
export const ZCampaignAlertSettings = z.strictObject({
  rules: z
    .array(ZAlertRule)
    .min(1, CAMPAIGN_MESSAGES.rules)
    .max(MAX_ALERT_RULES, CAMPAIGN_MESSAGES.rules)
    .superRefine((rules, context) => {
      const seen = new Set<string>();
      rules.forEach((rule, index) => {
        if (seen.has(rule.id))
          context.addIssue({ code: "custom", path: [index, "id"], message: CAMPAIGN_MESSAGES.ruleIdTaken });
        seen.add(rule.id);
      });
    }),
  digest: z.enum(ALERT_DIGEST_FREQUENCIES, { error: CAMPAIGN_MESSAGES.digest }),
});
export type TCampaignAlertSettings = z.infer<typeof ZCampaignAlertSettings>;
export const ZCampaignAlertSettingsResponse = dataEnvelope(ZCampaignAlertSettings);

/**
 * Realtime `CampaignAlertsUpdated` on the company channel: alerts of these groups opened or resolved,
 * so an open group page or groups list asks again.
 */
export const ZCampaignAlertsUpdated = z.object({
  campaign_ids: z.array(z.string()),
  opened: z.number().int().min(0),
  resolved: z.number().int().min(0),
});
export type TCampaignAlertsUpdated = z.infer<typeof ZCampaignAlertsUpdated>;

export const ZCampaignListResponse = dataEnvelope(z.array(ZCampaignSummary));
export const ZCampaignResponse = dataEnvelope(ZCampaign);
export const ZCampaignDomainResponse = dataEnvelope(ZCampaignDomain);
