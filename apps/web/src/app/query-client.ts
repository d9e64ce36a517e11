import { defaultScheduler, notifyManager, QueryClient } from "@tanstack/react-query";
import { ApiError } from "../lib/api";
import { coalescingScheduler } from "../lib/coalesce";

// Queries' notifications due together are drawn in one React render, not one each (lib/coalesce.ts).
notifyManager.setScheduler(coalescingScheduler(defaultScheduler));

/** Client errors (4xx) are answers, not hiccups: only network and server failures are retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
