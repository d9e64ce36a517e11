import { z } from "zod";
import { dataEnvelope } from "./common";

const ZActionPassword = z
  .string({ error: "The password must be text." })
  .max(200, "The password may not be greater than 200 characters.")
  .refine((v) => v === "" || v.length >= 4, "The password must be at least 4 characters.");

/** The three actions of PUT /api/dashboards/{id}, as the route dispatches on them. */
export type TDashboardAction =
  | { type: "lock" | "unlock" }
  | { category: "refresh_permalink" }
  | { category: "new_password"; password: string };

/**
 * PUT /api/dashboards/{id} (docs/product.md §7): `type` takes or releases the edit lock; category
 * 'refresh_permalink' issues a new address; 'new_password' sets (or, empty, clears) the password.
 * One strict shape checked per action rather than a union of shapes: a union either lets one action
 * ignore another's fields ({type: 'lock', category: 7} took the lock) or reports a single 'Invalid
 * input'; this refuses unknown and contradictory fields with a message on each.
 */
export const ZDashboardUpdate = z
  .strictObject({
    type: z.enum(["lock", "unlock"], { error: "The type must be lock or unlock." }).optional(),
    category: z
      .enum(["refresh_permalink", "new_password"], { error: "The category must be refresh_permalink or new_password." })
      .optional(),
    password: ZActionPassword.optional(),
  })
  .superRefine((value, ctx) => {
    const refuse = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
    if (value.type !== undefined) {
      if (value.category !== undefined) refuse("category", "The category field is not allowed with type.");
      if (value.password !== undefined) refuse("password", "The password field is not allowed with type.");
    } else if (value.category === undefined) {
      refuse("type", "The type or category field is required.");
    } else if (value.category === "refresh_permalink" && value.password !== undefined) {
      refuse("password", "The password field is not allowed with this category.");
    } else if (value.category === "new_password" && value.password === undefined) {
      refuse("password", "The password field is required.");
    }
  })
  .transform((value): TDashboardAction => {
    if (value.type !== undefined) return { type: value.type };
    if (value.category === "new_password") return { category: "new_password", password: value.password ?? "" };
    return { category: "refresh_permalink" };
  });
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
export const ZDashboardWidgetDataRequest = z.strictObject({
  startDate: z.string(),
  endDate: z.string(),
  compareStartDate: z.string().nullable().optional(),
  compareEndDate: z.string().nullable().optional(),
  comparison: z.boolean().optional(),
  timezone: z.string().max(64).optional(),
});
export type TDashboardWidgetDataRequest = z.infer<typeof ZDashboardWidgetDataRequest>;

/** Longest lifetime of an embed link, in days: an agency renews yearly links rather than issuing endless ones. */
export const MAX_EMBED_DAYS = 365;

/**
 * POST /api/dashboards/{id}/embed: a signed embed link valid for `days` days. DELETE on the same path
 * replaces the dashboard's embed secret, which revokes every link made before.
 */
export const ZEmbedLinkCreate = z.strictObject({
  days: z
    .number({ error: "The lifetime must be a number of days." })
    .int("The lifetime must be a whole number of days.")
    .min(1, "The lifetime must be at least 1 day.")
    .max(MAX_EMBED_DAYS, `The lifetime may not be greater than ${MAX_EMBED_DAYS} days.`),
});
export type TEmbedLinkCreate = z.infer<typeof ZEmbedLinkCreate>;

export const ZEmbedLinkResponse = dataEnvelope(z.object({ url: z.string(), expiresAt: z.string() }));
export type TEmbedLinkResponse = z.infer<typeof ZEmbedLinkResponse>;
