import { matchRoute, scrubErrorEvent } from "@app/core";

/** What stands for a page's address in reports: its route's pattern, never the address (tokens, permalinks). */
export function routePattern(pathname: string): string {
  return matchRoute(pathname)?.route.path ?? "(unmatched)";
}

/**
 * A browser event fit to leave (Sentry's `beforeSend`): the page's address becomes its route pattern
 * (`/dashboards/:permalink`: a shared dashboard's permalink opens it, `/password/set/:token` carries a
 * token), then the common scrubbing (no cookie, authorisation, password, token, e-mail or body).
 */
export function prepareBrowserEvent<E extends object>(event: E, pathname: string): E {
  const route = routePattern(pathname);
  const withRoute = event as E & { request?: { url?: string }; tags?: Record<string, unknown> };
  const prepared = {
    ...withRoute,
    tags: { ...withRoute.tags, route },
    ...(withRoute.request ? { request: { ...withRoute.request, url: route } } : {}),
  };
  return scrubErrorEvent(prepared);
}
