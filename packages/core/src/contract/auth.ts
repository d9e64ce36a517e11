import { z } from "zod";
import { zFormBoolean } from "./common";

export const PASSWORD_MIN = 8;
export const DEFAULT_REGISTRATION_DASHBOARDS = 25;
/** docs/product.md sets no ceiling; one keeps a typo (or a probe) from buying a million dashboards. */
export const MAX_REGISTRATION_DASHBOARDS = 1000;

const zCoupons = z.preprocess(
  (value) => {
    if (value === undefined || value === null || value === "") return [];
    if (typeof value === "string") {
      try {
        return JSON.parse(value);
      } catch {
        return value; // let the array check report it
      }
    }
    return value;
  },
  z.array(z.string(), { error: "The coupons must be a JSON list of codes." }),
);

/**
 * Registration payload of docs/product.md §3 with the rules of docs/product.md §5. Error keys follow the product's
 * field list: name, email, password, password_confirmation, terms_consent, age_consent, coupon, general.
 */
export const ZRegister = z
  .strictObject({
    name: z.string({ error: "The name field is required." }).trim().min(1, "The name field is required.").max(120),
    email: z
      .string({ error: "The email field is required." })
      .trim()
      .min(1, "The email field is required.")
      .pipe(z.email("The email must be a valid email address.")),
    password: z
      .string({ error: "The password field is required." })
      .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`),
    password_confirmation: z
      .string({ error: "The password confirmation field is required." })
      .min(PASSWORD_MIN, `The password confirmation must be at least ${PASSWORD_MIN} characters.`),
    terms_consent: zFormBoolean.refine((v) => v, "You must accept the terms and conditions."),
    age_consent: zFormBoolean.refine((v) => v, "You must confirm that you are at least 16 years old."),
    coupons: zCoupons.optional(),
    dashboards: z.coerce
      .number({ error: "The dashboards must be a number." })
      .int("The dashboards must be a whole number.")
      .min(1, "The dashboards must be at least 1.")
      .max(MAX_REGISTRATION_DASHBOARDS, `The dashboards may not be greater than ${MAX_REGISTRATION_DASHBOARDS}.`)
      .default(DEFAULT_REGISTRATION_DASHBOARDS),
    interval: z.coerce
      .number()
      .refine((v) => v === 1 || v === 12, "The interval must be 1 or 12.")
      .default(1),
    cid: z.string().optional(),
    flow: z.enum(["dashboard", "mc"]).default("dashboard"),
    // The paid checkout this registration claims (docs/product.md §4): the Checkout Session and the
    // server's signed reference of it, as POST /api/payment/secure answered them.
    order_ref: z.string().trim().max(255).optional(),
    order_id: z.string().trim().max(255).optional(),
    // The browser's IANA zone, for the user and the company; one the server does not know (or none)
    // means UTC and never fails the registration, so a malformed value is dropped rather than refused.
    timezone: z.string().max(100).optional().catch(undefined),
  })
  .superRefine((value, ctx) => {
    if (value.password_confirmation !== undefined && value.password !== value.password_confirmation) {
      ctx.addIssue({
        code: "custom",
        path: ["password_confirmation"],
        message: "The password confirmation does not match.",
      });
    }
  });
export type TRegister = z.infer<typeof ZRegister>;

export const ZLogin = z.strictObject({
  email: z.string().trim().min(1, "The email field is required."),
  password: z.string().min(1, "The password field is required."),
});
export type TLogin = z.infer<typeof ZLogin>;

/** Setting a password from an invitation link. */
export const ZSetPassword = z
  .strictObject({
    token: z.string().min(1),
    password: z.string().min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`),
    password_confirmation: z
      .string()
      .min(PASSWORD_MIN, `The password confirmation must be at least ${PASSWORD_MIN} characters.`),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "The password confirmation does not match.",
  });
export type TSetPassword = z.infer<typeof ZSetPassword>;

/** Answer to a successful login, registration or password set: where the app goes next. */
export const ZAuthResult = z.object({ data: z.object({ redirect: z.string() }) });
export type TAuthResult = z.infer<typeof ZAuthResult>;
