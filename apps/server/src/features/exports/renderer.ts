/**
 * The seam between what renders a dashboard (print view in headless Chromium) and what sends it (the
 * automatic reports' e-mails, the PDF export route). Both the PDF and the preview image come from the
 * same print view (docs/product.md §4), so a report's attachment looks exactly like a downloaded PDF.
 */
import type { DashboardDateRange } from "@app/core";

export type PaperFormat = "A4" | "Letter";

export interface RenderRequest {
  companyId: string;
  dashboardId: string;
  /** IANA zone the date range is resolved and shown in. */
  timezone: string;
  /** The range to show; null keeps the dashboard's own saved range. */
  dateRange: DashboardDateRange | null;
  paper?: { format: PaperFormat; landscape: boolean };
  /** Realtime dashboards print their realtime view (docs/product.md §7 realtime/pdf). */
  realtime?: boolean;
}

export interface DashboardRenderer {
  /** A vector PDF of the print view; throws a RenderError when the output would be blank. */
  pdf(request: RenderRequest): Promise<Buffer>;
  /** A PNG of the print view's first screen (the e-mail's inline preview). */
  preview(request: RenderRequest): Promise<Buffer>;
  /** Both from one load of the print view (a report with a preview and a PDF pays for one render). */
  both(request: RenderRequest): Promise<{ pdf: Buffer; preview: Buffer }>;
  /**
   * Prepares for the first render (a browser launched, the print view's code loaded in a page kept warm);
   * never throws. Renders work without it, only slower the first time.
   */
  warmUp?(): Promise<boolean>;
}
