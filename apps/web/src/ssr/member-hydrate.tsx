import type { TPageData } from "@app/core";
import { type DehydratedState, hydrate } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * The app takes over a member's dashboard page the server rendered (member-boot.ts has drawn its charts):
 * the whole app, its router at this address with the screen loaded, hydrated from the answers the page was
 * rendered from, so the member's next steps are the app's as on any other page. `html[data-app]` says
 * "starting" from the hydration's start (`onStart`) until the root has committed, then "live" (`onLive`); a card hydrated meanwhile draws its
 * chart unmeasured, as the server did (features/widgets/components/InteractiveWidgetBody.tsx).
 */
export async function hydrateMemberPage(
  container: HTMLElement,
  pageData: TPageData,
  queries: DehydratedState,
  { onStart, onLive }: { onStart: () => void; onLive: () => void },
): Promise<void> {
  // The app's start chunk, as main.tsx loads it (a static import would split it in two).
  const { App, createAppRouter, createQueryClient, loadScreen, pageDataKey } = await import("../render");
  const screen = await loadScreen("dashboard.show");
  await screen.prepareHydration?.();
  const queryClient = createQueryClient();
  queryClient.setQueryData(pageDataKey, pageData);
  hydrate(queryClient, queries);
  const router = createAppRouter(screen);
  let live = false;
  const commit = () => {
    // Once (StrictMode runs a development build's effects twice).
    if (live) return;
    live = true;
    document.documentElement.dataset.app = "live";
    onLive();
  };
  document.documentElement.dataset.app = "starting";
  onStart();
  // In a transition, so React hydrates in slices and the page keeps answering.
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <App queryClient={queryClient} router={router} onLive={commit} />
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
