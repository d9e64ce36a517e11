import { z } from "zod";
import { dataEnvelope } from "./common";

/**
 * One statement of a dashboard's insights summary (docs/decisions.md, "Insights wiring: API, settings, page, PDF and e-mail"): the sentence as the widget's numbers
 * print, and which widget it is about, so the page can link to it. The ranking's scores stay on the
 * server: a reader needs the words and the place, not how they were chosen.
 */
export const ZInsightStatement = z.object({
  widgetId: z.string(),
  metricKey: z.string(),
  metricLabel: z.string(),
  direction: z.enum(["up", "down"]),
  tone: z.enum(["good", "bad", "flat"]),
  sentence: z.string(),
});
export type TInsightStatement = z.infer<typeof ZInsightStatement>;

/**
 * POST /api/dashboards/{permalink}/insights: per interactive widget its line (null when nothing is worth
 * saying or its owner hid it), and the ranked summary across the dashboard.
 */
export const ZDashboardInsights = z.object({
  widgets: z.record(z.string(), z.string().nullable()),
  summary: z.array(ZInsightStatement),
  /** The widgets' goals counted: "2 of 5 goals on track; Revenue 12 % short" (absent: no goal has a verdict). */
  goals: z.string().optional(),
});
export type TDashboardInsights = z.infer<typeof ZDashboardInsights>;
export const ZDashboardInsightsResponse = dataEnvelope(ZDashboardInsights);
