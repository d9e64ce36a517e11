import { lazy, Suspense, useState } from "react";
import { useParams } from "react-router";
import { usePageTitle, useSiteTitle } from "../app/page-title";
import { DashboardScreen } from "../features/dashboard";
import { OnboardingPanelSlot } from "../features/onboarding";
import { useCurrentUser } from "../features/session/hooks";
import { loadChartComponent } from "../features/widgets";
import { loadI18nRuntime } from "../lib/i18n";

// Members only: public viewers never download the user menu or the messages bar.
const UserMenu = lazy(async () => ({ default: (await import("../app/shell/UserMenu")).UserMenu }));
const TopMessagesBar = lazy(async () => ({
  default: (await import("../features/messages/TopMessagesBar")).TopMessagesBar,
}));

/**
 * Before a member's page the server rendered is hydrated (ssr/member-hydrate.tsx): the library that reads the page's
 * catalogue (the first render must draw the server's words, not the loader), and the chart component
 * when the page has charts (they hydrate with it at hand, not behind a lazy boundary).
 */
export function prepareHydration(): Promise<unknown> {
  return Promise.all([loadI18nRuntime(), document.querySelector("[data-chart-input]") ? loadChartComponent() : null]);
}

/**
 * /dashboards/:permalink (dashboard.show): full-width dashboard; its name becomes the page title and,
 * for a public viewer, its owner's site title the rest of it.
 */
export default function DashboardShowScreen() {
  const { permalink = "" } = useParams();
  const user = useCurrentUser();
  const [title, setTitle] = useState<string | null>(null);
  const [siteTitle, setSiteTitle] = useState<string | null>(null);
  usePageTitle(title);
  useSiteTitle(siteTitle);
  return (
    <DashboardScreen
      key={permalink}
      permalink={permalink}
      onTitle={setTitle}
      onSiteTitle={setSiteTitle}
      userSlot={
        user ? (
          <Suspense fallback={null}>
            <UserMenu user={user} />
          </Suspense>
        ) : undefined
      }
      messagesSlot={
        user ? (
          <>
            <Suspense fallback={null}>
              <TopMessagesBar />
            </Suspense>
            {/* The Getting started panel sits above the widgets, never over them (docs/product.md §2). */}
            <OnboardingPanelSlot />
          </>
        ) : undefined
      }
    />
  );
}
