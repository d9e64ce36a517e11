import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { usePageTitle, useSiteTitle } from "../app/page-title";
import { DashboardScreen } from "../features/dashboard";
import { pageDataKey } from "../features/session/keys";
import { DEFAULT_PRINT_WIDGET_TIMEOUT_MS } from "../features/widgets";
import { setEmbedToken } from "../lib/api";

type PrintWindow = Window & { __printReady?: boolean; __printNavigate?: (to: string) => void };

/** docs/product.md §9: the print view signals ready this long after the last widget settled. */
const PRINT_READY_DELAY_MS = 1500;

/** Every widget card has settled (drawn, empty, failed or given up) and every image has loaded. */
function settled(root: ParentNode): boolean {
  const cards = [...root.querySelectorAll<HTMLElement>("article.dash-card")];
  if (cards.some((card) => card.dataset.ready !== "true")) return false;
  // The insights summary (issue 13) is the PDF's first thing: printed once it has its statements.
  if (root.querySelector("[data-insights-loading='true']")) return false;
  return [...root.querySelectorAll("img")].every((image) => image.complete);
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
 * Sets `data-print-ready="true"` on <html> (and `window.__printReady`) once the dashboard is shown,
 * every widget settled, the fonts loaded, and 1.5 s have passed: the server's headless browser waits
 * for it before it prints. A page that fails to load never signals; the renderer's own time limit ends it.
 */
function usePrintReadySignal() {
  useEffect(() => {
    let stopped = false;
    let timer = 0;
    const check = async () => {
      if (stopped) return;
      const shown = document.querySelector(".dash-root[data-print]") || document.querySelector(".dash-empty");
      if (shown) paintPages(shown);
      if (!shown || !settled(document)) {
        timer = window.setTimeout(check, 100);
        return;
      }
      await document.fonts.ready;
      await new Promise((resolve) => setTimeout(resolve, PRINT_READY_DELAY_MS));
      // Something may have started loading again in the meantime (a late image): look once more.
      if (stopped) return;
      if (!settled(document)) {
        timer = window.setTimeout(check, 100);
        return;
      }
      document.documentElement.dataset.printReady = "true";
      (window as PrintWindow).__printReady = true;
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
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
 * and the period as Copy URL parameters; a member may also open it directly. Every address (a warm
 * navigation included) mounts a fresh view: its own pass, its own ready signal.
 */
export default function DashboardPrintScreen() {
  const location = useLocation();
  useWarmNavigation();
  return <PrintView key={location.key} />;
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
  usePrintReadySignal();
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
