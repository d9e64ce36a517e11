import type { QueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { App } from "../app/App";
import type { AppRouter } from "../app/router";
import { ChartsBeforeMeasureContext } from "../features/widgets/server-rendered";

/**
 * A member's server-rendered dashboard page: the app itself, as the server renders it (server-entry.tsx)
 * and the browser hydrates it (member-view.tsx). Until the page is live its cards draw their charts
 * before measuring them (features/widgets/server-rendered.ts), on both sides, so React adopts the
 * server's boxes and the drawings made in them.
 */
export function MemberViewRoot({
  queryClient,
  router,
  onLive,
}: {
  queryClient: QueryClient;
  router: AppRouter;
  onLive?: () => void;
}) {
  const [hydrating, setHydrating] = useState(true);
  const live = useCallback(() => {
    setHydrating(false);
    onLive?.();
  }, [onLive]);
  return (
    <ChartsBeforeMeasureContext.Provider value={hydrating}>
      <App queryClient={queryClient} router={router} onLive={live} />
    </ChartsBeforeMeasureContext.Provider>
  );
}
