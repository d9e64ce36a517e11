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
