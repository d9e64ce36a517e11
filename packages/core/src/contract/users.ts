import { z } from "zod";
import { ONBOARDING_SOURCES } from "../onboarding/flows";
import { zFormBoolean } from "./common";

export const ROLE_ADMIN = "admin";
export const ROLE_USER = "user";
export const ZRoleName = z.enum([ROLE_ADMIN, ROLE_USER], { error: "The role must be admin or user." });

/** Current user / team member of docs/product.md §3. */
export const ZUser = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  roleName: ZRoleName,
  email: z.string(),
  avatar: z.string().nullable(),
  creator: z.boolean(),
  companyId: z.string(),
  ageConsent: z.boolean(),
  termsConsent: z.boolean(),
  introPassed: z.boolean(),
  timezone: z.string(),
  /** False until an invited user sets a password. */
  active: z.boolean(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserCreate = z.strictObject({
  name: z.string().trim().min(1, "The name field is required.").max(120),
  email: z
    .string()
    .trim()
    .min(1, "The email field is required.")
    .pipe(z.email("The email must be a valid email address.")),
  roleName: ZRoleName.default(ROLE_USER),
});
export type TUserCreate = z.infer<typeof ZUserCreate>;

export const ZUserUpdate = z.strictObject({
  name: z.string().trim().min(1, "The name field is required.").max(120).optional(),
  email: z.string().trim().pipe(z.email("The email must be a valid email address.")).optional(),
  roleName: ZRoleName.optional(),
  timezone: z.string().trim().min(1).max(64).optional(),
  terms_consent: zFormBoolean.optional(),
  age_consent: zFormBoolean.optional(),
  password: z.string().min(8, "The password must be at least 8 characters.").optional(),
});
export type TUserUpdate = z.infer<typeof ZUserUpdate>;

/**
 * "Submit other data" (docs/product.md §7): intro and onboarding progress of the current user, and the
 * intro questionnaire's answer (`onboarding_source`, docs/product.md §3), which picks the flow.
 */
export const ZUserData = z.strictObject({
  intro_passed: zFormBoolean.optional(),
  onboarding: z.coerce.number().int().min(0).max(10).optional(),
  onboarding_source: z
    .enum(ONBOARDING_SOURCES, { error: `The onboarding source must be one of: ${ONBOARDING_SOURCES.join(", ")}.` })
    .optional(),
});
export type TUserData = z.infer<typeof ZUserData>;
