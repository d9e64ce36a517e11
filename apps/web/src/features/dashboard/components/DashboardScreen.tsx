import { Center } from "@mantine/core";
import { type UseQueryResult, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useDeferredValue, useEffect, useLayoutEffect, useState } from "react";
import { ApiError, errorMessage } from "../../../lib/api";
import { I18nProvider, prefetchMessages, useI18n, useTranslatorFor } from "../../../lib/i18n";
import { AppLoader } from "../../../ui/AppLoader";
import { usePageData } from "../../session/hooks";
import type { LoadedDashboard } from "../api";
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
  return promptField(error, "siteTitle");
}

/** A field the password prompt's 422 carries: the agency's site title, the dashboard's language. */
function promptField(error: unknown, field: "siteTitle" | "language"): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const value = (error.body as Record<string, unknown> | undefined)?.[field];
  return typeof value === "string" ? value : null;
}

/** The page's own language (the server names the dashboard's for a client), in the browser. */
function pageLanguage(): string | null {
  return typeof document === "undefined" ? null : document.documentElement.lang || null;
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
  const queryClient = useQueryClient();
  // The page names the dashboard's language before the dashboard's answer is in: its catalogue loads
  // alongside (docs/decisions.md, "Report languages").
  useState(() => {
    const named = pageLanguage();
    if (named) prefetchMessages(queryClient, named);
  });
  // The owner's choice in the sidebar counts at once (before its save): the one provider below follows it.
  const [chosen, setChosen] = useState<{ id: string; language: string } | null>(null);
  const saved = query.data?.dashboard.language ?? promptField(query.error, "language") ?? pageLanguage();
  const language = chosen && chosen.id === query.data?.dashboard.id ? chosen.language : saved;
  // A public viewer's tab carries the agency's site title, the password prompt's too (its 422 names it).
  const ownerSiteTitle = query.data?.dashboard.siteTitle ?? promptSiteTitle(query.error);
  useEffect(() => onSiteTitle?.(ownerSiteTitle), [onSiteTitle, ownerSiteTitle]);
  const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 403);

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

  const loader = <DashboardLoader language={language} />;
  if (drawing) return loader;
  return (
    <I18nProvider language={language} fallback={loader}>
      <DashboardScreenBody
        query={query}
        shown={shown}
        permalink={permalink}
        password={password}
        setPassword={setPassword}
        ownerSiteTitle={ownerSiteTitle}
        missing={missing}
        embedded={embedded}
        signedIn={user !== null}
        currentUserId={user?.id ?? null}
        timezone={timezone}
        userSlot={userSlot}
        messagesSlot={messagesSlot}
        onTitle={onTitle}
        realtime={realtime}
        print={print}
        onLanguage={(id, chosenLanguage) => setChosen({ id, language: chosenLanguage })}
      />
    </I18nProvider>
  );
}

/** The dashboard's loader, said in its language once that catalogue is in (a client's page names it early). */
function DashboardLoader({ language }: { language: string | null | undefined }) {
  const { t } = useTranslatorFor(language);
  return (
    <Center mih="100vh">
      <AppLoader size="l" label={t("dashboard.loading")} />
    </Center>
  );
}

/** The screen once the dashboard's answer (or its refusal) is in, in the dashboard's language. */
function DashboardScreenBody({
  query,
  shown,
  permalink,
  password,
  setPassword,
  ownerSiteTitle,
  missing,
  embedded,
  signedIn,
  currentUserId,
  timezone,
  userSlot,
  messagesSlot,
  onTitle,
  realtime,
  print,
  onLanguage,
}: Omit<DashboardScreenProps, "onSiteTitle" | "timezone"> & {
  onLanguage: (dashboardId: string, language: string) => void;
  query: UseQueryResult<LoadedDashboard>;
  shown: LoadedDashboard | undefined;
  password: string | null;
  setPassword: (password: string) => void;
  ownerSiteTitle: string | null;
  missing: boolean;
  embedded: boolean;
  signedIn: boolean;
  currentUserId: string | null;
  timezone: string;
}) {
  const { t } = useI18n();
  // The tab names an unavailable dashboard in the page's language (the link's dashboard's, else the
  // reader's browser's: docs/decisions.md); the page keeps its served title until the dashboard names itself.
  const unavailable = query.isError && !(query.error instanceof ApiError && query.error.status === 422);
  useEffect(() => {
    if (unavailable)
      onTitle?.(t(embedded ? "dashboard.linkExpired" : missing ? "dashboard.notFound" : "dashboard.unavailable"));
  }, [onTitle, unavailable, missing, embedded, t]);
  if (query.isError) {
    const error = query.error;
    if (embedded && error instanceof ApiError && error.status === 403) return <EmbedLinkExpired />;
    // docs/product.md §4: 402, the owner's subscription has ended; nothing to retry for a viewer.
    if (error instanceof ApiError && error.status === 402) return <DashboardNotServed message={error.message} />;
    if (error instanceof ApiError && error.status === 422) {
      return (
        <Suspense fallback={null}>
          <PasswordGate
            error={password ? t("password.incorrect") : null}
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
        signedIn={signedIn}
        onRetry={() => void query.refetch()}
      />
    );
  }

  // Drawn only once the answer is in (the screen shows its loader before).
  const { dashboard, isPublic } = (shown ?? query.data) as LoadedDashboard;
  return (
    <DashboardView
      key={dashboard.id}
      dashboard={dashboard}
      isPublic={isPublic}
      password={password}
      currentUserId={currentUserId}
      timezone={timezone}
      userSlot={isPublic ? undefined : userSlot}
      messagesSlot={isPublic ? undefined : messagesSlot}
      onTitle={onTitle}
      realtime={realtime}
      embedded={embedded}
      print={print}
      onLanguage={(chosenLanguage) => onLanguage(dashboard.id, chosenLanguage)}
    />
  );
}
