import type { AppContext } from "../../context";
import type { MailMessage } from "../../infra/mail";
import { escapeHtml } from "../../infra/mail-html";
import type { AuthState } from "../auth/service";

/**
 * The security notice a user gets when a passkey is added to or removed from their account: if it was
 * not them, they learn of it and where to look (their profile), without any secret in the mail.
 */
export function passkeyMail(
  config: AppContext["config"],
  state: AuthState,
  change: "added" | "removed",
  name: string,
): MailMessage {
  const siteTitle = state.company.site_title || config.siteTitle;
  const profile = `${config.appUrl}/users/${state.user.id}`;
  const what =
    change === "added"
      ? `A passkey named "${name}" was added to your ${siteTitle} account. It can now be used to log in without your password.`
      : `The passkey named "${name}" was removed from your ${siteTitle} account. It can no longer be used to log in.`;
  const check = `If this was not you, change your password at once and review the passkeys on your profile: ${profile}`;
  return {
    to: state.user.email,
    fromName: siteTitle,
    subject:
      change === "added"
        ? `A passkey was added to your ${siteTitle} account`
        : `A passkey was removed from your ${siteTitle} account`,
    text: `Hello ${state.user.name},\n\n${what}\n\n${check}\n`,
    html: `<p>Hello ${escapeHtml(state.user.name)},</p><p>${escapeHtml(what)}</p><p>${escapeHtml(check)}</p>`,
  };
}
