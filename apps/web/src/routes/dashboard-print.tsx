import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { usePageTitle, useSiteTitle } from "../app/page-title";
import { DashboardScreen } from "../features/dashboard";
import { pageDataKey } from "../features/session/keys";
import { DEFAULT_PRINT_WIDGET_TIMEOUT_MS, preloadPrintCharts } from "../features/widgets";
import { setEmbedToken } from "../lib/api";

type PrintWindow = Window & { __printReady?: boolean; __printNavigate?: (to: string) => void };

/** Every widget card has settled (drawn, empty, failed or given up) and every image has loaded. */
function settled(root: ParentNode): boolean {
  const cards = [...root.querySelectorAll<HTMLElement>("article.dash-card")];
  if (cards.some((card) => card.dataset.ready !== "true")) return false;
  // The insights summary is the PDF's first thing: printed once it has its statements.
  if (root.querySelector("[data-insights-loading='true']")) return false;
  // A part whose code is still loading (a text card's sanitiser) shows nothing yet.
  if (root.querySelector("[data-chunk-loading='true']")) return false;
  return [...root.querySelectorAll("img")].every((image) => image.complete);
}

/** Every image decoded (a loaded image may still be decoded lazily, at paint); a broken one counts as done. */
async function decodeImages(root: ParentNode): Promise<void> {
  await Promise.all([...root.querySelectorAll("img")].map((image) => image.decode().catch(() => undefined)));
}

/**
 * Every printed page's area in the dashboard's canvas colour, not only as far as the dashboard reaches:
 * otherwise the last page's colour stops under its last widget (Chromium paints the root's background
 * on each page; the paper's margins stay white).
 */
function paintPages(shown: Element) {
  const canvas = getComputedStyle(shown).getPropertyValue("--dash-canvas").trim();
  if (canvas) document.documentElement.style.backgroundColor = canvas;
}

/**
 * Marks the cells taller than a printed page (`data-taller-than-page`): the stylesheet keeps a card whole
 * only when it fits on a page, and lets a taller one break where it must (dashboard.css, print view).
 */
function markTallCells(pageHeight: number) {
  if (!(pageHeight > 0)) return;
  for (const cell of document.querySelectorAll<HTMLElement>(".dash-root[data-print] .dash-cell")) {
    if (cell.getBoundingClientRect().height > pageHeight) cell.dataset.tallerThanPage = "true";
    else delete cell.dataset.tallerThanPage;
  }
}

function signalReady() {
  document.documentElement.dataset.printReady = "true";
  (window as PrintWindow).__printReady = true;
}

/**
 * Sets `data-print-ready="true"` on <html> (and `window.__printReady`) once the dashboard is shown and
 * every widget has drawn its final frame: each card `data-ready` (a chart on ECharts' own `finished`
 * event, a table or summary once rendered with its data, or settled empty, failed or given up), the
 * insights summary in, every image decoded and the fonts loaded. The server's headless browser prints
 * at that moment: the print view draws without animation, so there is nothing to wait for after it.
 * `settleMs` (the server's PRINT_SETTLE_MS, in the address) adds a fixed wait for whoever wants one;
 * `pageHeight` (the paper's printable height, in the address) decides which cards may break.
 * A page that fails to load never signals; the renderer's own time limit ends it.
 */
function usePrintReadySignal(settleMs: number, pageHeight: number) {
  useEffect(() => {
    let stopped = false;
    let checking = false;
    let again = false;
    const check = async () => {
      if (stopped) return;
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        // Cheap, as it runs on every frame: nothing here may force a style or layout pass.
        const shown = document.querySelector(".dash-root[data-print]") || document.querySelector(".dash-empty");
        if (!shown || !settled(document)) return;
        await document.fonts.ready;
        await decodeImages(document);
        if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
        // Something may have started loading again in the meantime (a late image): look once more.
        if (stopped || !settled(document)) return;
        paintPages(shown);
        markTallCells(pageHeight);
        signalReady();
        stopped = true;
      } finally {
        checking = false;
        if (again && !stopped) {
          again = false;
          void check();
        }
      }
    };
    // Looked at on every frame (and on every image or font arriving), not on a 100 ms clock: the signal
    // comes within a frame of the last widget's drawing. The check is a few attribute reads; watching the
    // page's mutations instead cost more, as the SVG charts insert thousands of nodes. The interval is for
    // a page in a background tab, which gets no frames.
    let frame = 0;
    const everyFrame = () => {
      void check();
      if (!stopped) frame = requestAnimationFrame(everyFrame);
    };
    const onLoad = () => void check();
    document.addEventListener("load", onLoad, true);
    document.addEventListener("error", onLoad, true);
    document.fonts.addEventListener("loadingdone", onLoad);
    const timer = window.setInterval(() => void check(), 250);
    everyFrame();
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      document.removeEventListener("load", onLoad, true);
      document.removeEventListener("error", onLoad, true);
      document.fonts.removeEventListener("loadingdone", onLoad);
      clearInterval(timer);
    };
  }, [settleMs, pageHeight]);
}

