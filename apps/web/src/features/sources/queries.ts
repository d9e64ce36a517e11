import { queryOptions } from "@tanstack/react-query";
import { fetchConnectors, fetchSources } from "./api";

export const sourceKeys = {
  all: ["sources"] as const,
  connectors: ["configs", "connectors"] as const,
};

/** The company's connected sources (GET /api/sources). */
export function sourcesQuery() {
  return queryOptions({ queryKey: sourceKeys.all, queryFn: fetchSources });
}

/** The connector catalogue; the same for every company and session, so it is kept for the whole visit. */
export function connectorsQuery() {
  return queryOptions({
    queryKey: sourceKeys.connectors,
    queryFn: fetchConnectors,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
