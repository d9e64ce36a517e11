/** docs/product.md §2: '{route title} | {site title}' when the route has a title; otherwise the site title alone. */
export function buildDocumentTitle(routeTitle: string | null | undefined, siteTitle: string): string {
  return routeTitle ? `${routeTitle} | ${siteTitle}` : siteTitle;
}

/**
 * The site title a tab carries (white label): on a dashboard shown to a public viewer, the owning
 * company's (the agency's clients must not see the product's name); otherwise the page data's, which is
 * already the viewer's company's own title or, for guests, the product's.
 */
export function documentSiteTitle(pageSiteTitle: string, publicOwnerSiteTitle: string | null | undefined): string {
  return publicOwnerSiteTitle?.trim() ? publicOwnerSiteTitle : pageSiteTitle;
}
