/** Spec §2: '{route title} | {site title}' when the route has a title; otherwise the site title alone. */
export function buildDocumentTitle(routeTitle: string | null | undefined, siteTitle: string): string {
  return routeTitle ? `${routeTitle} | ${siteTitle}` : siteTitle;
}
