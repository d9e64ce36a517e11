/**
 * The DashboardRenderer on headless Chromium (ctx.browser: a warm, bounded pool of pages). It opens the
 * dashboard's print view through this deployment's own web address with a short-lived pass, waits for
 * the view's ready signal (every widget settled, fonts loaded, +1.5 s), refuses blank output, then prints
 * with page.pdf() (vector text) or takes the first screen as a PNG (the e-mail's preview).
 */
import type { Page } from "playwright-core";
import type { AppContext } from "../../context";
import { escapeHtml } from "../../infra/mail-html";
import type { DashboardsService, ExportTarget } from "../dashboards/service";
import type { DashboardRenderer, PaperFormat, RenderRequest } from "./renderer";

/** Millimetres of page margin; the footer line (name, page numbers) sits in the bottom one. */
const MARGIN_MM = { top: 10, bottom: 14, side: 10 };
const PX_PER_MM = 96 / 25.4;
const PAPER_MM: Record<PaperFormat, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  Letter: { width: 215.9, height: 279.4 },
};

/** Raised when the print view would give a PDF without any widget content (never delivered). */
export class BlankRenderError extends Error {}
/** Raised when the print view did not get ready in time (a dead page, not a slow widget: those time out alone). */
export class RenderTimeoutError extends Error {}

/** The printable width of the paper in CSS pixels: the print view is laid out at exactly this width. */
export function printableWidth(paper: NonNullable<RenderRequest["paper"]>): number {
  const size = PAPER_MM[paper.format];
  const width = paper.landscape ? size.height : size.width;
  return Math.floor((width - 2 * MARGIN_MM.side) * PX_PER_MM);
}

/** The printable height of one page in CSS pixels (the print view keeps a card whole only when it fits). */
export function printableHeight(paper: NonNullable<RenderRequest["paper"]>): number {
  const size = PAPER_MM[paper.format];
  const height = paper.landscape ? size.width : size.height;
  return Math.floor((height - MARGIN_MM.top - MARGIN_MM.bottom) * PX_PER_MM);
}

/**
 * The print view's address for a request: pass, zone, period (as Copy URL writes it), widget time limit,
 * the page's printable height and, when set, the fixed wait after the last widget has drawn (PRINT_SETTLE_MS).
 */
export function printUrl(
  baseUrl: string,
  target: ExportTarget,
  request: RenderRequest,
  widgetTimeoutMs: number,
  settleMs = 0,
) {
  const url = new URL(`${baseUrl}/dashboards/${encodeURIComponent(target.permalink)}/print`);
  url.searchParams.set("token", target.renderToken);
  url.searchParams.set("timezone", request.timezone);
  url.searchParams.set("widgetTimeoutMs", String(widgetTimeoutMs));
  url.searchParams.set("pageHeight", String(printableHeight(request.paper ?? { format: "A4", landscape: false })));
  if (settleMs > 0) url.searchParams.set("settleMs", String(settleMs));
  const range = request.dateRange;
  if (range?.startDate && range.endDate) {
    url.searchParams.set("startDate", range.startDate);
    url.searchParams.set("endDate", range.endDate);
    if (range.customCompare && range.compareStartDate && range.compareEndDate) {
      url.searchParams.set("compareStartDate", range.compareStartDate);
      url.searchParams.set("compareEndDate", range.compareEndDate);
    }
  }
  return url.toString();
}

