import type { TPageData } from "@app/core";
import { hydrate } from "@tanstack/react-query";
import { startTransition, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { createQueryClient } from "../app/query-client";
import { pageDataKey } from "../features/session/page-data";
import { loadI18nRuntime } from "../lib/i18n";
import type { LazyPartTracker } from "../ui/LazyPart";
import { PublicViewTree } from "./public-tree";
import type { ServerRenderState } from "./server-entry";

/** The longest the page waits for its lazy parts before it is said live anyway. */
const LIVE_AT_MOST_MS = 3000;

/** What ssr/boot.ts learns from the hydrated page once it is live. */
export interface HydratedView {
  /**
   * Whether React answered this click (it reached React's own handlers, public-tree.tsx): React answers
   * a click on what it has adopted (on the page around the lazy parts even a little before: it hydrates
   * that at once for the click). A click before the app was there, or inside a part whose code is still
   * loading, goes unanswered.
   */
  answered: (event: Event) => boolean;
}

/**
 * The lazy parts still to be adopted (ui/LazyPart.tsx), and what is called each time one is: the root
 * commits before the parts inside its lazy boundaries (the date range's, the PDF button's tooltip…),
 * each adopted in a commit of its own once its code has loaded.
 */
function partTracker(onChange: () => void): LazyPartTracker & { waiting: () => number } {
  const waiting = new Set<object>();
  return {
    waitFor: () => {
      const part = {};
      waiting.add(part);
      return () => {
        // Checked once the commit is over (a microtask): a part inside this one is waited for from that
        // same commit on.
        if (waiting.delete(part)) queueMicrotask(onChange);
      };
    },
    waiting: () => waiting.size,
  };
}

/** Any other address is the app's: the browser loads it as a page of its own. */
function LeaveForTheApp() {
  useEffect(() => window.location.reload(), []);
  return null;
}

/**
 * The app takes over the server-rendered public view: the same tree (ssr/public-tree.tsx) hydrated from
 * the same answers, in the zone the server rendered in, so React adopts the page as it stands. In a
 * transition, so React hydrates in slices and the page keeps answering. Resolves once it is live: the
 * root has committed and every lazy part that holds controls too (or 3 s after the root at most).
 */
export function hydratePublicView(
  container: HTMLElement,
  pageData: TPageData,
  state: ServerRenderState,
): Promise<HydratedView> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(pageDataKey, pageData);
  hydrate(queryClient, state.queries);
  const answered = new WeakSet<Event>();
  const view: HydratedView = { answered: (event) => answered.has(event) };
  return new Promise((resolve) => {
    let rootCommitted = false;
    let isLive = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const live = () => {
      if (isLive) return;
      isLive = true;
      clearTimeout(timer);
      document.documentElement.dataset.app = "live";
      resolve(view);
    };
    const parts = partTracker(() => {
      if (rootCommitted && parts.waiting() === 0) live();
    });
    const onLive = () => {
      rootCommitted = true;
      if (parts.waiting() === 0) live();
      else timer = setTimeout(live, LIVE_AT_MOST_MS);
    };
    // The page's catalogue came in its state; the library that reads it loads first, so the first
    // render draws the same words the server did (lib/i18n.tsx).
    void loadI18nRuntime().then(() =>
      startTransition(() => {
        hydrateRoot(
          container,
          <PublicViewTree
            queryClient={queryClient}
            router={BrowserRouter}
            timezone={state.timezone}
            otherPages={<LeaveForTheApp />}
            onLive={onLive}
            parts={parts}
            onClickAnswered={(event) => answered.add(event)}
          />,
          {
            // React renders the part anew in the browser; the page stays usable. Said on the page for tests.
            onRecoverableError: (error) => {
              document.documentElement.dataset.hydration = "mismatch";
              console.warn("Hydration mismatch:", error);
            },
          },
        );
      }),
    );
  });
}
