import { MantineProvider } from "@mantine/core";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { RouterProvider } from "react-router/dom";
import { useIdle } from "../ui/use-idle";
import { createAppRouter } from "./router";
import { cssVariablesResolver, theme } from "./theme";

// The toasts' container (transitions, scroll-bar handling) is not needed for the first paint; toasts
// shown before it arrives wait in @mantine/notifications' store and appear when it mounts.
const Notifications = lazy(async () => ({ default: (await import("@mantine/notifications")).Notifications }));

/** Providers and the router. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(createAppRouter);
  const idle = useIdle();
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Suspense fallback={null}>{idle ? <Notifications position="top-right" /> : null}</Suspense>
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>
  );
}
