import type { TPageData } from "@app/core";
import { hydrate } from "@tanstack/react-query";
import { startTransition, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { createQueryClient } from "../app/query-client";
import { pageDataKey } from "../features/session/page-data";
import { hydrated } from "./boot";
import { PublicViewTree } from "./public-tree";
import type { ServerRenderState } from "./server-entry";

/** React's controls (user HTML's links, set as HTML, are never React's: not waited for). */
const CONTROLS = "button, input, select, textarea, [role='button']";

/**
 * The root commits before the parts inside lazy boundaries (the PDF button's tooltip…) are hydrated,
 * each once its code has loaded: the page is live when every control answers, or after 3 s at most.
 */
function whenControlsHydrated(container: HTMLElement): Promise<void> {
  const until = Date.now() + 3000;
  return new Promise((resolve) => {
    const check = () => {
      const waiting = [...container.querySelectorAll(CONTROLS)].some((element) => !hydrated(element));
      if (!waiting || Date.now() > until) resolve();
      else setTimeout(check, 16);
    };
    check();
  });
}

/** Any other address is the app's: the browser loads it as a page of its own. */
function LeaveForTheApp() {
  useEffect(() => window.location.reload(), []);
  return null;
}

/**
 * The app takes over the server-rendered public view: the same tree (ssr/public-tree.tsx) hydrated from
 * the same answers, in the zone the server rendered in, so React adopts the page as it stands. In a
 * transition, so React hydrates in slices and the page keeps answering. Resolves once it is live.
 */
export function hydratePublicView(
  container: HTMLElement,
  pageData: TPageData,
  state: ServerRenderState,
): Promise<void> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(pageDataKey, pageData);
  hydrate(queryClient, state.queries);
  return new Promise((resolve) => {
    const onLive = () =>
      void whenControlsHydrated(container).then(() => {
        document.documentElement.dataset.app = "live";
        resolve();
      });
    startTransition(() => {
      hydrateRoot(
        container,
        <PublicViewTree
          queryClient={queryClient}
          router={BrowserRouter}
          timezone={state.timezone}
          otherPages={<LeaveForTheApp />}
          onLive={onLive}
        />,
        {
          // React renders the part anew in the browser; the page stays usable. Said on the page for tests.
          onRecoverableError: (error) => {
            document.documentElement.dataset.hydration = "mismatch";
            console.warn("Hydration mismatch:", error);
          },
        },
      );
    });
  });
}
