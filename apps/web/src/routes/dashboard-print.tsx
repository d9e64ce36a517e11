import { useEffect, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { usePageTitle } from "../app/page-title";
import { DashboardScreen } from "../features/dashboard";
import { DEFAULT_PRINT_WIDGET_TIMEOUT_MS } from "../features/widgets";
import { setEmbedToken } from "../lib/api";

/** docs/product.md §9: the print view signals ready this long after the last widget settled. */
const PRINT_READY_DELAY_MS = 1500;

/** Every widget card has settled (drawn, empty, failed or given up) and every image has loaded. */
function settled(root: ParentNode): boolean {
  const cards = [...root.querySelectorAll<HTMLElement>("article.dash-card")];
  if (cards.some((card) => card.dataset.ready !== "true")) return false;
  return [...root.querySelectorAll("img")].every((image) => image.complete);
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
      (window as Window & { __printReady?: boolean }).__printReady = true;
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
}

/**
 * /dashboards/:permalink/print (dashboard.print): the dashboard without chrome, as PDFs and e-mailed
 * reports show it. The server's renderer opens it with a short-lived pass (`token`), the zone (`timezone`)
 * and the period as Copy URL parameters; a member may also open it directly.
 */
export default function DashboardPrintScreen() {
  const { permalink = "" } = useParams();
  const [search] = useSearchParams();
  const token = search.get("token");
  // Set before the first request leaves (the screen's first render starts the query).
  useState(() => token && setEmbedToken(token));
  const [title, setTitle] = useState<string | null>(null);
  usePageTitle(title);
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
      print={print}
      timezone={search.get("timezone") ?? undefined}
    />
  );
}
