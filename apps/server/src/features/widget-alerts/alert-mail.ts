import { escapeHtml, MAIL_FONT, mailButtonRow, mailDocument } from "../../infra/mail-html";

/**
 * The e-mail of a widget alert that opened (docs/decisions.md, "Alerts on any widget metric"), in the style of the automatic report mail
 * (features/automatic-reports/report-mail.ts): one 600 px table with inline styles that common mail clients
 * render, a plain-text part with the same facts, and a link to the live dashboard.
 */

export interface WidgetAlertMailInput {
  /** Who sends it, in the recipient's words: the agency. */
  companyName: string;
  dashboardName: string;
  widgetTitle: string;
  /** The rule in words: "Sessions below 1,500". */
  ruleText: string;
  /** What happened: "Sessions fell to 1,204, below 1,500". */
  message: string;
  dashboardUrl: string;
}

/** Subject: what happened first, then where, which is what a recipient scans an inbox for. */
export function widgetAlertSubject(input: Pick<WidgetAlertMailInput, "message" | "dashboardName">): string {
  return `Alert: ${input.message} – ${input.dashboardName}`;
}

export function widgetAlertMail(input: WidgetAlertMailInput): { subject: string; html: string; text: string } {
  const subject = widgetAlertSubject(input);
  const company = escapeHtml(input.companyName);
  const where = input.widgetTitle ? `${input.dashboardName} › ${input.widgetTitle}` : input.dashboardName;
  const html = mailDocument(
    subject,
    `<tr><td style="${MAIL_FONT} font-size: 13px; color: #64748b; padding: 20px 24px 0 24px;">${company}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 13px; font-weight: bold; color: #b91c1c; padding: 12px 24px 0 24px;">Alert</td></tr>
<tr><td style="${MAIL_FONT} font-size: 22px; line-height: 28px; font-weight: bold; color: #0f172a; padding: 4px 24px 4px 24px;">${escapeHtml(input.message)}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 15px; color: #334155; padding: 0 24px 4px 24px;">${escapeHtml(where)}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 13px; color: #64748b; padding: 0 24px 8px 24px;">Rule: ${escapeHtml(input.ruleText)}</td></tr>
${mailButtonRow(input.dashboardUrl, "Open the live dashboard", "16px 24px 24px 24px")}
<tr><td style="${MAIL_FONT} font-size: 12px; line-height: 18px; color: #94a3b8; padding: 0 24px 20px 24px; border-top: 1px solid #f1f5f9;">You receive this alert once when it opens, because ${company} added your address to it. It can be paused or snoozed from the widget's menu on the dashboard.</td></tr>`,
  );
  const text = [
    input.companyName,
    "",
    `Alert: ${input.message}`,
    where,
    `Rule: ${input.ruleText}`,
    "",
    `Open the live dashboard: ${input.dashboardUrl}`,
    "",
    `You receive this alert once when it opens, because ${input.companyName} added your address to it. It can be paused or snoozed from the widget's menu on the dashboard.`,
  ].join("\n");
  return { subject, html, text };
}
