import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./app/global.css";
import { browserTimezone, startEarlyDashboardFetch } from "./features/dashboard/early-fetch";
import { loadInitialPageData, readInjectedPageData } from "./features/session/page-data";
import { startErrorReporting } from "./lib/error-reporting";
import { setIdentification } from "./lib/identification";

// docs/product.md §8: native alert dialogs are disabled; the app uses its own modals.
window.alert = (message?: unknown) => console.warn("alert() suppressed:", message);

/** Resolves in a later task, so the browser may paint and answer input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Resolves after the browser has painted what it has (the server's HTML: the dashboard's header, the
 * loader), or after 50 ms where no frame comes (a tab in the background draws none).
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

/**
 * The start in steps, each a task of its own (docs/decisions.md "Public view: the start in
 * steps"): the page data and the dashboard's request first, so the network works while code evaluates;
 * then the server's HTML is painted; then React is evaluated; then the app (Mantine, the router, the
 * screens) is evaluated and renders. The chunks are preloaded by the page's HTML (vite.config.ts,
 * preloadStartChunks), so the steps wait for no download of their own.
 */
async function start(container: HTMLElement) {
  await nextTask();
  try {
    const pageData = await loadInitialPageData();
    // Error reporting's SDK (when there is a DSN) downloads while the rest of the start runs.
    void startErrorReporting(pageData.config.errorReporting);
    // The viewer's zone is the early request's first need, and its first look-up loads the browser's
    // zone data (tens of milliseconds on a phone): a task of its own, which also says the zone for next
    // time (a server-rendered page has said it already).
    await nextTask();
    if (!zoneRemembered) rememberZone(browserTimezone());
    startEarlyDashboardFetch(pageData);
    await afterPaint();
    await import("react-dom/client");
    await nextTask();
    const { render } = await import("./render");
    render(container, pageData);
  } catch (error) {
    console.error(error);
    if (!zoneRemembered) rememberZone(browserTimezone());
    container.innerHTML =
      '<div style="font-family:system-ui,sans-serif;max-width:420px;margin:20vh auto;text-align:center;color:#333"><h1 style="font-size:22px">We could not load the app</h1><p style="color:#666">The server did not answer. Please reload the page in a moment.</p></div>';
  }
}

let zoneRemembered = false;

/** The zone the server renders a public dashboard in next time (ssr/boot.ts, server-render.ts): set on every page. */
function rememberZone(zone: string): void {
  zoneRemembered = true;
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed, encoded value; the Cookie Store API is missing in Firefox and Safari.
  document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
}

const container = document.getElementById("root");
if (container) {
  const state = document.getElementById("ssr-state");
  const rendered = state?.textContent;
  if (rendered && state?.dataset.view === "member") {
    // A member's own dashboard, rendered by the server in the member's zone: the app hydrates it at once
    // (ssr/member-boot.ts, its own chunk, preloaded by that page); if it cannot, it starts anew over it.
    rememberZone(browserTimezone());
    import("./ssr/member-boot")
      .then(({ bootMember }) => bootMember(container, rendered))
      .catch((error: unknown) => {
        console.error(error);
        void start(container);
      });
  } else if (!rendered) {
    // Any other page: the zone is looked up where the start first needs it, in a task of its own.
    void start(container);
  } else {
    // A public dashboard the server rendered in this viewer's zone waits for the reader (ssr/boot.ts, its
    // own chunk, preloaded by that page); in another zone (a first visit, before the server knew it) its
    // dates may differ, so the app starts anew over it. Only such a page looks the zone up at once.
    const zone = browserTimezone();
    rememberZone(zone);
    // Its state's first field is the zone (server-entry.tsx): read without parsing the whole state here.
    const pageData = rendered.startsWith(`{"timezone":${JSON.stringify(zone)},`) ? readInjectedPageData() : null;
    if (pageData) {
      setIdentification(pageData.identification);
      void startErrorReporting(pageData.config.errorReporting);
      import("./ssr/boot").then(
        ({ bootServerRendered }) => bootServerRendered(container, pageData, JSON.parse(rendered)),
        () => start(container),
      );
    } else {
      keepServerPage(container);
      void start(container);
    }
  }
}

/**
 * The server's page, rendered in another zone, stays in view over the app's root until the app has
 * drawn the dashboard (it removes `#boot-view` then: DashboardScreen), instead of giving way to a loader.
 */
function keepServerPage(container: HTMLElement) {
  // The start's preloads, kept inert by the server for this case (page-data routes.ts): fetched now.
  const preloads = document.getElementById("start-preloads") as HTMLTemplateElement | null;
  if (preloads) document.head.append(preloads.content);
  const page = document.createElement("div");
  page.id = "boot-view";
  page.setAttribute("aria-hidden", "true");
  page.style.cssText = "position:absolute;top:0;left:0;right:0;z-index:1";
  page.append(...container.childNodes);
  container.before(page);
}
