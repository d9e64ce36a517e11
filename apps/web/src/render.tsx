import type { TPageData } from "@app/core";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { createQueryClient } from "./app/query-client";
import { createAppRouter, loadScreen } from "./app/router";
import { pageDataKey } from "./features/session/page-data";

/**
 * What hydrating a member's server-rendered page needs of the app (ssr/member-hydrate.tsx), taken from
 * here: imported from their own modules there, the app's shell would be split out of this chunk into
 * chunks of its own, more files in every page's start.
 */
export { App, createAppRouter, createQueryClient, loadScreen, pageDataKey };

/** The app itself (Mantine, the router, the screens), rendered into the page's root. */
export function render(container: HTMLElement, pageData: TPageData): void {
  const root = createRoot(container);
  const queryClient = createQueryClient();
  queryClient.setQueryData(pageDataKey, pageData);
  // A transition, so React renders the first screen in slices of a few milliseconds and yields to the
  // browser in between, instead of one long task that blocks a phone's main thread (docs/decisions.md, "Public view: shorter tasks on a phone").
  startTransition(() =>
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
}
