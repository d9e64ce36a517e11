import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./app/global.css";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { createQueryClient } from "./app/query-client";
import { startEarlyDashboardFetch } from "./features/dashboard/early-fetch";
import { loadInitialPageData, pageDataKey } from "./features/session/page-data";
import { startErrorReporting } from "./lib/error-reporting";

// docs/product.md §8: native alert dialogs are disabled; the app uses its own modals.
window.alert = (message?: unknown) => console.warn("alert() suppressed:", message);

async function start(container: HTMLElement) {
  // The entry's evaluation (React, Mantine, the router) is one task already; what follows (page data,
  // the viewer's time zone, whose first look-up loads the browser's zone data) gets a task of its own.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const root = createRoot(container);
  try {
    const pageData = await loadInitialPageData();
    startEarlyDashboardFetch(pageData);
    void startErrorReporting(pageData.config.errorReporting);
    const queryClient = createQueryClient();
    queryClient.setQueryData(pageDataKey, pageData);
    // A transition, so React renders the first screen in slices of a few milliseconds and yields to the
    // browser in between, instead of one long task that blocks a phone's main thread (issue 6 §5).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App queryClient={queryClient} />
        </StrictMode>,
      ),
    );
  } catch (error) {
    console.error(error);
    container.innerHTML =
      '<div style="font-family:system-ui,sans-serif;max-width:420px;margin:20vh auto;text-align:center;color:#333"><h1 style="font-size:22px">We could not load the app</h1><p style="color:#666">The server did not answer. Please reload the page in a moment.</p></div>';
  }
}

const container = document.getElementById("root");
if (container) void start(container);
