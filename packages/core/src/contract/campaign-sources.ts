import { z } from "zod";
import { CAMPAIGN_METRICS_SOURCES } from "./campaigns";
import { dataEnvelope } from "./common";

/** Why a metrics source cannot be chosen on this server (422 on `metrics_source`, and the form's note). */
export const CAMPAIGN_SOURCE_MESSAGES = {
  ahrefsNotConfigured: "Ahrefs (server) is not available: this server has no Ahrefs API key (MC_AHREFS_KEY).",
} as const;

/** One choice of the create-group form's "Metrics from". */
export const ZCampaignMetricsSourceOption = z.object({
  id: z.enum(CAMPAIGN_METRICS_SOURCES),
  label: z.string(),
  /** False when this server cannot use it (no Ahrefs key): shown disabled with `reason`, refused with 422. */
  available: z.boolean(),
  reason: z.string().nullable(),
});
export type TCampaignMetricsSourceOption = z.infer<typeof ZCampaignMetricsSourceOption>;

/** GET /api/campaigns/sources: every metrics source, in the order the form lists them. */
export const ZCampaignMetricsSourcesResponse = dataEnvelope(z.array(ZCampaignMetricsSourceOption));
