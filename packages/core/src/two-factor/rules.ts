/**
 * The pure rules of two-factor sign-in (apps/server/src/features/two-factor): what a typed code is,
 * how recovery codes are written, and what a member whose company requires two-factor may still do
 * before setting it up.
 */

/** Recovery codes a user holds at once (all replaced when regenerated). */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code: lower-case letters and digits without the look-alikes (0/o, 1/l/i). */
export const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
export const RECOVERY_CODE_LENGTH = 10;
export const TWO_FACTOR_SETUP_PATH = "/two-factor/setup";
export const TWO_FACTOR_LOGIN_PATH = "/login/two-factor";
/** The 403 a member hears while their company requires two-factor and they have none. */
export const TWO_FACTOR_REQUIRED_MESSAGE =
  "Your company requires two-factor sign-in. Set it up on the two-factor set-up page before doing anything else.";
export const TWO_FACTOR_REQUIRED_CODE = "two_factor_required";

export type TypedCode = { kind: "totp"; code: string } | { kind: "recovery"; code: string } | { kind: "invalid" };

/**
 * What the user typed: six digits are an authenticator code, ten letters and digits a recovery code
 * (spaces and dashes, as the codes are shown and as people copy them, are ignored; any case).
 */
export function classifyCode(typed: string): TypedCode {
  const compact = typed.replace(/[\s-]+/g, "").toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: "totp", code: compact };
  if (compact.length === RECOVERY_CODE_LENGTH && [...compact].every((c) => RECOVERY_ALPHABET.includes(c))) {
    return { kind: "recovery", code: compact };
  }
  return { kind: "invalid" };
}

/** A recovery code as shown to the user: two groups of five, "abcde-fghjk". */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * While a member's company requires two-factor and they have none, the API answers only what the
 * set-up needs: page data, the two-factor routes themselves (status, set-up, enabling), listing and
 * adding a passkey (a passkey is a second factor too, so it may be the first one a member sets up), and
 * signing out (which is outside /api). Everything else under /api is a 403: renaming or removing a
 * passkey waits until the requirement is met.
 */
export function allowedBeforeTwoFactorSetup(method: string, path: string): boolean {
  const clean = path.split("?")[0].replace(/\/+$/, "");
  if (!clean.startsWith("/api/")) return true;
  if (method === "GET" && clean === "/api/page-data") return true;
  if (clean === "/api/two-factor" || clean.startsWith("/api/two-factor/")) return true;
  if (clean === "/api/passkeys") return method === "GET" || method === "POST";
  return method === "POST" && clean === "/api/passkeys/options";
}