/**
 * The server's renderer keeps its pages warm: instead of loading the app again for every PDF, it calls
 * `window.__printNavigate("/dashboards/…/print?…")` on a page that already shows a print view. That
 * forgets the previous ready signal and every cached answer but the page's own data (the next dashboard
 * may be another company's), then routes inside the app, so only the next dashboard's requests remain.
 */
function useWarmNavigation() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const win = window as PrintWindow;
    win.__printNavigate = (to: string) => {
      delete document.documentElement.dataset.printReady;
      document.documentElement.style.backgroundColor = "";
      win.__printReady = false;
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== pageDataKey[0] });
      navigate(to, { replace: true });
    };
    return () => {
      delete win.__printNavigate;
    };
  }, [navigate, queryClient]);
}

/**
 * /dashboards/:permalink/print (dashboard.print): the dashboard without chrome, as PDFs and e-mailed
 * reports show it. The server's renderer opens it with a short-lived pass (`token`), the zone (`timezone`)
 * and the period as Copy URL parameters (and `settleMs`, PRINT_SETTLE_MS, when set); a member may also open
 * it directly. Every address (a warm
 * navigation included) mounts a fresh view: its own pass, its own ready signal.
 */
export default function DashboardPrintScreen() {
  const location = useLocation();
  const [search] = useSearchParams();
  useWarmNavigation();
  if (search.get("warm") === "1") return <WarmUp key={location.key} />;
  return <PrintView key={location.key} />;
}

/**
 * `/dashboards/-/print?warm=1`: the server's renderer warms a page with it at start (chromium-renderer.ts).
 * No dashboard, no request of its own: once the app and this route (the dashboard screen's code) have
 * loaded, it signals ready, so a first render waiting on the warm-up is not held longer; the chart code
 * (echarts, its SVG renderer, every series type) keeps loading in the background, ready or in flight when
 * the first render routes this page to its dashboard (`__printNavigate`).
 */
function WarmUp() {
  useEffect(() => {
    signalReady();
    void preloadPrintCharts().catch(() => undefined);
  }, []);
  return null;
}

function PrintView() {
  const { permalink = "" } = useParams();
  const [search] = useSearchParams();
  const token = search.get("token");
  // Set before the first request leaves (the screen's first render starts the query).
  useState(() => token && setEmbedToken(token));
  const [title, setTitle] = useState<string | null>(null);
  // The owner's site title, not the product's (white label): the PDF takes its title from the page's.
  const [siteTitle, setSiteTitle] = useState<string | null>(null);
  usePageTitle(title);
  useSiteTitle(siteTitle);
  // Not numbers (or none): no wait, no page height.
  usePrintReadySignal(Math.max(Number(search.get("settleMs")) || 0, 0), Number(search.get("pageHeight")) || 0);
  const timeout = Number(search.get("widgetTimeoutMs"));
  const print = useMemo(
    () => ({ widgetTimeoutMs: timeout > 0 ? timeout : DEFAULT_PRINT_WIDGET_TIMEOUT_MS }),
    [timeout],
  );
  return (
    <DashboardScreen
      key={permalink}
      permalink={permalink}
      onTitle={setTitle}
      onSiteTitle={setSiteTitle}
      print={print}
      timezone={search.get("timezone") ?? undefined}
    />
  );
}
