import { z } from "zod";
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
} as const;

/**
 * Where a group's domain metrics come from. Only "demo" exists so far, so it is also the default; a
 * later "auto" (the company's connected sources plus the server's SEO key) becomes the default once
 * it is built, and groups created before it keep "demo" until an admin switches them.
 */
export const CAMPAIGN_METRICS_SOURCES = ["demo"] as const;
export type CampaignMetricsSource = (typeof CAMPAIGN_METRICS_SOURCES)[number];
export const DEFAULT_CAMPAIGN_METRICS_SOURCE: CampaignMetricsSource = "demo";

export const ZCampaignMetricsSource = z.enum(CAMPAIGN_METRICS_SOURCES, { error: CAMPAIGN_MESSAGES.metricsSource });

/**
 * Whether a domain's metrics can be shown: `ready` (values stored), `backfilling` (added, its history
 * not fetched yet) or `no_provider` (the group's source delivers nothing for it).
 */
export const CAMPAIGN_METRICS_STATUSES = ["ready", "backfilling", "no_provider"] as const;

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

export const ZCampaignListResponse = dataEnvelope(z.array(ZCampaignSummary));
export const ZCampaignResponse = dataEnvelope(ZCampaign);
export const ZCampaignDomainResponse = dataEnvelope(ZCampaignDomain);
