import { translatorFor } from "@app/core/i18n/catalogues";
import type { MessageKey, MessageValues, Translator } from "@app/core/i18n/translator";
import { escapeHtml, MAIL_FONT, mailButtonRow, mailDocument } from "../../infra/mail-html";

/**
 * The automatic report e-mail (docs/product.md §3): HTML that common mail clients render (one 600 px
 * table, inline styles, no external CSS, scripts or web fonts), a plain-text part with the same facts,
 * the preview image inline by Content-ID, and a link to the live dashboard. Every word we own is a
 * message of the dashboard's language (docs/decisions.md, "Report e-mails in the dashboard's
 * language"); names and texts the agency typed are said as typed.
 */

export interface ReportMailInput {
  /** The dashboard's language: the e-mail's words, numbers and dates are in it (English when absent). */
  language?: string | null;
  /** Who sends it, in the recipient's words: the agency. */
  companyName: string;
  dashboardName: string;
  /** "Oct 01, 2026 - Oct 31, 2026", in the dashboard's language (core periodText). */
  periodText: string;
  /** "Last Month", "Last 7 Days"…, in the dashboard's language (core reportRangeLabel). */
  rangeLabel: string;
  /** "Monthly on the first day at 08:00 (UTC)", in the dashboard's language (core scheduleText). */
  scheduleText: string;
  dashboardUrl: string;
  /** Content-ID of the inline preview image, when the report has one. */
  previewCid: string | null;
  /** Name of the attached PDF, when the report has one. */
  pdfFilename: string | null;
  /** Sent after its slot because the service was down then. */
  late: boolean;
  /**
   * The dashboard's goals counted ("1 of 2 goals on track; Sessions 12 % short"), shown first whenever
   * the dashboard has goals, whatever its insights setting (null or absent: no line).
   */
  goals?: string | null;
  /** The dashboard's insights summary, ranked, shown above the preview (none: no block), already in its language. */
  insights?: readonly string[];
}

/**
 * A message as HTML: its own text escaped, and each of `html`'s values put in as the markup it is. The
 * message is formatted with a placeholder per markup value, so a translation may move the markup
 * wherever its grammar wants it.
 */
function htmlMessage(
  t: Translator["t"],
  key: MessageKey,
  text: MessageValues,
  html: Record<string, string> = {},
): string {
  const marks = Object.keys(html).map((name, index) => [name, `\u0000${index}\u0000`] as const);
  let out = escapeHtml(t(key, { ...text, ...Object.fromEntries(marks) }));
  for (const [name, mark] of marks) out = out.replace(mark, html[name]);
  return out;
}

/** Subject: the dashboard and the period, which is what a recipient scans an inbox for. */
export function reportSubject(
  input: Pick<ReportMailInput, "dashboardName" | "periodText" | "language">,
  translator: Translator = translatorFor(input.language),
): string {
  return translator.t("reportMail.subject", { dashboard: input.dashboardName, period: input.periodText });
}

export function reportMail(input: ReportMailInput): { subject: string; html: string; text: string } {
  const translator = translatorFor(input.language);
  const { t } = translator;
  const subject = reportSubject(input, translator);
  const name = escapeHtml(input.dashboardName);
  const company = escapeHtml(input.companyName);
  const url = escapeHtml(input.dashboardUrl);
  const late = t("reportMail.late");
  const lateNote = input.late
    ? `<tr><td style="${MAIL_FONT} font-size: 13px; color: #92400e; background: #fffbeb; padding: 10px 24px; border-bottom: 1px solid #fde68a;">${escapeHtml(late)}</td></tr>`
    : "";
  const preview = input.previewCid
    ? `<tr><td style="padding: 0 24px 8px 24px;"><a href="${url}" style="text-decoration: none;"><img src="cid:${escapeHtml(input.previewCid)}" width="552" alt="${escapeHtml(t("reportMail.previewAlt", { dashboard: input.dashboardName }))}" style="display: block; width: 100%; max-width: 552px; height: auto; border: 1px solid #e2e8f0; border-radius: 8px;"></a></td></tr>`
    : "";
  const said = input.insights ?? [];
  const heading = t("reportMail.insights");
  const insights =
    said.length > 0
      ? `<tr><td style="${MAIL_FONT} font-size: 15px; line-height: 22px; color: #0f172a; padding: 0 24px 12px 24px;"><strong>${escapeHtml(heading)}</strong><ol style="margin: 6px 0 0 0; padding-left: 20px;">${said.map((sentence) => `<li style="margin: 0 0 4px 0;">${escapeHtml(sentence)}</li>`).join("")}</ol></td></tr>`
      : "";
  const goals = input.goals
    ? `<tr><td style="${MAIL_FONT} font-size: 15px; line-height: 22px; color: #0f172a; padding: 0 24px 12px 24px;"><strong>${escapeHtml(t("reportMail.goals"))}:</strong> ${escapeHtml(input.goals)}.</td></tr>`
    : "";
  const pdf = input.pdfFilename ? t("reportMail.pdf", { filename: input.pdfFilename }) : null;
  const pdfNote = pdf
    ? `<tr><td style="${MAIL_FONT} font-size: 13px; color: #475569; padding: 4px 24px 0 24px;">${escapeHtml(pdf)}</td></tr>`
    : "";
  const footer = { schedule: input.scheduleText, company: input.companyName };
  const html = mailDocument(
    subject,
    `<tr><td style="${MAIL_FONT} font-size: 13px; color: #64748b; padding: 20px 24px 0 24px;">${company}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 22px; line-height: 28px; font-weight: bold; color: #0f172a; padding: 6px 24px 4px 24px;">${name}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 15px; color: #334155; padding: 0 24px 16px 24px;">${htmlMessage(t, "reportMail.rangeLine", { range: input.rangeLabel }, { period: `<strong>${escapeHtml(input.periodText)}</strong>` })}</td></tr>
${lateNote}
${goals}
${insights}
${preview}
${pdfNote}
${mailButtonRow(input.dashboardUrl, t("reportMail.open"))}
<tr><td style="${MAIL_FONT} font-size: 12px; line-height: 18px; color: #94a3b8; padding: 12px 24px 20px 24px; border-top: 1px solid #f1f5f9;">${escapeHtml(t("reportMail.footer", footer))}</td></tr>`,
    translator.language,
  );
  const text = [
    input.companyName,
    "",
    input.dashboardName,
    t("reportMail.rangeLine", { range: input.rangeLabel, period: input.periodText }),
    ...(input.late ? ["", late] : []),
    ...(input.goals ? ["", `${t("reportMail.goals")}: ${input.goals}.`] : []),
    ...(said.length > 0 ? ["", `${heading}:`, ...said.map((sentence, index) => `${index + 1}. ${sentence}`)] : []),
    ...(pdf ? ["", pdf] : []),
    "",
    t("reportMail.openText", { url: input.dashboardUrl }),
    "",
    t("reportMail.footer", footer),
  ].join("\n");
  return { subject, html, text };
}
