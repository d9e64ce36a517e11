import type { MailMessage } from "../../infra/mail";
import { escapeHtml } from "../../infra/mail-html";

/** A change the user makes on their profile (audited as such); the operator's reset is mailed as "reset". */
export type TwoFactorChange = "enabled" | "disabled" | "recovery-codes";

const WHAT: Record<TwoFactorChange | "reset", { subject: string; body: string }> = {
  enabled: {
    subject: "Two-factor sign-in is now on",
    body: "Two-factor sign-in was turned on for your account. From now on, signing in asks for a code from your authenticator app after your password.",
  },
  disabled: {
    subject: "Two-factor sign-in was turned off",
    body: "Two-factor sign-in was turned off for your account. Signing in now asks for your password only.",
  },
  // The operator's reset: every second factor went, passkeys included.
  reset: {
    subject: "Two-factor sign-in was turned off",
    body: "Two-factor sign-in was reset for your account: your authenticator app, recovery codes and passkeys were removed. Signing in now asks for your password only; set them up again from your profile.",
  },
  "recovery-codes": {
    subject: "New two-factor recovery codes",
    body: "New recovery codes were made for your account's two-factor sign-in. The old ones no longer work.",
  },
};

/**
 * Tells the user their second factor changed, so a change they did not make (a stolen session) does not
 * go unnoticed. Never holds a secret or a code. Their other sessions were ended with the change.
 */
export function twoFactorChangeMail(
  to: { name: string; email: string },
  change: TwoFactorChange | "reset",
  siteTitle: string,
): MailMessage {
  const { subject, body } = WHAT[change];
  const tail =
    "You were signed out everywhere else. If this was not you, sign in, change your password and check your two-factor settings, or ask your company's admin for help.";
  return {
    to: to.email,
    fromName: siteTitle,
    subject: `${subject} (${siteTitle})`,
    text: `Hello ${to.name},\n\n${body}\n\n${tail}`,
    html: `<p>Hello ${escapeHtml(to.name)},</p><p>${escapeHtml(body)}</p><p>${escapeHtml(tail)}</p>`,
  };
}
