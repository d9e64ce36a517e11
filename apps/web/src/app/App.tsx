import { MantineProvider } from "@mantine/core";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { RouterProvider } from "react-router/dom";
import { useIdle } from "../ui/use-idle";
import { type AppRouter, createAppRouter } from "./router";
import { cssVariablesResolver, theme } from "./theme";

// The toasts' container (transitions, scroll-bar handling) is not needed for the first paint; toasts
// shown before it arrives wait in @mantine/notifications' store and appear when it mounts.
const Notifications = lazy(async () => ({ default: (await import("@mantine/notifications")).Notifications }));

/**
 * Providers and the router: the browser's own, or the one given (a page the server rendered, and the
 * server's render of it, each at the page's address with its screen loaded: ssr/member-hydrate.tsx).
 */
export function App({
  queryClient,
  router: given,
  onLive,
}: {
  queryClient: QueryClient;
  router?: AppRouter;
  /** Called once the tree has committed in the browser (a hydrated page is live then). */
  onLive?: () => void;
}) {
  const [router] = useState(() => given ?? createAppRouter());
  const idle = useIdle();
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Suspense fallback={null}>{idle ? <Notifications position="top-right" /> : null}</Suspense>
        <RouterProvider router={router} />
        <Live onLive={onLive} />
      </MantineProvider>
    </QueryClientProvider>
  );
}

/** Rendered on both sides (the same tree on the server and in the browser); its effect runs only in the browser. */
function Live({ onLive }: { onLive?: () => void }) {
  useEffect(() => onLive?.(), [onLive]);
  return null;
}
