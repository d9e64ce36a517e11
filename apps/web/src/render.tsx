import type { TPageData } from "@app/core";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { createQueryClient } from "./app/query-client";
import { pageDataKey } from "./features/session/page-data";

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
