import { z } from "zod";

const zCode = z
  .string({ error: "The code field is required." })
  .trim()
  .min(1, "The code field is required.")
  .max(64, "The code may not be greater than 64 characters.");

/** The second step of sign-in, and confirming a new authenticator: a code (TOTP, or a recovery code). */
export const ZTwoFactorCode = z.strictObject({ code: zCode });
export type TTwoFactorCode = z.infer<typeof ZTwoFactorCode>;

/** Turning two-factor off and regenerating recovery codes ask again: the password, or a current code. */
export const ZTwoFactorConfirm = z
  .strictObject({
    password: z.string().max(1000, "The password may not be greater than 1000 characters.").optional(),
    code: zCode.optional(),
  })
  .superRefine((value, issues) => {
    if (!value.password && !value.code) {
      issues.addIssue({ code: "custom", path: ["password"], message: "Enter your password or a current code." });
    }
  });
export type TTwoFactorConfirm = z.infer<typeof ZTwoFactorConfirm>;

/** A user's two-factor state, as their profile and the set-up page show it. */
export const ZTwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes left (0 while two-factor is off). */
  recoveryCodesLeft: z.number().int(),
  /** The user's company requires two-factor of every member. */
  companyRequires: z.boolean(),
  /** The company requires it and the user has none: nothing but the set-up until they have. */
  setupRequired: z.boolean(),
});
export type TTwoFactorStatus = z.infer<typeof ZTwoFactorStatus>;

/** A new secret, shown once: as text, as an otpauth:// address and as a QR code (a PNG data URL). */
export const ZTwoFactorSetup = z.object({ secret: z.string(), uri: z.string(), qr: z.string() });
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;

/** Recovery codes, shown once (two-factor turned on, or codes regenerated). */
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

/** The company setting: two-factor required of every member. */
export const ZCompanyTwoFactor = z.strictObject({
  required: z.boolean({ error: "The required field must be true or false." }),
});
export type TCompanyTwoFactor = z.infer<typeof ZCompanyTwoFactor>;
