import { queryOptions } from "@tanstack/react-query";
import { fetchConnectorLogo, fetchConnectors, fetchSources } from "./api";

export const sourceKeys = {
  all: ["sources"] as const,
  connectors: ["configs", "connectors"] as const,
  logo: (key: string) => ["configs", "connectors", key, "logo"] as const,
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

/** A connector's logo (SVG markup); like the catalogue, kept for the whole visit. */
export function connectorLogoQuery(key: string) {
  return queryOptions({
    queryKey: sourceKeys.logo(key),
    queryFn: () => fetchConnectorLogo(key),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
