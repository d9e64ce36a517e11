import { type ExpiringSource, LOGIN_EXPIRY_WARNING_DAYS, loginEndDay } from "@app/core";
import { escapeHtml, MAIL_FONT, mailButtonRow, mailDocument } from "../../infra/mail-html";

/**
 * The e-mail that warns a company's admins that sources' logins end soon (docs/product.md, "Expiring
 * logins"), in the frame of the other product mails (infra/mail-html.ts): which sources, the day each
 * stops, what happens then, and the button to the sources page where each is reconnected in place.
 */
export interface ExpiryMailInput {
  companyName: string;
  sources: readonly ExpiringSource[];
  sourcesUrl: string;
}

export function expiryMailSubject(input: Pick<ExpiryMailInput, "sources">): string {
  const [first] = input.sources;
  if (input.sources.length === 1 && first) {
    return `Reconnect ${first.label}: its login ends on ${loginEndDay(first.expiresAt)}`;
  }
  return `Reconnect ${input.sources.length} sources: their logins end within ${LOGIN_EXPIRY_WARNING_DAYS} days`;
}

const WHY =
  "Some providers' logins last a limited time (Facebook's about 60 days) and cannot be renewed without you. Reconnecting signs in again and keeps the source, so every widget that uses it keeps working.";
const AFTER = "After its day, a source's widgets show 'Data Error' until it is reconnected.";
const HINT =
  "Agencies with a Meta Business Manager can connect Facebook Ads with a System User token instead, which does not expire.";

export function expiryMail(input: ExpiryMailInput): { subject: string; html: string; text: string } {
  const subject = expiryMailSubject(input);
  const company = escapeHtml(input.companyName);
  const rows = input.sources
    .map(
      (source) =>
        `<tr><td style="${MAIL_FONT} font-size: 15px; color: #0f172a; padding: 6px 0; border-bottom: 1px solid #f1f5f9;"><strong>${escapeHtml(source.label)}</strong></td><td align="right" style="${MAIL_FONT} font-size: 14px; color: #b45309; padding: 6px 0; border-bottom: 1px solid #f1f5f9; white-space: nowrap;">stops on ${escapeHtml(loginEndDay(source.expiresAt))}</td></tr>`,
    )
    .join("\n");
  const html = mailDocument(
    subject,
    `<tr><td style="${MAIL_FONT} font-size: 13px; color: #64748b; padding: 20px 24px 0 24px;">${company}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 13px; font-weight: bold; color: #b45309; padding: 12px 24px 0 24px;">Login ending soon</td></tr>
<tr><td style="${MAIL_FONT} font-size: 22px; line-height: 28px; font-weight: bold; color: #0f172a; padding: 4px 24px 12px 24px;">${escapeHtml(subject)}</td></tr>
<tr><td style="padding: 0 24px 8px 24px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${rows}
</table></td></tr>
<tr><td style="${MAIL_FONT} font-size: 14px; line-height: 20px; color: #334155; padding: 8px 24px 0 24px;">${escapeHtml(`${WHY} ${AFTER}`)}</td></tr>
${mailButtonRow(input.sourcesUrl, "Reconnect on the sources page", "16px 24px 16px 24px")}
<tr><td style="${MAIL_FONT} font-size: 12px; line-height: 18px; color: #94a3b8; padding: 12px 24px 20px 24px; border-top: 1px solid #f1f5f9;">${escapeHtml(HINT)} You receive this once per login because you are an admin of ${company}.</td></tr>`,
  );
  const text = [
    input.companyName,
    "",
    subject,
    "",
    ...input.sources.map((source) => `- ${source.label}: stops on ${loginEndDay(source.expiresAt)}`),
    "",
    `${WHY} ${AFTER}`,
    "",
    `Reconnect on the sources page: ${input.sourcesUrl}`,
    "",
    `${HINT} You receive this once per login because you are an admin of ${input.companyName}.`,
  ].join("\n");
  return { subject, html, text };
}