/** The line at the foot of every page: the dashboard's name and "page / pages" (Chromium fills the spans). */
function footerTemplate(name: string): string {
  return `<div style="font-family: 'Noto Sans', 'Liberation Sans', sans-serif; font-size: 8px; color: #64748b; width: 100%; padding: 0 ${MARGIN_MM.side}mm; display: flex; justify-content: space-between;"><span>${escapeHtml(name)}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;
}

/**
 * What the print view drew, read from the page before printing: how many widgets there are and how many
 * show their data (drawn or honestly empty, with text, a chart's SVG text or an image in them). A page
 * where every widget failed or gave up ('Data Error', 'Data unavailable') counts as blank: a report of
 * nothing but apologies is not sent.
 */
/** The little of the DOM these page functions touch (the server's types know no DOM). */
interface PageElement {
  dataset: Record<string, string | undefined>;
  textContent: string | null;
  querySelector(selector: string): PageElement | null;
}
interface PageDocument {
  documentElement: PageElement;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

async function inspect(page: Page): Promise<{ widgets: number; withContent: number }> {
  // Functions, not strings: the app's CSP forbids eval, which string expressions need.
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: PageDocument }).document;
    const cards = [...doc.querySelectorAll("article.dash-card")];
    const withContent = cards.filter((card) => {
      if (card.dataset.state !== "ready" && card.dataset.state !== "empty") return false;
      const body = card.querySelector(".dash-card-body");
      if (!body) return false;
      return (body.textContent ?? "").trim().length > 0 || body.querySelector("svg text, img, canvas") !== null;
    }).length;
    return { widgets: cards.length, withContent };
  });
}

/**
 * On a page that still shows a print view of this deployment (a warm page), routes inside the already
 * loaded app to the next one (the view's `__printNavigate`, which also forgets the last ready signal and
 * cached answers) instead of loading the app again: 1–3 s less per render on two cores. False when the
 * page holds anything else, and the caller loads the address.
 */
async function navigateWarm(page: Page, url: string): Promise<boolean> {
  const next = new URL(url);
  let current: URL;
  try {
    current = new URL(page.url());
  } catch {
    return false;
  }
  if (current.origin !== next.origin || !/^\/dashboards\/[^/]+\/print$/.test(current.pathname)) return false;
  const to = `${next.pathname}${next.search}`;
  return page
    .evaluate((address) => {
      const win = globalThis as unknown as { __printNavigate?: (to: string) => void };
      if (typeof win.__printNavigate !== "function") return false;
      win.__printNavigate(address);
      return true;
    }, to)
    .catch(() => false);
}

/**
 * The print view's warm-up address: the app and the print view's code (the dashboard screen, ECharts, its
 * SVG renderer and every chart part) loaded, no dashboard shown. `__printNavigate` then routes it to the
 * first real render like any warm page (routes/dashboard-print.tsx).
 */
export function warmUpUrl(baseUrl: string): string {
  return `${baseUrl}/dashboards/-/print?warm=1`;
}

/** Runs in the page: true once the print view has signalled ready (a function: the app's CSP forbids eval). */
const printReady = () =>
  (globalThis as unknown as { document: PageDocument }).document.documentElement.dataset.printReady === "true";

export interface ChromiumDashboardRenderer extends DashboardRenderer {
  /**
   * Launches the browser and loads the print view's code into a warm page, so the first render after a
   * start pays neither. Never throws; resolves false when the view could not be loaded (renders then load
   * it themselves). A render asked for meanwhile waits for it and takes the page it warmed.
   */
  warmUp(): Promise<boolean>;
}

export function createDashboardRenderer(
  ctx: Pick<AppContext, "browser" | "config" | "logger">,
  dashboards: Pick<DashboardsService, "exportTargetById">,
): ChromiumDashboardRenderer {
  const widgetTimeoutMs = ctx.config.render.widgetTimeoutMs;
  const settleMs = ctx.config.render.settleMs;
  // The whole view may take every widget's limit plus loading the app and the settle time; beyond that
  // the page is dead.
  const readyTimeoutMs = widgetTimeoutMs + settleMs + 30_000;
  let warming: Promise<boolean> | null = null;
  /** The warm-up's try in progress, if one is (renders wait for it, not for its retries). */
  let warmingPage: Promise<boolean> | null = null;

  async function open(page: Page, request: RenderRequest): Promise<ExportTarget> {
    const target = await dashboards.exportTargetById(request.companyId, request.dashboardId);
    if (target.widgetCount === 0) throw new BlankRenderError("This dashboard has no widgets to export.");
    const url = printUrl(ctx.config.render.baseUrl, target, request, widgetTimeoutMs, settleMs);
    if (!(await navigateWarm(page, url))) {
      await page.emulateMedia({ media: "screen" });
      await page.goto(url, { waitUntil: "domcontentloaded", timeout: readyTimeoutMs });
    }
    try {
      // Checked on every frame: the view signals the moment its last widget has drawn, and a 100 ms poll
      // was up to 100 ms of nothing per PDF.
      await page.waitForFunction(printReady, undefined, { timeout: readyTimeoutMs, polling: "raf" });
    } catch {
      throw new RenderTimeoutError("The dashboard's print view did not finish loading.");
    }
    const seen = await inspect(page);
    if (seen.widgets === 0 || seen.withContent === 0) {
      throw new BlankRenderError("The dashboard's print view showed no widget content.");
    }
    return target;
  }

  /** The first screen of the print view as laid out for the paper: what the e-mail shows above the fold. */
  const screenshot = (page: Page, width: number) =>
    page.screenshot({ type: "png", clip: { x: 0, y: 0, width, height: Math.round(width * 1.25) } });

  async function render(request: RenderRequest, want: { pdf: boolean; preview: boolean }) {
    const paper = request.paper ?? { format: "A4" as const, landscape: false };
    const width = printableWidth(paper);
    // The warm-up's page is further on than a new one would be (the browser launched, the app loading);
    // not its pauses between failed tries, though.
    if (warmingPage) await warmingPage.catch(() => undefined);
    return ctx.browser.withWarmPage(
      "print",
      async (page) => {
        const target = await open(page, request);
        const preview = want.preview ? await screenshot(page, width) : null;
        let pdf: Buffer | null = null;
        if (want.pdf) {
          pdf = await page.pdf({
            format: paper.format,
            landscape: paper.landscape,
            printBackground: true,
            displayHeaderFooter: true,
            headerTemplate: "<span></span>",
            footerTemplate: footerTemplate(target.name),
            margin: {
              top: `${MARGIN_MM.top}mm`,
              bottom: `${MARGIN_MM.bottom}mm`,
              left: `${MARGIN_MM.side}mm`,
              right: `${MARGIN_MM.side}mm`,
            },
          });
          // A PDF without a single font carries no text at all: never delivered (docs/product.md §4).
          if (!pdf.includes("/Font")) throw new BlankRenderError("The PDF came out without any text.");
        }
        return { pdf, preview };
      },
      // Taller than a screen, so the preview's clip lies inside the viewport.
      { viewport: { width, height: Math.round(width * 1.25) } },
    );
  }

  async function loadWarmView(): Promise<boolean> {
    const paper = { format: "A4" as const, landscape: false };
    const width = printableWidth(paper);
    return ctx.browser.withWarmPage(
      "print",
      async (page) => {
        // Another render already left a print view on this page: nothing to warm.
        if (/\/dashboards\/[^/]+\/print$/.test(new URL(page.url(), "http://x").pathname)) return true;
        await page.emulateMedia({ media: "screen" });
        await page.goto(warmUpUrl(ctx.config.render.baseUrl), { waitUntil: "domcontentloaded", timeout: 60_000 });
        await page.waitForFunction(printReady, undefined, { timeout: 60_000, polling: "raf" });
        return true;
      },
      { viewport: { width, height: Math.round(width * 1.25) } },
    );
  }

  return {
    warmUp() {
      warming ??= (async () => {
        // A worker's web process may still be starting: a few tries, then renders load the view themselves.
        for (const delayMs of [0, 1000, 3000, 9000]) {
          if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
          try {
            warmingPage = loadWarmView();
            return await warmingPage;
          } catch (error) {
            ctx.logger.debug({ err: error }, "print view warm-up failed");
          } finally {
            warmingPage = null;
          }
        }
        ctx.logger.warn("The print view could not be warmed up; the first PDF will load it.");
        return false;
      })().finally(() => {
        warming = null;
      });
      return warming;
    },
    async pdf(request) {
      return (await render(request, { pdf: true, preview: false })).pdf as Buffer;
    },
    async preview(request) {
      return (await render(request, { pdf: false, preview: true })).preview as Buffer;
    },
    async both(request) {
      const { pdf, preview } = await render(request, { pdf: true, preview: true });
      return { pdf: pdf as Buffer, preview: preview as Buffer };
    },
  };
}
