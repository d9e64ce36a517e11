import { Secret, TOTP } from "otpauth";

/**
 * RFC 6238 time-based codes with the parameters every authenticator app reads from an otpauth:// QR
 * code: SHA-1, six digits, 30-second steps (the `otpauth` library; docs/decisions.md "Two-factor
 * sign-in with TOTP").
 */
const PARAMETERS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** Clock skew accepted between the server and the user's phone: one step either way, never more. */
export const TOTP_WINDOW = 1;

/** A new random secret (160 bits, RFC 4226's recommended length), as base32 text. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, issuer = "", account = "") {
  return new TOTP({ ...PARAMETERS, issuer, label: account, secret: Secret.fromBase32(secret) });
}

/** The otpauth:// address an authenticator app reads (issuer: the product's name; account: the e-mail). */
export function totpUri(secret: string, issuer: string, account: string): string {
  return totpOf(secret, issuer, account).toString();
}

/** The code of `secret` at `at` (tests, and nothing else, compute codes). */
export function totpCode(secret: string, at: Date): string {
  return totpOf(secret).generate({ timestamp: at.getTime() });
}

/**
 * The time step `code` belongs to, within TOTP_WINDOW steps of `at`, or null: the caller accepts it
 * only if that step is later than the last one accepted (so each code is used once).
 */
export function acceptedStep(secret: string, code: string, at: Date): number | null {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: at.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp: at.getTime() }) + delta;
}
