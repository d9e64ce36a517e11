import { z } from "zod";
import { dataEnvelope } from "./common";

/**
 * PUT /api/dashboards/{id} (spec §7): `type` takes or releases the edit lock; category
 * 'refresh_permalink' issues a new address; 'new_password' sets (or, empty, clears) the password.
 */
export const ZDashboardUpdate = z.union([
  z.object({ type: z.enum(["lock", "unlock"]) }),
  z.object({ category: z.literal("refresh_permalink") }),
  z.object({
    category: z.literal("new_password"),
    password: z
      .string()
      .max(200)
      .refine((v) => v === "" || v.length >= 4, "The password must be at least 4 characters."),
  }),
]);
export type TDashboardUpdate = z.infer<typeof ZDashboardUpdate>;

export const ZDashboardUpdateResponse = dataEnvelope(
  z.object({
    locked: z.string().nullable().optional(),
    permalink: z.string().optional(),
    passwordProtected: z.boolean().optional(),
  }),
);
export type TDashboardUpdateResponse = z.infer<typeof ZDashboardUpdateResponse>;

/**
 * POST /api/dashboards/{permalink}/widgets/{widgetId}/data: a saved widget's data for whoever may view
 * the dashboard (public viewers included; `x-authorization` carries a protected dashboard's password).
 * The instances come from the saved dashboard, so a viewer can only ask for what the owner shows.
 */
export const ZDashboardWidgetDataRequest = z.object({
  startDate: z.string(),
  endDate: z.string(),
  compareStartDate: z.string().nullable().optional(),
  compareEndDate: z.string().nullable().optional(),
  comparison: z.boolean().optional(),
  timezone: z.string().max(64).optional(),
});
export type TDashboardWidgetDataRequest = z.infer<typeof ZDashboardWidgetDataRequest>;
