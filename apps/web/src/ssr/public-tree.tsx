import { MantineProvider } from "@mantine/core";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { Route, Routes, useParams } from "react-router";
import { BareLayout } from "../app/layouts/BareLayout";
import { cssVariablesResolver, theme } from "../app/theme";
import { DashboardScreen } from "../features/dashboard/components/DashboardScreen";
import { type LazyPartTracker, LazyPartTrackerContext } from "../ui/LazyPart";
import { ModalsProvider } from "../ui/modals";

/** The address of a server-rendered page: the public dashboard view (route dashboard.show). */
export const PUBLIC_VIEW_PATH = "/dashboards/:permalink";

/**
 * The public dashboard view as the server renders it and the browser hydrates it: the same providers,
 * layout and screen as the app's route (App.tsx, RootLayout, BareLayout, dashboard-show.tsx) without
 * what only members use (guards, onboarding, realtime sync, the user menu). Server and browser render
 * this very tree, each inside its own router (a memory router at the request's address on the server,
 * the browser's history in the page), so React adopts the server's HTML node for node. The dashboard's
 * range is computed in `timezone`, the zone the server rendered in (see ssr/boot.ts).
 */
export function PublicViewTree({
  queryClient,
  router: Router,
  timezone,
  otherPages,
  onLive,
  parts = null,
  onClickAnswered,
}: {
  queryClient: QueryClient;
  router: (props: { children: ReactNode }) => ReactNode;
  timezone: string;
  /** What any other address shows (the browser leaves for the app's page there). */
  otherPages?: ReactNode;
  /** Called once the browser's tree has committed (never on the server). */
  onLive?: () => void;
  /** Told when each lazy part holding controls (ui/LazyPart.tsx) has committed (the browser's hydration). */
  parts?: LazyPartTracker | null;
  /**
   * Called with each click React dispatches in the page (a click React answered), before its handlers.
   * Every control in the page's root element is inside the layout (modals are portals, outside it).
   */
  onClickAnswered?: (event: Event) => void;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <LazyPartTrackerContext.Provider value={parts}>
          <Router>
            <ModalsProvider>
              <Routes>
                <Route
                  element={
                    <BareLayout
                      onClickCapture={onClickAnswered ? (event) => onClickAnswered(event.nativeEvent) : undefined}
                    />
                  }
                >
                  <Route path={PUBLIC_VIEW_PATH} element={<PublicDashboard timezone={timezone} />} />
                </Route>
                <Route path="*" element={otherPages ?? null} />
              </Routes>
              <Live onLive={onLive} />
            </ModalsProvider>
          </Router>
        </LazyPartTrackerContext.Provider>
      </MantineProvider>
    </QueryClientProvider>
  );
}

function PublicDashboard({ timezone }: { timezone: string }) {
  const { permalink = "" } = useParams();
  return <DashboardScreen key={permalink} permalink={permalink} timezone={timezone} />;
}

/** Rendered on both sides (the same tree shape), its effect runs only in the browser, after hydration. */
function Live({ onLive }: { onLive?: () => void }) {
  useEffect(() => onLive?.(), [onLive]);
  return null;
}
