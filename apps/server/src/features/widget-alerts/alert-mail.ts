/**
 * The e-mail of a widget alert that opened (issue 11 §4), in the style of the automatic report mail
 * (features/reports/report-mail.ts): one 600 px table with inline styles that common mail clients
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const FONT = "font-family: Arial, Helvetica, sans-serif;";

/** Subject: what happened first, then where, which is what a recipient scans an inbox for. */
export function widgetAlertSubject(input: Pick<WidgetAlertMailInput, "message" | "dashboardName">): string {
  return `Alert: ${input.message} – ${input.dashboardName}`;
}

export function widgetAlertMail(input: WidgetAlertMailInput): { subject: string; html: string; text: string } {
  const subject = widgetAlertSubject(input);
  const company = escapeHtml(input.companyName);
  const url = escapeHtml(input.dashboardUrl);
  const where = input.widgetTitle ? `${input.dashboardName} › ${input.widgetTitle}` : input.dashboardName;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin: 0; padding: 0; background: #f1f5f9;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background: #f1f5f9;">
<tr><td align="center" style="padding: 24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width: 100%; max-width: 600px; background: #ffffff; border-radius: 12px; border: 1px solid #e2e8f0;">
<tr><td style="${FONT} font-size: 13px; color: #64748b; padding: 20px 24px 0 24px;">${company}</td></tr>
<tr><td style="${FONT} font-size: 13px; font-weight: bold; color: #b91c1c; padding: 12px 24px 0 24px;">Alert</td></tr>
<tr><td style="${FONT} font-size: 22px; line-height: 28px; font-weight: bold; color: #0f172a; padding: 4px 24px 4px 24px;">${escapeHtml(input.message)}</td></tr>
<tr><td style="${FONT} font-size: 15px; color: #334155; padding: 0 24px 4px 24px;">${escapeHtml(where)}</td></tr>
<tr><td style="${FONT} font-size: 13px; color: #64748b; padding: 0 24px 8px 24px;">Rule: ${escapeHtml(input.ruleText)}</td></tr>
<tr><td style="padding: 16px 24px 24px 24px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>
<td style="background: #4c49d8; border-radius: 8px;"><a href="${url}" style="${FONT} display: inline-block; padding: 12px 22px; font-size: 15px; font-weight: bold; color: #ffffff; text-decoration: none;">Open the live dashboard</a></td>
</tr></table>
</td></tr>
<tr><td style="${FONT} font-size: 12px; line-height: 18px; color: #94a3b8; padding: 0 24px 20px 24px; border-top: 1px solid #f1f5f9;">You receive this alert once when it opens, because ${company} added your address to it. It can be paused or snoozed from the widget's menu on the dashboard.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
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
