import type { TPageData } from "@app/core";
import { hydrate } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { createQueryClient } from "../app/query-client";
import { createAppRouter, loadScreen } from "../app/router";
import { pageDataKey } from "../features/session/page-data";
import { loadChartComponent } from "../features/widgets";
import { loadI18nRuntime } from "../lib/i18n";
import type { EarlyClick } from "./member-boot";
import { MemberViewRoot } from "./member-root";
import { replayClick } from "./replay";
import type { ServerRenderState } from "./server-entry";

/**
 * The app takes over a member's server-rendered dashboard (member-boot.ts draws its charts first): the
 * whole app (its router, at this address, with the screen loaded) hydrated from the answers the page was
 * rendered from, so the member's next steps are the app's as on any other page. `takeClick` stops the
 * early clicks' recording and gives the last one, made again once the page is live.
 */
export async function hydrateMemberView(
  container: HTMLElement,
  pageData: TPageData,
  state: ServerRenderState,
  takeClick: () => EarlyClick | null,
): Promise<void> {
  const [screen] = await Promise.all([
    loadScreen("dashboard.show"),
    loadI18nRuntime(),
    // The cards' charts hydrate with their component at hand, not behind a lazy boundary.
    container.querySelector("[data-chart-input]") ? loadChartComponent() : null,
  ]);

  const queryClient = createQueryClient();
  queryClient.setQueryData(pageDataKey, pageData);
  hydrate(queryClient, state.queries);
  const router = createAppRouter(screen);
  const clicked = takeClick();
  document.documentElement.dataset.app = "starting";
  let replayed = false;
  const live = () => {
    document.documentElement.dataset.app = "live";
    if (clicked && !replayed) void replayClick(container, clicked.control, clicked.index);
    replayed = true;
  };
  // In a transition, so React hydrates in slices and the page keeps answering.
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <MemberViewRoot queryClient={queryClient} router={router} onLive={live} />
      </StrictMode>,
      {
        // React renders the part anew in the browser; the page stays usable. Said on the page for tests.
        onRecoverableError: (error) => {
          document.documentElement.dataset.hydration = "mismatch";
          console.warn("Hydration mismatch:", error);
        },
      },
    );
  });
}
