import { buildDocumentTitle, decideNavigation, documentSiteTitle, matchRoute, routeByName } from "@app/core";
import { useEffect, useRef, useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { OnboardingRuntimeLoader } from "../features/onboarding";
import { useRealtimeSync } from "../features/realtime";
import { useCurrentUser, usePageData } from "../features/session/hooks";
import { ModalsProvider } from "../ui/modals";
import { PageTitleContext, SiteTitleContext } from "./page-title";
import { useNavigationBlock } from "./use-navigation-block";

/**
 * Runs on every navigation, before a screen renders: the guards of docs/product.md §2 (a redirect
 * replaces the history entry), scroll to top, and the document title.
 */
function GuardedOutlet() {
  const location = useLocation();
  const user = useCurrentUser();
  const { siteTitle, session } = usePageData();
  const [pageTitle, setPageTitle] = useState<string | null>(null);
  const [ownerSiteTitle, setOwnerSiteTitle] = useState<string | null>(null);
  const match = matchRoute(location.pathname);

  useNavigationBlock();
  useRealtimeSync();

  // docs/product.md §2: scroll resets to top on every navigation, not as the first page mounts: a page the
  // server rendered may have been scrolled before the app adopted it (ssr/member-boot.ts).
  const scrolledFor = useRef(location.pathname);
  useEffect(() => {
    if (scrolledFor.current === location.pathname) return;
    scrolledFor.current = location.pathname;
    window.scrollTo(0, 0);
  }, [location.pathname]);

  const routeTitle = match ? match.route.title : routeByName("notFound").title;
  // A dashboard page keeps the title it has (the server's, white-labelled) until the dashboard names
  // itself, so a client never sees the product's name flash by while it loads.
  const awaitsDashboard = match?.route.name.startsWith("dashboard.") && pageTitle === null && ownerSiteTitle === null;
  useEffect(() => {
    if (awaitsDashboard) return;
    document.title = buildDocumentTitle(routeTitle ?? pageTitle, documentSiteTitle(siteTitle, ownerSiteTitle));
  }, [awaitsDashboard, routeTitle, pageTitle, siteTitle, ownerSiteTitle]);

  if (match) {
    // Guard 4 (onboarding block) acts in useNavigationBlock, before the navigation happens.
    const decision = decideNavigation({
      route: match.route,
      params: match.params,
      user,
      onboardingBlock: null,
      twoFactorSetupRequired: session?.twoFactorSetupRequired ?? false,
    });
    if (decision.kind === "redirect") return <Navigate to={decision.to} replace />;
  }

  return (
    <PageTitleContext.Provider value={setPageTitle}>
      <SiteTitleContext.Provider value={setOwnerSiteTitle}>
        <Outlet />
      </SiteTitleContext.Provider>
    </PageTitleContext.Provider>
  );
}

/** The root of every screen. */
export function RootLayout() {
  return (
    <ModalsProvider>
      <GuardedOutlet />
      <OnboardingRuntimeLoader />
    </ModalsProvider>
  );
}
