/**
 * The frame every product e-mail shares (reports, widget alerts, the Mission Control digest): HTML that
 * common mail clients render — one 600 px table, inline styles, no external CSS, scripts or web fonts.
 * Each mail writes only its own rows.
 */

/** Text made safe for HTML and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The font of every cell: fonts every client has, as web fonts are not loaded by most. */
export const MAIL_FONT = "font-family: Arial, Helvetica, sans-serif;";

/** The whole document around a mail's rows (`<tr>…</tr>` of the 600 px card), in `language` (a BCP 47 tag). */
export function mailDocument(subject: string, rows: string, language = "en"): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin: 0; padding: 0; background: #f1f5f9;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background: #f1f5f9;">
<tr><td align="center" style="padding: 24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width: 100%; max-width: 600px; background: #ffffff; border-radius: 12px; border: 1px solid #e2e8f0;">
${rows}
</table>
</td></tr>
</table>
</body>
</html>`;
}

/** A button row: a link styled as a button (a table cell, which every client draws). `url` is escaped here. */
export function mailButtonRow(url: string, label: string, padding = "20px 24px 24px 24px"): string {
  return `<tr><td style="padding: ${padding};">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>
<td style="background: #4c49d8; border-radius: 8px;"><a href="${escapeHtml(url)}" style="${MAIL_FONT} display: inline-block; padding: 12px 22px; font-size: 15px; font-weight: bold; color: #ffffff; text-decoration: none;">${escapeHtml(label)}</a></td>
</tr></table>
</td></tr>`;
}
