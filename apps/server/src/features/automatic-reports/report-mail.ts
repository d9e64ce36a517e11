import { escapeHtml, MAIL_FONT, mailButtonRow, mailDocument } from "../../infra/mail-html";

/**
 * The automatic report e-mail (docs/product.md §3): HTML that common mail clients render (one 600 px
 * table, inline styles, no external CSS, scripts or web fonts), a plain-text part with the same facts,
 * the preview image inline by Content-ID, and a link to the live dashboard.
 */

export interface ReportMailInput {
  /** Who sends it, in the recipient's words: the agency. */
  companyName: string;
  dashboardName: string;
  /** "Oct 01, 2026 - Oct 31, 2026". */
  periodText: string;
  /** "Last month", "Last 7 days"… */
  rangeLabel: string;
  /** "Every month on the first day at 08:00". */
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
  /** The dashboard's insights summary, ranked, shown above the preview (none: no block). */
  insights?: readonly string[];
}

/** Subject: the dashboard and the period, which is what a recipient scans an inbox for. */
export function reportSubject(input: Pick<ReportMailInput, "dashboardName" | "periodText">): string {
  return `${input.dashboardName} – report for ${input.periodText}`;
}

export function reportMail(input: ReportMailInput): { subject: string; html: string; text: string } {
  const subject = reportSubject(input);
  const name = escapeHtml(input.dashboardName);
  const company = escapeHtml(input.companyName);
  const url = escapeHtml(input.dashboardUrl);
  const lateNote = input.late
    ? `<tr><td style="${MAIL_FONT} font-size: 13px; color: #92400e; background: #fffbeb; padding: 10px 24px; border-bottom: 1px solid #fde68a;">This report was due earlier and is sent late, with the data of its own period.</td></tr>`
    : "";
  const preview = input.previewCid
    ? `<tr><td style="padding: 0 24px 8px 24px;"><a href="${url}" style="text-decoration: none;"><img src="cid:${escapeHtml(input.previewCid)}" width="552" alt="Preview of ${name}" style="display: block; width: 100%; max-width: 552px; height: auto; border: 1px solid #e2e8f0; border-radius: 8px;"></a></td></tr>`
    : "";
  const said = input.insights ?? [];
  const insights =
    said.length > 0
      ? `<tr><td style="${MAIL_FONT} font-size: 15px; line-height: 22px; color: #0f172a; padding: 0 24px 12px 24px;"><strong>Insights</strong><ol style="margin: 6px 0 0 0; padding-left: 20px;">${said.map((sentence) => `<li style="margin: 0 0 4px 0;">${escapeHtml(sentence)}</li>`).join("")}</ol></td></tr>`
      : "";
  const goals = input.goals
    ? `<tr><td style="${MAIL_FONT} font-size: 15px; line-height: 22px; color: #0f172a; padding: 0 24px 12px 24px;"><strong>Goals:</strong> ${escapeHtml(input.goals)}.</td></tr>`
    : "";
  const pdfNote = input.pdfFilename
    ? `<tr><td style="${MAIL_FONT} font-size: 13px; color: #475569; padding: 4px 24px 0 24px;">The full report is attached as a PDF (${escapeHtml(input.pdfFilename)}).</td></tr>`
    : "";
  const html = mailDocument(
    subject,
    `<tr><td style="${MAIL_FONT} font-size: 13px; color: #64748b; padding: 20px 24px 0 24px;">${company}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 22px; line-height: 28px; font-weight: bold; color: #0f172a; padding: 6px 24px 4px 24px;">${name}</td></tr>
<tr><td style="${MAIL_FONT} font-size: 15px; color: #334155; padding: 0 24px 16px 24px;">${escapeHtml(input.rangeLabel)}: <strong>${escapeHtml(input.periodText)}</strong></td></tr>
${lateNote}
${goals}
${insights}
${preview}
${pdfNote}
${mailButtonRow(input.dashboardUrl, "Open the live dashboard")}
<tr><td style="${MAIL_FONT} font-size: 12px; line-height: 18px; color: #94a3b8; padding: 0 24px 20px 24px; border-top: 1px solid #f1f5f9;">${escapeHtml(input.scheduleText)}. You receive this report because ${company} added your address to it.</td></tr>`,
  );
  const text = [
    input.companyName,
    "",
    input.dashboardName,
    `${input.rangeLabel}: ${input.periodText}`,
    ...(input.late ? ["", "This report was due earlier and is sent late, with the data of its own period."] : []),
    ...(input.goals ? ["", `Goals: ${input.goals}.`] : []),
    ...(said.length > 0 ? ["", "Insights:", ...said.map((sentence, index) => `${index + 1}. ${sentence}`)] : []),
    ...(input.pdfFilename ? ["", `The full report is attached as a PDF (${input.pdfFilename}).`] : []),
    "",
    `Open the live dashboard: ${input.dashboardUrl}`,
    "",
    `${input.scheduleText}. You receive this report because ${input.companyName} added your address to it.`,
  ].join("\n");
  return { subject, html, text };
}
