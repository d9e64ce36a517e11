import {
  classifyWidgetChange,
  type TDashboard,
  type TDashboardStyles,
  type TLanguage,
  type TWidget,
  todayInTimezone,
} from "@app/core";
import { Box, Button, Group, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import {
  lazy,
  type ReactNode,
  Suspense,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useSearchParams } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { useI18n } from "../../../lib/i18n";
import type { DateRangeValue } from "../../../ui/date-range";
import { IconPlus } from "../../../ui/icons";
import { LazySafeHtml } from "../../../ui/LazySafeHtml";
import { useModals } from "../../../ui/modals";
import { InsightLinesContext, useDashboardInsights } from "../../insights";
import { OnboardingAnchor, onboardingEvent, useOnboardingViewer } from "../../onboarding";
import {
  afterCardsDrawn,
  deleteWidgetFile,
  type PrintMode,
  PrintModeContext,
  PublicAccessContext,
  RealtimeMarkContext,
  refusedGoals,
  takeArrivedWidgetData,
  WidgetBadgeContext,
  type WidgetFormSession,
  WidgetLookContext,
  type WidgetRange,
  widgetDataQuery,
} from "../../widgets";
import { dashboardLook } from "../dashboard-look";
import { initialRange, widgetRangeOf } from "../queries";
import { useRealtimeRefresh } from "../realtime-refresh";
import { STYLE_IMAGES } from "../style-images";
import { type DashboardSnapshot, type StyleImageField, useDashboardSaver } from "../use-dashboard-saver";
import { useEditLock } from "../use-edit-lock";
import { DashboardHeader } from "./DashboardHeader";
import { PdfButton } from "./PdfButton";
import { type WidgetActions, WidgetGrid } from "./WidgetGrid";

// What only members use (sidebar, styles, widget form) loads when first shown: a public viewer's first load stays small (budget in bundle-budget.test.ts).
const DashboardInsights = lazy(async () => ({ default: (await import("../../insights/lazy")).DashboardInsights }));
const DashboardSidebar = lazy(async () => ({ default: (await import("./DashboardSidebar")).DashboardSidebar }));
const SharingControls = lazy(async () => ({ default: (await import("./SharingControls")).SharingControls }));
const StylesPanel = lazy(async () => ({ default: (await import("./StylesPanel")).StylesPanel }));
// The alerts modal and the firing alerts' bell: one chunk, loaded by members only.
const alertsUi = () => import("../../widget-alerts/lazy");
const WidgetAlertsModal = lazy(async () => ({ default: (await alertsUi()).WidgetAlertsModal }));
const WidgetFormDrawer = lazy(async () => ({
  default: (await import("../../widgets/lazy")).WidgetFormDrawer,
}));

/** The list with the item at `from` moved to `to`. */
function moveItem<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export interface DashboardViewProps {
  dashboard: TDashboard;
  isPublic: boolean;
  /** The password a public viewer opened a protected dashboard with (sent again with widget requests). */
  password?: string | null;
  currentUserId: string | null;
  timezone: string;
  userSlot?: ReactNode;
  messagesSlot?: ReactNode;
  onTitle?: (title: string) => void;
  /**
   * The realtime view: read-only, widgets refreshed as their data changes. The indicator is drawn
   * under the header; `polling` when this viewer gets no events (public) and widgets refresh on a clock.
   */
  realtime?: { indicator: (polling: boolean) => ReactNode };
  /** Inside another site's frame: no Copy URL (the address carries the signed embed token). */
  embedded?: boolean;
  /** The print view: no chrome, nothing to click, charts as vector, per-widget data time limits. */
  print?: PrintMode;
  /** The owner chose the client's language: the screen's one language provider follows it at once. */
  onLanguage?: (language: TLanguage) => void;
}

function renumber(widgets: TWidget[]): TWidget[] {
  return widgets.map((widget, order) => (widget.order === order ? widget : { ...widget, order }));
}

function usePreviewUrls(files: Partial<Record<StyleImageField, File>>): Partial<Record<StyleImageField, string>> {
  const urls = useMemo(() => {
    const result: Partial<Record<StyleImageField, string>> = {};
    for (const [field, file] of Object.entries(files))
      if (file) result[field as StyleImageField] = URL.createObjectURL(file);
    return result;
  }, [files]);
  useEffect(
    () => () => {
      for (const url of Object.values(urls)) if (url) URL.revokeObjectURL(url);
    },
    [urls],
  );
  return urls;
}

/**
 * False until the cards have drawn their first answers, when `wait`; then true for good. A member's
 * dashboard mounts what is not its cards (the sidebar's contents, sharing controls, messages, insights,
 * the alerts' bells) only then, in a background render: their code, requests and renders were half of
 * the main thread's work before the last card was ready, and the cards are what the reader came for
 * (docs/decisions.md, "The owner's dashboard: the cards before the rest of the screen").
 */
function useCardsFirst(wait: boolean): boolean {
  const [rest, setRest] = useState(!wait);
  useEffect(() => {
    if (rest) return;
    return afterCardsDrawn(() => startTransition(() => setRest(true)));
  }, [rest]);
  return rest;
}

/** A toast; the toasts' module is loaded by the app shortly after start (App.tsx), reused here, not duplicated. */
function toast(notice: { color: string; title: string; message: string }): void {
  void import("@mantine/notifications").then(({ notifications }) => notifications.show(notice));
}

/** A loaded dashboard: header, grid of widgets, and (for members) the sidebar with edit mode. */
export function DashboardView({
  dashboard,
  isPublic,
  password = null,
  currentUserId,
  timezone,
  userSlot,
  messagesSlot,
  onTitle,
  realtime,
  embedded = false,
  print,
  onLanguage,
}: DashboardViewProps) {
  const modals = useModals();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const today = useMemo(() => todayInTimezone(timezone), [timezone]);
  const { t } = useI18n();
  const canEdit = !realtime && !print && !isPublic && currentUserId !== null;
  // The print view (the client's PDF as a page) reads the saved widgets as the client does, by the
  // dashboard's link, even for a member who opens it: so its labels are in the dashboard's language.
  const publicAccess = useMemo(
    () => (isPublic || print ? { permalink: dashboard.permalink, password } : null),
    [isPublic, print, dashboard.permalink, password],
  );
  const [state, setState] = useState<DashboardSnapshot & { range: DateRangeValue }>(() => ({
    name: dashboard.name,
    styles: dashboard.styles,
    widgets: [...dashboard.widgets].sort((a, b) => a.order - b.order),
    hiddenDateSelector: dashboard.hiddenDateSelector,
    footer: dashboard.footer ?? "",
    language: dashboard.language,
    range: initialRange(dashboard, searchParams),
  }));
  const latest = useRef(state);
  latest.current = state;
  const [pendingFiles, setPendingFiles] = useState<Partial<Record<StyleImageField, File>>>({});
  // Open or closed by the member, else (null) as the screen's width says: open but on a small phone. The
  // width is the stylesheet's to apply (dashboard.css, "auto"), so the server renders the member's page as
  // the browser will hydrate it, whatever the screen.
  const [sidebarOpen, setSidebarOpen] = useState<boolean | null>(null);
  const [formSession, setFormSession] = useState<WidgetFormSession | null>(null);
  // The widget whose "Alert me when…" is open.
  const [alertsFor, setAlertsFor] = useState<TWidget | null>(null);
  const formCounter = useRef(0);
  // The drawer stays mounted once opened, so closing it still animates.
  const formUsed = useRef(false);
  if (formSession) formUsed.current = true;

  useEffect(() => onTitle?.(state.name || dashboard.name), [onTitle, state.name, dashboard.name]);

  const lock = useEditLock({
    dashboardId: dashboard.id,
    canEdit,
    currentUserId,
    lockedBy: dashboard.locked,
    onRefused: (message) => void modals.message({ title: "Edit mode is not available", message }),
  });
  const canSave = canEdit && !lock.lockedByOther;

  // The create form opens a new dashboard with ?edit=1: it starts in edit mode, and the flag leaves the address
  // (so Copy URL never hands it on).
  const openForEditing = useRef(searchParams.get("edit") === "1");
  const { setEditMode, lockedByOther } = lock;
  useEffect(() => {
    if (!openForEditing.current) return;
    openForEditing.current = false;
    setSearchParams(
      (params) => {
        params.delete("edit");
        return params;
      },
      { replace: true },
    );
    if (canEdit && !lockedByOther) void setEditMode(true);
  }, [canEdit, lockedByOther, setEditMode, setSearchParams]);

  const saver = useDashboardSaver({
    dashboardId: dashboard.id,
    onSaved: (styles: TDashboardStyles, sent: StyleImageField[]) => {
      if (sent.length === 0) return;
      // Images sent with this save now have their stored addresses; everything else stays as edited.
      const stored: Partial<TDashboardStyles> = {};
      for (const image of STYLE_IMAGES) if (sent.includes(image.field)) stored[image.key] = styles[image.key];
      setState((current) => ({ ...current, styles: { ...current.styles, ...stored } }));
      setPendingFiles((current) => {
        const next = { ...current };
        for (const field of sent) delete next[field];
        return next;
      });
    },
    onFailed: (error, sent) => {
      // A widget's goals the server refused (422 on `widgets.2.goals.0.target`): its settings open again
      // with each message at its field, as the form's own checks show theirs.
      const refused = refusedGoals(fieldErrors(error), sent.widgets);
      const widget = refused && latest.current.widgets.find((each) => each.id === refused.widgetId);
      if (refused && widget) {
        setFormSession({ mode: "edit", key: ++formCounter.current, widget, refused: refused.fields });
        return;
      }
      toast({ color: "red", title: "Changes could not be saved", message: errorMessage(error) });
    },
    // What the save did besides (an off-pace alert removed with its goal), said once.
    onNotices: (notices) => {
      for (const message of notices) toast({ color: "blue", title: "Saved", message });
    },
  });

  /** Applies a change and queues the save of the whole dashboard. */
  const update = useCallback(
    (patch: Partial<DashboardSnapshot & { range: DateRangeValue }>, immediate = false) => {
      const next = { ...latest.current, ...patch };
      latest.current = next;
      setState(next);
      if (canSave) saver.schedule(next, immediate);
    },
    [canSave, saver.schedule],
  );

  const setWidgets = useCallback((widgets: TWidget[]) => update({ widgets: renumber(widgets) }), [update]);

  const widgetRange: WidgetRange = useMemo(() => widgetRangeOf(state.range, timezone), [state.range, timezone]);
  // The answers the start asked for early (early-widgets.ts) and already has go in the cache before the
  // cards first render: those cards draw their data in this very render, one commit for all of them.
  useState(() => {
    for (const { widget, data } of takeArrivedWidgetData(state.widgets, widgetRange, publicAccess)) {
      queryClient.setQueryData(widgetDataQuery(widget, widgetRange, publicAccess).queryKey, data);
    }
  });

  // Members hear source changes on their channel; a public viewer has none, so every widget polls.
  const polling = isPublic || currentUserId === null;
  useRealtimeRefresh({
    enabled: realtime !== undefined,
    widgets: state.widgets,
    range: widgetRange,
    access: publicAccess,
    everyWidget: polling,
  });

  const realtimeMark = useMemo(() => (realtime ? { timezone } : null), [realtime, timezone]);
  const previews = usePreviewUrls(pendingFiles);
  const shownStyles: TDashboardStyles = useMemo(() => {
    const result = { ...state.styles };
    for (const image of STYLE_IMAGES) if (previews[image.field]) result[image.key] = previews[image.field] ?? null;
    return result;
  }, [state.styles, previews]);
  const look = useMemo(() => dashboardLook(shownStyles), [shownStyles]);

  const toggleEditMode = async (on: boolean) => {
    if (!on) {
      setFormSession(null);
      void saver.flush();
    }
    await lock.setEditMode(on);
    // Leaving edit mode is onboarding's "reporting mode" step (docs/product.md §4).
    if (!on) onboardingEvent("edit_mode_off");
  };

  const removeWidget = async (widget: TWidget) => {
    const confirmed = await modals.question({
      title: "Delete widget",
      message: `“${widget.title || "Untitled widget"}” will be removed from this dashboard.`,
      submitLabel: "Delete",
      danger: true,
    });
    if (!confirmed) return;
    const remaining = latest.current.widgets.filter((other) => other.id !== widget.id);
    const file = widget.nature === "passive" ? widget.inputs.file : null;
    if (file && !remaining.some((other) => other.nature === "passive" && other.inputs.file === file)) {
      void deleteWidgetFile(file).catch(() => {});
    }
    if (formSession?.mode === "edit" && formSession.widget.id === widget.id) setFormSession(null);
    setWidgets(remaining);
  };

  const actions: WidgetActions = {
    // docs/product.md §4: editing a widget replaces whatever widget form is open.
    onEdit: (widget) => setFormSession({ mode: "edit", key: ++formCounter.current, widget }),
    onDuplicate: async (widget) => {
      const { duplicateWidget } = await import("../../widgets/lazy");
      const widgets = [...latest.current.widgets];
      const index = widgets.findIndex((other) => other.id === widget.id);
      widgets.splice(index + 1, 0, duplicateWidget(widget));
      setWidgets(widgets);
    },
    onDelete: (widget) => void removeWidget(widget),
    onAlerts: (widget) => setAlertsFor(widget),
    onResize: (widget, size) =>
      setWidgets(
        latest.current.widgets.map((other) =>
          other.id === widget.id ? { ...other, width: size.width, height: size.height } : other,
        ),
      ),
  };

  const saveWidget = (saved: TWidget, absorbedIds: string[]) => {
    const session = formSession;
    setFormSession(null);
    const current = latest.current.widgets;
    const before = current.find((widget) => widget.id === saved.id);
    const kept = current.filter((widget) => !absorbedIds.includes(widget.id));
    setWidgets(before ? kept.map((widget) => (widget.id === saved.id ? saved : widget)) : [...kept, saved]);
    // A data widget gives the dashboard its source: onboarding's "set data source" step (docs/product.md §4).
    if (saved.nature === "interactive") onboardingEvent("source_connected");
    // docs/product.md §4: only a change of the query refetches; style changes redraw from the cached table.
    if (
      session?.mode === "edit" &&
      before &&
      classifyWidgetChange(before, saved) === "data" &&
      saved.nature === "interactive"
    ) {
      void queryClient.invalidateQueries({ queryKey: widgetDataQuery(saved, widgetRange).queryKey });
    }
  };

  // The firing alerts' bell on each data card: for members on their own dashboard only, never on the
  // public, embed, print or realtime views (nor so in the PDF, which prints the print view).
  // The bell's code comes with the alerts' chunk: the screen itself (shared with the public view's first
  // load) only holds the function the chunk makes.
  const [alertBadge, setAlertBadge] = useState<((widget: TWidget) => ReactNode) | null>(null);
  const withBadges = canEdit && !embedded;
  const rest = useCardsFirst(canEdit);
  useEffect(() => {
    if (!rest) return;
    if (withBadges) void alertsUi().then((ui) => setAlertBadge(() => ui.alertBadges(dashboard.id, setAlertsFor)));
  }, [rest, withBadges, dashboard.id]);

  const hasSidebar = canEdit;
  useOnboardingViewer({ isPublic, print: print !== undefined || embedded });
  const sidebarState = sidebarOpen === null ? "auto" : String(sidebarOpen);
  const editMode = lock.editMode;
  // One insights request for the saved widgets over the shown range: the summary and each card's line.
  const insights = useDashboardInsights({
    permalink: dashboard.permalink,
    range: widgetRange,
    widgets: state.widgets,
    access: publicAccess,
    enabled: rest && !editMode,
  });
  const hideDateSelector = state.hiddenDateSelector && !editMode;

  return (
    <>
      <WidgetLookContext.Provider value={look.widgets}>
        <div
          className="dash-root"
          style={look.style}
          data-theme={look.dark ? "dark" : "light"}
          data-editing={editMode}
          data-print={print ? "true" : undefined}
        >
          {hasSidebar ? (
            <>
              <aside className="dash-sidebar" data-open={sidebarState} aria-label="Dashboard sidebar">
                <div className="dash-sidebar-inner">
                  <Suspense fallback={null}>
                    {rest ? (
                      <DashboardSidebar
                        name={state.name}
                        onName={(name) => update({ name })}
                        canEdit={canEdit}
                        editMode={editMode}
                        onEditMode={(on) => void toggleEditMode(on)}
                        lockedByOther={lock.lockedByOther}
                        lockBusy={lock.busy}
                        hiddenDateSelector={state.hiddenDateSelector}
                        onHiddenDateSelector={(hiddenDateSelector) => update({ hiddenDateSelector })}
                        footer={state.footer}
                        onFooter={(footer) => update({ footer })}
                        language={state.language}
                        onLanguage={(language) => {
                          update({ language });
                          onLanguage?.(language);
                        }}
                        saveStatus={saver.status}
                        showBackLink={currentUserId !== null}
                        userSlot={userSlot}
                        onClose={() => setSidebarOpen(false)}
                        stylesPanel={
                          <StylesPanel
                            styles={state.styles}
                            pendingFiles={pendingFiles}
                            onStyles={(patch) => update({ styles: { ...latest.current.styles, ...patch } })}
                            onFile={(field, file) => {
                              saver.setFile(field, file);
                              setPendingFiles((current) => {
                                const next = { ...current };
                                if (file) next[field] = file;
                                else delete next[field];
                                return next;
                              });
                              if (file) update({});
                            }}
                          />
                        }
                      />
                    ) : null}
                  </Suspense>
                </div>
              </aside>
              <div
                className="dash-sidebar-backdrop"
                data-open={sidebarState}
                onClick={() => setSidebarOpen(false)}
                aria-hidden="true"
              />
            </>
          ) : null}

          <main className="dash-main">
            <DashboardHeader
              name={state.name || dashboard.name}
              logoImage={shownStyles.logoImage}
              clientImage={shownStyles.clientImage}
              range={state.range}
              today={today}
              onRange={(range) => {
                update({ range }, true);
                onboardingEvent("date_range_changed");
              }}
              hideDateSelector={hideDateSelector}
              hideCopyUrl={embedded}
              print={print !== undefined}
              pdf={
                print ? undefined : (
                  <PdfButton
                    request={{
                      permalink: dashboard.permalink,
                      timezone,
                      range: {
                        startDate: widgetRange.startDate,
                        endDate: widgetRange.endDate,
                        compareStartDate: widgetRange.compareStartDate,
                        compareEndDate: widgetRange.compareEndDate,
                      },
                      realtime: realtime !== undefined,
                      password: isPublic ? password : null,
                    }}
                    widgetCount={state.widgets.length}
                  />
                )
              }
              onOpenSidebar={hasSidebar && sidebarOpen !== true ? () => setSidebarOpen(true) : undefined}
              sidebarByWidth={sidebarOpen === null}
              sharing={
                canEdit && rest ? (
                  <Suspense fallback={null}>
                    <SharingControls
                      dashboardId={dashboard.id}
                      name={dashboard.name}
                      passwordProtected={dashboard.passwordProtected}
                      widgetCount={state.widgets.length}
                    />
                  </Suspense>
                ) : undefined
              }
            />
            {realtime?.indicator(polling)}
            {rest ? messagesSlot : null}
            {editMode ? (
              <Box className="dash-toolbar">
                <Text fz="sm" className="dash-muted">
                  {state.widgets.length === 0
                    ? "Editing: changes save automatically."
                    : `${state.widgets.length} ${state.widgets.length === 1 ? "widget" : "widgets"} · drag the handle to reorder`}
                </Text>
                <OnboardingAnchor anchor="set-source" editMode>
                  <Button
                    style={{ flexShrink: 0 }}
                    leftSection={<IconPlus size={16} />}
                    onClick={() => setFormSession({ mode: "add", key: ++formCounter.current })}
                  >
                    Add widget
                  </Button>
                </OnboardingAnchor>
              </Box>
            ) : null}

            {state.widgets.length === 0 ? (
              <Box className="dash-empty">
                <Text fw={600} style={{ color: "var(--dash-text)" }}>
                  {canEdit ? "This dashboard has no widgets yet" : t("dashboard.empty")}
                </Text>
                <Text fz="sm" mt={4}>
                  {editMode
                    ? "Add a chart, a table, key numbers or a text card to begin."
                    : canEdit && lock.lockedByOther
                      ? "Another user is editing this dashboard; widgets they add appear here."
                      : canEdit
                        ? "Switch on Edit mode in the sidebar, then use Add widget."
                        : t("dashboard.checkBackSoon")}
                </Text>
              </Box>
            ) : (
              <PublicAccessContext.Provider value={publicAccess}>
                <PrintModeContext.Provider value={print ?? null}>
                  <RealtimeMarkContext.Provider value={realtimeMark}>
                    {/* Print: its code still loading counts as insights still to come (the PDF waits for them). */}
                    <Suspense fallback={print ? <span hidden data-insights-loading="true" /> : null}>
                      {rest ? <DashboardInsights insights={insights} styles={state.styles} edit={editMode} /> : null}
                    </Suspense>
                    <WidgetBadgeContext.Provider value={alertBadge}>
                      <InsightLinesContext.Provider value={insights.data.widgets}>
                        <WidgetGrid
                          widgets={state.widgets}
                          range={widgetRange}
                          dataEnabled
                          editMode={editMode}
                          actions={actions}
                          onReorder={(from, to) => setWidgets(moveItem(latest.current.widgets, from, to))}
                        />
                      </InsightLinesContext.Provider>
                    </WidgetBadgeContext.Provider>
                  </RealtimeMarkContext.Provider>
                </PrintModeContext.Provider>
              </PublicAccessContext.Provider>
            )}

            {state.footer.trim() !== "" ? (
              <Group component="footer" className="dash-footer" justify="center">
                <LazySafeHtml html={state.footer} />
              </Group>
            ) : null}
          </main>

          {canEdit && alertsFor ? (
            <Suspense fallback={null}>
              <WidgetAlertsModal
                onClose={() => setAlertsFor(null)}
                dashboardId={dashboard.id}
                widget={alertsFor}
                range={widgetRange}
                timezone={timezone}
              />
            </Suspense>
          ) : null}

          {canEdit && formUsed.current ? (
            <Suspense fallback={null}>
              <WidgetFormDrawer
                session={formSession}
                widgets={state.widgets}
                nextOrder={state.widgets.length}
                onClose={() => setFormSession(null)}
                onSave={saveWidget}
              />
            </Suspense>
          ) : null}
        </div>
      </WidgetLookContext.Provider>
    </>
  );
}
