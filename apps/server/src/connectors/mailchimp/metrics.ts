import { z } from "zod";
import type { MetricDeclaration } from "../kit/metrics";

/**
 * What the Mailchimp widgets offer and how each number is made (docs/connectors.md, "Mailchimp"). The
 * connector reads the counts of each campaign report (or each day of an audience's activity), sums them
 * per table row, and computes every rate from the sums, the way Mailchimp defines it: open rate = unique
 * opens / successful deliveries (sent − bounces), click rate = unique subscriber clicks / deliveries.
 */

/** One campaign report of `GET /3.0/reports`: only the fields the connector asks for. */
export const ZReport = z.object({
  id: z.string(),
  campaign_title: z.string().default(""),
  list_id: z.string().default(""),
  send_time: z.string().default(""),
  emails_sent: z.number().default(0),
  unsubscribed: z.number().default(0),
  bounces: z
    .object({
      hard_bounces: z.number().default(0),
      soft_bounces: z.number().default(0),
      syntax_errors: z.number().default(0),
    })
    .partial()
    .default({}),
  opens: z
    .object({ opens_total: z.number().default(0), unique_opens: z.number().default(0) })
    .partial()
    .default({}),
  clicks: z
    .object({ clicks_total: z.number().default(0), unique_subscriber_clicks: z.number().default(0) })
    .partial()
    .default({}),
});
export type Report = z.infer<typeof ZReport>;

/** The fields asked of `/3.0/reports` (Mailchimp answers less with `fields`). */
export const REPORT_FIELDS = [
  "reports.id",
  "reports.campaign_title",
  "reports.list_id",
  "reports.send_time",
  "reports.emails_sent",
  "reports.unsubscribed",
  "reports.bounces",
  "reports.opens",
  "reports.clicks",
  "total_items",
].join(",");

export interface CampaignParts {
  emails_sent: number;
  bounces: number;
  opens_total: number;
  unique_opens: number;
  clicks_total: number;
  unique_subscriber_clicks: number;
  unsubscribed: number;
}

export const emptyCampaignParts = (): CampaignParts => ({
  emails_sent: 0,
  bounces: 0,
  opens_total: 0,
  unique_opens: 0,
  clicks_total: 0,
  unique_subscriber_clicks: 0,
  unsubscribed: 0,
});

export function addReport(parts: CampaignParts, report: Report): CampaignParts {
  parts.emails_sent += report.emails_sent;
  parts.bounces +=
    (report.bounces.hard_bounces ?? 0) + (report.bounces.soft_bounces ?? 0) + (report.bounces.syntax_errors ?? 0);
  parts.opens_total += report.opens.opens_total ?? 0;
  parts.unique_opens += report.opens.unique_opens ?? 0;
  parts.clicks_total += report.clicks.clicks_total ?? 0;
  parts.unique_subscriber_clicks += report.clicks.unique_subscriber_clicks ?? 0;
  parts.unsubscribed += report.unsubscribed;
  return parts;
}

export function addCampaignParts(parts: CampaignParts, other: CampaignParts): CampaignParts {
  for (const key of Object.keys(parts) as (keyof CampaignParts)[]) parts[key] += other[key];
  return parts;
}

const ratio = (top: number, bottom: number): number | null => (bottom > 0 ? (top / bottom) * 100 : null);
const delivered = (parts: CampaignParts) => parts.emails_sent - parts.bounces;

interface Metric<P> extends MetricDeclaration {
  value(parts: P): number | null;
}

export const CAMPAIGN_METRICS: readonly Metric<CampaignParts>[] = [
  { key: "emails_sent", label: "Emails sent", format: "number", value: (p) => p.emails_sent },
  { key: "delivered", label: "Delivered", format: "number", value: (p) => delivered(p) },
  { key: "opens_total", label: "Opens", format: "number", value: (p) => p.opens_total },
  { key: "unique_opens", label: "Unique opens", format: "number", value: (p) => p.unique_opens },
  { key: "open_rate", label: "Open rate", format: "percent", value: (p) => ratio(p.unique_opens, delivered(p)) },
  { key: "clicks_total", label: "Clicks", format: "number", value: (p) => p.clicks_total },
  { key: "unique_clicks", label: "Unique clicks", format: "number", value: (p) => p.unique_subscriber_clicks },
  {
    key: "click_rate",
    label: "Click rate",
    format: "percent",
    value: (p) => ratio(p.unique_subscriber_clicks, delivered(p)),
  },
  { key: "bounces", label: "Bounces", format: "number", lowerIsBetter: true, value: (p) => p.bounces },
  { key: "unsubscribed", label: "Unsubscribes", format: "number", lowerIsBetter: true, value: (p) => p.unsubscribed },
];

/** One day of `GET /3.0/lists/{id}/activity`. */
export const ZActivity = z.object({
  day: z.string(),
  emails_sent: z.number().default(0),
  unique_opens: z.number().default(0),
  recipient_clicks: z.number().default(0),
  hard_bounce: z.number().default(0),
  soft_bounce: z.number().default(0),
  subs: z.number().default(0),
  unsubs: z.number().default(0),
  other_adds: z.number().default(0),
  other_removes: z.number().default(0),
});
export type Activity = z.infer<typeof ZActivity>;
export type ActivityParts = Omit<Activity, "day">;

export const emptyActivityParts = (): ActivityParts => ({
  emails_sent: 0,
  unique_opens: 0,
  recipient_clicks: 0,
  hard_bounce: 0,
  soft_bounce: 0,
  subs: 0,
  unsubs: 0,
  other_adds: 0,
  other_removes: 0,
});

export function addActivity(parts: ActivityParts, day: ActivityParts): ActivityParts {
  for (const key of Object.keys(parts) as (keyof ActivityParts)[]) parts[key] += day[key];
  return parts;
}

export const ACTIVITY_METRICS: readonly Metric<ActivityParts>[] = [
  { key: "subs", label: "New subscribers", format: "number", value: (p) => p.subs },
  { key: "unsubs", label: "Unsubscribes", format: "number", lowerIsBetter: true, value: (p) => p.unsubs },
  { key: "other_adds", label: "Other adds", format: "number", value: (p) => p.other_adds },
  {
    key: "other_removes",
    label: "Other removes",
    format: "number",
    lowerIsBetter: true,
    value: (p) => p.other_removes,
  },
  {
    key: "net_growth",
    label: "Net growth",
    format: "number",
    value: (p) => p.subs + p.other_adds - p.unsubs - p.other_removes,
  },
  { key: "emails_sent", label: "Emails sent", format: "number", value: (p) => p.emails_sent },
  { key: "unique_opens", label: "Unique opens", format: "number", value: (p) => p.unique_opens },
  { key: "recipient_clicks", label: "Recipient clicks", format: "number", value: (p) => p.recipient_clicks },
  {
    key: "bounces",
    label: "Bounces",
    format: "number",
    lowerIsBetter: true,
    value: (p) => p.hard_bounce + p.soft_bounce,
  },
];
