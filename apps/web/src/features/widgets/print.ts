import { createContext } from "react";

/**
 * The print view (docs/product.md §4), which the server's headless browser turns into a PDF or a report's
 * preview: charts draw as SVG (vector text in the PDF) without animation, and a widget whose data does
 * not come within `widgetTimeoutMs` shows 'Data unavailable' instead of holding the page, so one slow
 * source never fails a whole report.
 */
export interface PrintMode {
  widgetTimeoutMs: number;
}

export const PrintModeContext = createContext<PrintMode | null>(null);

/** A widget's own data time limit in the print view unless the print address names another. */
export const DEFAULT_PRINT_WIDGET_TIMEOUT_MS = 20_000;

/**
 * The realtime view (docs/product.md §2): realtime widgets say when their data was last fetched, in the
 * dashboard's zone ("Updated 14:03:27").
 */
export const RealtimeMarkContext = createContext<{ timezone: string } | null>(null);

/** "14:03:27" in the zone. */
export function updatedClock(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(at);
}

/**
 * When a stored result was fetched, as the widget's "Data as of" mark says it: "Nov 21, 14:05" in the
 * dashboard's zone (docs/decisions.md, "Persistent results").
 */
export function asOfText(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone }).format(at);
  const time = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(at);
  return `${day}, ${time}`;
}

/**
 * Loads what the print view draws charts with (echarts, its SVG renderer, every series type) before any
 * dashboard is shown: the server's renderer warms a page this way (routes/dashboard-print.tsx).
 */
export async function preloadPrintCharts(): Promise<void> {
  await (await import("./charts/EChart")).preloadPrintCharts();
}
