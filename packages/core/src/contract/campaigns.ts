import { z } from "zod";
import { DOMAIN_MESSAGES, MAX_DOMAIN_INPUT, normaliseDomain } from "../mission-control/domain";
import { dataEnvelope } from "./common";

/** Longest group name (the form's limit and the column's). */
export const MAX_CAMPAIGN_NAME = 100;
/** How long "snooze for a week" hides a domain's alerts (spec §1). */
export const CAMPAIGN_SNOOZE_DAYS = 7;

/** Messages of the group form and of the group rules (docs/product.md forms wording). */
export const CAMPAIGN_MESSAGES = {
  nameRequired: "The name field is required.",
  nameMax: `The name may not be greater than ${MAX_CAMPAIGN_NAME} characters.`,
  nameTaken: "A group with this name already exists.",
  notFound: "Group not found.",
  domainNotFound: "Domain not found.",
} as const;

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

/** A group in the groups list: its counts, not its domains. */
export const ZCampaignSummary = z.object({
  id: z.string(),
  name: z.string(),
  domain_count: z.number().int().min(0),
  /** Open alerts of its domains that are not snoozed. */
  open_alert_count: z.number().int().min(0),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCampaignSummary = z.infer<typeof ZCampaignSummary>;

/** A group with its domains (the group page). */
export const ZCampaign = ZCampaignSummary.extend({ domains: z.array(ZCampaignDomain) });
export type TCampaign = z.infer<typeof ZCampaign>;

/** POST and PUT /api/campaigns: the group's name. */
export const ZCampaignInput = z.strictObject({
  name: z
    .string({ error: CAMPAIGN_MESSAGES.nameRequired })
    .trim()
    .min(1, CAMPAIGN_MESSAGES.nameRequired)
    .max(MAX_CAMPAIGN_NAME, CAMPAIGN_MESSAGES.nameMax),
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
