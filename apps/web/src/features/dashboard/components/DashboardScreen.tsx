import { Center } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useDeferredValue, useEffect, useLayoutEffect, useState } from "react";
import { ApiError, errorMessage } from "../../../lib/api";
import { AppLoader } from "../../../ui/AppLoader";
import { usePageData } from "../../session/hooks";
import { removeBootView } from "../boot-view";
import { storedPassword, storePassword, viewerTimezone } from "../early-fetch";
import { startWithEarlyDashboard } from "../early-widgets";
import { dashboardQuery } from "../queries";
import "../dashboard.css";
import { DashboardNotServed, DashboardUnavailable, EmbedLinkExpired } from "./DashboardUnavailable";
import { DashboardView, type DashboardViewProps } from "./DashboardView";

// The widgets' data and chart code are asked for as soon as this code runs (the dashboard's answer may
// already be in), not after the screen's first renders.
startWithEarlyDashboard();

// Only protected dashboards ask for a password: the form loads when one does.
const PasswordGate = lazy(async () => ({ default: (await import("./PasswordGate")).PasswordGate }));

export interface DashboardScreenProps {
  permalink: string;
  /** The signed-in user's menu (profile, log out), placed at the foot of the sidebar. */
  userSlot?: ReactNode;
  /** Global messages shown above the widgets to members. */
  messagesSlot?: ReactNode;
  onTitle?: (title: string) => void;
  /** The owning company's site title when the viewer is public (white label), else null. */
  onSiteTitle?: (siteTitle: string | null) => void;
  /** Shows the realtime view (read-only, live widgets) instead of the regular one. */
  realtime?: DashboardViewProps["realtime"];
  /** The embedded view: its token decides, and a refused one (403) shows the expired-link state. */
  embedded?: boolean;
  /** The print view (PDF and report previews): see DashboardView. */
  print?: DashboardViewProps["print"];
  /** The zone the range is computed in when the address names one (print view); else the viewer's. */
  timezone?: string;
}

/**
 * /dashboards/:permalink: loads the dashboard (asking for its password on 422, docs/product.md §4) and shows it
 * editable to members or read-only to public viewers (x-public).
 */
function promptSiteTitle(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const siteTitle = (error.body as { siteTitle?: unknown } | undefined)?.siteTitle;
  return typeof siteTitle === "string" ? siteTitle : null;
}

export function DashboardScreen({
  permalink,
  userSlot,
  messagesSlot,
  onTitle,
  onSiteTitle,
  realtime,
  embedded = false,
  print,
  timezone: zoneOverride,
}: DashboardScreenProps) {
  const pageData = usePageData();
  const { user } = pageData;
  const timezone = zoneOverride || viewerTimezone(pageData);
  const [password, setPassword] = useState<string | null>(() => storedPassword(permalink));
  const query = useQuery(dashboardQuery(permalink, timezone, password));
  // A public viewer's tab carries the agency's site title, the password prompt's too (its 422 names it).
  const ownerSiteTitle = query.data?.dashboard.siteTitle ?? promptSiteTitle(query.error);
  useEffect(() => onSiteTitle?.(ownerSiteTitle), [onSiteTitle, ownerSiteTitle]);
  // The page keeps its served title until the dashboard names itself; an unavailable one names that.
  const unavailable = query.isError && !(query.error instanceof ApiError && query.error.status === 422);
  const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 403);
  useEffect(() => {
    if (unavailable) onTitle?.(embedded ? "Link expired" : missing ? "Dashboard not found" : "Dashboard unavailable");
  }, [onTitle, unavailable, missing, embedded]);

  // The dashboard is drawn in a background render of its own (React time-slices it, yielding to the
  // browser every few milliseconds), not in the query's update, which React renders in one blocking
  // task: on a phone that task was the whole dashboard's first render (docs/decisions.md, "Public view: shorter tasks on a phone"). The loader stays
  // until that render commits.
  const shown = useDeferredValue(query.data);
  const drawing = query.isPending || (query.data !== undefined && shown === undefined);

  // The server-painted header gives way in the commit that draws what replaces it (before paint).
  useLayoutEffect(() => {
    if (!drawing) removeBootView();
  }, [drawing]);
  useLayoutEffect(() => removeBootView, []);

  if (drawing) {
    return (
      <Center mih="100vh">
        <AppLoader size="l" label="Loading dashboard" />
      </Center>
    );
  }

  if (query.isError) {
    const error = query.error;
    if (embedded && error instanceof ApiError && error.status === 403) return <EmbedLinkExpired />;
    // docs/product.md §4: 402, the owner's subscription has ended; nothing to retry for a viewer.
    if (error instanceof ApiError && error.status === 402) return <DashboardNotServed message={error.message} />;
    if (error instanceof ApiError && error.status === 422) {
      return (
        <Suspense fallback={null}>
          <PasswordGate
            error={password ? "The password is incorrect." : null}
            pending={query.isFetching}
            siteTitle={ownerSiteTitle}
            onSubmit={(attempt) => {
              storePassword(permalink, attempt);
              setPassword(attempt);
            }}
          />
        </Suspense>
      );
    }
    return (
      <DashboardUnavailable
        notFound={missing}
        message={errorMessage(error)}
        signedIn={user !== null}
        onRetry={() => void query.refetch()}
      />
    );
  }

  const { dashboard, isPublic } = shown ?? query.data;
  return (
    <DashboardView
      key={dashboard.id}
      dashboard={dashboard}
      isPublic={isPublic}
      password={password}
      currentUserId={user?.id ?? null}
      timezone={timezone}
      userSlot={isPublic ? undefined : userSlot}
      messagesSlot={isPublic ? undefined : messagesSlot}
      onTitle={onTitle}
      realtime={realtime}
      embedded={embedded}
      print={print}
    />
  );
}
