import { ENGLISH } from "@app/core/i18n/english";
/**
 * The PDF button's states (docs/product.md §4): idle → loading → ready (the file waits for the next
 * click, which downloads it) → idle; any failure → failed, shown for 1.5 s (§9), then idle.
 */
export type PdfButtonState = "idle" | "loading" | "ready" | "failed";

/** docs/product.md §9: how long the failed icon shows. */
export const PDF_FAILED_MS = 1500;
/**
 * When the button asks again while the PDF is being made: soon at first (a warm server makes a small
 * dashboard's PDF in well under a second, and a fixed 1 s poll added up to a second of waiting to it),
 * then less and less often, so a long render is not asked about 3 times a second.
 */
export const PDF_POLL_FIRST_MS = 300;
export const PDF_POLL_MAX_MS = 2000;

/** The wait before the n-th check (0-based): 300 ms, then ×1.5 each time, at most 2 s. */
export function pdfPollDelay(attempt: number): number {
  return Math.min(PDF_POLL_MAX_MS, Math.round(PDF_POLL_FIRST_MS * 1.5 ** attempt));
}
/** A PDF that is not ready after this long counts as failed (the server's own limits are shorter). */
export const PDF_GIVE_UP_MS = 3 * 60_000;

/** What a click does in each state. */
export function pdfClick(state: PdfButtonState): "start" | "download" | "none" {
  if (state === "idle") return "start";
  if (state === "ready") return "download";
  return "none";
}

type PdfMessage = "pdf.making" | "pdf.failed" | "pdf.download" | "pdf.tooMany";

function englishPdfWords(key: PdfMessage, values?: { max: number }): string {
  return ENGLISH[key].replace("{max}", String(values?.max ?? ""));
}

/** The button's label and whether it can be pressed, from its state and the dashboard's widget count. */
export function pdfButtonView(
  state: PdfButtonState,
  widgetCount: number,
  maxPdfWidgets: number,
  // The dashboard's words (a client's page is in its language: lib/i18n.tsx); English by default.
  t: (key: PdfMessage, values?: { max: number }) => string = englishPdfWords,
): { label: string; disabled: boolean; tooltip: string | null } {
  if (widgetCount > maxPdfWidgets) {
    return { label: "PDF", disabled: true, tooltip: t("pdf.tooMany", { max: maxPdfWidgets }) };
  }
  if (state === "loading") return { label: "PDF", disabled: true, tooltip: t("pdf.making") };
  if (state === "ready") return { label: t("pdf.download"), disabled: false, tooltip: null };
  if (state === "failed") return { label: "PDF", disabled: true, tooltip: t("pdf.failed") };
  return { label: "PDF", disabled: false, tooltip: null };
}
