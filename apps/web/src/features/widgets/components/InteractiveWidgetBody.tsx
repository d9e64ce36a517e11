import { comparisonLabel, METRICS_PARAM, type TInteractiveWidget, type TTable, type TWidget } from "@app/core";
import { Badge, Text } from "@mantine/core";
import { hashKey, type QueryClient, useQuery } from "@tanstack/react-query";
import {
  type ComponentProps,
  type ComponentType,
  lazy,
  memo,
  Suspense,
  useContext,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
} from "react";
import { ApiError } from "../../../lib/api";
import { useI18n } from "../../../lib/i18n";
import { LazyTooltip as Tooltip } from "../../../ui/LazyTooltip";
import { bodyFit } from "../card-size";
import type { ChartInput } from "../charts/chart-common";
import { chartOption } from "../charts/chart-options";
import type { ChartPart } from "../charts/chart-parts";
import type { ChartOption } from "../charts/chart-types";
import { holdLiveCharts } from "../charts/live-queue";
import { asShareOfTotal, isEmptyTable } from "../data/view-model";
import { GoalLines } from "../goals/GoalLines";
import { chartTargets, goalViews } from "../goals/goal-view";
import { useWidgetLook } from "../look";
import { asOfText, PrintModeContext, RealtimeMarkContext, updatedClock } from "../print";
import { noteServerDrawing } from "../server-drawings";

type EChartComponent = ComponentType<ComponentProps<typeof import("../charts/EChart").EChart>>;

/** The chart component once its module has loaded (preloadChartCode, or the first chart's lazy load). */
let loadedEChart: EChartComponent | null = null;

// The chart component loads with ECharts itself (which it waits for anyway), not with the dashboard:
// a dashboard of tables and figures never downloads it, and the public view's first load stays small.
const LazyEChart = lazy(async () => {
  const { EChart } = await import("../charts/EChart");
  loadedEChart = EChart;
  return { default: EChart };
});

/**
 * The chart, with its component chosen once, when the body first has a chart to draw: the module itself
 * when it is loaded already (a member's dashboard loads it with the data), so the chart mounts in the
 * render that draws the card's answer. A lazy component suspends on its first render even when its
 * module is in, and React reveals a suspended boundary's content in a retry it holds until 300 ms after
 * the page last showed a fallback (any lazy part of the screen): every chart's snapshot waited for that
 * before it was asked for (docs/decisions.md, "The owner's dashboard: no Suspense retry before a chart").
 */
function Chart(props: ComponentProps<EChartComponent>) {
  const [EChart] = useState<EChartComponent>(() => loadedEChart ?? LazyEChart);
  return <EChart {...props} />;
}

/** The echarts parts each chart format draws with (charts/chart-parts.ts). */
const FORMAT_PARTS: Partial<Record<string, ChartPart[]>> = {
  "chart:line": ["line", "graphic"],
  "chart:area": ["line", "graphic"],
  "chart:bar": ["bar", "graphic"],
  "chart:pie": ["pie"],
  "chart:radar": ["radar"],
  "chart:gauge": ["gauge"],
};

/**
 * Loads the chart component and starts the snapshot worker with the echarts parts these widgets' charts
 * draw with, while their data is on the way (a member's dashboard, features/dashboard/early-widgets.ts;
 * the page's own echarts follows when idle, for the live charts; a public view keeps echarts out until
 * the reader points at a chart).
 */
/** Loads the chart component alone: a member's server-rendered page hydrates its charts with it (routes/dashboard-show.tsx). */
export function loadChartComponent(): Promise<void> {
  return import("../charts/EChart").then(({ EChart }) => {
    loadedEChart = EChart;
  });
}

export function preloadChartCode(widgets: TWidget[]): void {
  const parts = new Set(widgets.flatMap((widget) => FORMAT_PARTS[widget.format] ?? []));
  if (parts.size === 0) return;
  import("../charts/EChart").then(
    ({ EChart, preloadChartCode: load }) => {
      loadedEChart = EChart;
      load([...parts]);
    },
    () => {},
  );
}

import type { PublicAccess, WidgetDataResult } from "../api";
import { PublicAccessContext, type WidgetRange, widgetDataQuery } from "../queries";
import { SummaryWidget } from "./SummaryWidget";
import { TableWidget } from "./TableWidget";
import { WidgetDataError, WidgetEmpty, WidgetSkeleton, WidgetTimedOut, WidgetUnavailable } from "./WidgetStates";

/**
 * How many figures a summary will show, known before its data: the metrics chosen in its instances and
 * their calculated metrics, less those hidden (cloaked).
 */
function chosenFigures(widget: TInteractiveWidget): number {
  let count = 0;
  for (const instance of widget.instances) {
    const chosen = instance.inputs[METRICS_PARAM];
    const keys = [
      ...(Array.isArray(chosen) ? chosen.map(String) : []),
      ...(instance.inputs.calculatedMetrics ?? []).map((metric) => metric.id),
    ];
    count += keys.filter((key) => !instance.metricsOptions[key]?.cloaked).length;
  }
  return count;
}

/** Where a widget is: loading, drawn, empty, failed. Exposed on the card as data attributes. */
export type WidgetState = "loading" | "ready" | "empty" | "error" | "unavailable";

/** The table the body draws from an answer's: shares of the total for a percent widget. */
function drawnTable(table: TTable, percent: TInteractiveWidget["percent"]): TTable {
  return percent ? asShareOfTotal(table) : table;
}

/** Nothing to draw: the body says 'No data for this period'. */
function isEmpty(table: TTable, widget: TInteractiveWidget): boolean {
  return widget.format === "summary" || widget.format === "chart:gauge"
    ? table.metrics.length === 0 || table.totals.every((total) => total === null)
    : isEmptyTable(table);
}

/**
 * The state the body will report from its first render, known before it renders: the card's first
 * attributes. On a server-rendered page no effect runs until the reader starts the app, so a card that
 * waited for the body's report would stay busy over a drawn table. Only an answer in the cache that is
 * neither stale nor being fetched is drawn settled (a stale one is fetched again at mount and the body
 * says loading meanwhile); an error without an answer is fetched again too. A chart is ready only once
 * painted, after its first render. Stale is the cache's word: invalidated, or past its staleTime for the
 * widgets watching it; an answer no widget watches only ages out of the cache (gcTime), so one left
 * there over 5 minutes is said ready until the body's refetch says loading.
 */
export function firstWidgetState(
  client: QueryClient,
  widget: TInteractiveWidget,
  range: WidgetRange,
  access: PublicAccess | null,
  enabled: boolean,
): WidgetState {
  const options = widgetDataQuery(widget, range, access);
  // Looked up by its hash, not `find`: `find` hashes this key again against every query in the cache
  // (each with that query's own hash function), so 24 cards cost 24 × 24 hashes of whole widget keys.
  const found = client
    .getQueryCache()
    .get<WidgetDataResult>(options.queryKeyHashFn?.(options.queryKey) ?? hashKey(options.queryKey));
  const data = found && !found.isStale() && found.state.fetchStatus === "idle" ? found.state.data : undefined;
  const current = data ? drawnTable(data.current, widget.percent) : null;
  if (!enabled) return "unavailable";
  if (!current) return "loading";
  return isEmpty(current, widget) ? "empty" : widget.format.startsWith("chart:") ? "loading" : "ready";
}

interface Props {
  widget: TInteractiveWidget;
  range: WidgetRange;
  /** False while the viewer may not load data (e.g. signed-out viewers, see the dashboard screen). */
  enabled: boolean;
  compact: boolean;
  short: boolean;
  width: number;
  /** Height of the card body in pixels (0 before it is measured). */
  height?: number;
  onState: (state: WidgetState) => void;
}

function errorDetail(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.message;
  return undefined;
}

/**
 * Loads a data widget's table (refetching only when its query or the range changes) and draws its format.
 * Memoised: the card re-renders when this body reports its state (`onState`, from an effect, so a
 * blocking update), and that must not redraw the table or rebuild the chart's option with it: on a
 * phone those re-renders were the public view's longest tasks (docs/decisions.md, "A widget's body does not re-render when its card's state changes").
 */
export const InteractiveWidgetBody = memo(function InteractiveWidgetBody({
  widget,
  range,
  enabled,
  compact,
  short,
  width,
  height = 0,
  onState,
}: Props) {
  const look = useWidgetLook();
  const access = useContext(PublicAccessContext);
  const query = useQuery({ ...widgetDataQuery(widget, range, access), enabled });
  // A widget's answer is drawn in a background render React time-slices, not in the query's update
  // (one blocking task): on a phone, answers arriving together were long tasks of tables, figures and
  // chart options (docs/decisions.md, "Public view: shorter tasks on a phone"). Until that render commits the card shows what it showed before.
  const data = useDeferredValue(query.data);
  const drawing = data !== query.data;
  const print = useContext(PrintModeContext);
  const live = useContext(RealtimeMarkContext);
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!print) return;
    const timer = setTimeout(() => setTimedOut(true), print.widgetTimeoutMs);
    return () => clearTimeout(timer);
  }, [print]);
  const current = useMemo(() => (data ? drawnTable(data.current, widget.percent) : null), [data, widget.percent]);
  const previous = useMemo(
    () => (data?.previous ? drawnTable(data.previous, widget.percent) : null),
    [data, widget.percent],
  );
  const isChart = widget.format.startsWith("chart:");
  const failed = query.isError && !data;
  const empty = current !== null && isEmpty(current, widget);
  // A placeholder is the previous range's data shown while the new range loads: not ready yet.
  const settled = !query.isPlaceholderData && !query.isFetching && !drawing;
  // Only a widget still without its data gives up; one whose data came is drawn whatever the clock says.
  const gaveUp = timedOut && !query.isError && !(current && settled);

  const i18n = useI18n();
  const { t, locale } = i18n;
  const comparison = comparisonLabel(
    range.compareStartDate,
    range.compareEndDate,
    Number(range.endDate.slice(0, 4)),
    i18n,
  );
  // Only the gauge sizes its texts to the card (card-size.ts); other charts keep their option while a
  // card resizes. Kept as two numbers: the memo below compares them, not a new object each render.
  const { size } = bodyFit(widget.format, width, height);
  const chartWidth = size?.width ?? 0;
  const chartHeight = size?.height ?? 0;
  // The widget's goals, the answer's figures in the dashboard's words: lines under the content, marks on a chart (goals/).
  const goals = useMemo(() => (current && data ? goalViews(data.goals, current, i18n) : []), [current, data, i18n]);
  // A chart over days draws a target line, a gauge a notch (charts/); shares of a total (the percent
  // option) are not the units a target is in, so they get no mark.
  const marked =
    widget.format === "chart:gauge" ||
    (["chart:line", "chart:area", "chart:bar"].includes(widget.format) && current?.dimension?.kind === "date");
  const targets = useMemo(
    () => (current && data && marked && !widget.percent ? chartTargets(data.goals, current, i18n) : []),
    [current, data, marked, widget.percent, i18n],
  );
  // A member's chart waits for its card to be measured (the first ResizeObserver report, before the
  // first paint): drawn before it, its input said "not short" and a snapshot was drawn and kept that way
  // while the card was short, unlike the same chart on the next load (charts/snapshot-store.ts). A
  // server-rendered page (a public view, a member's: ../server-rendered.ts) has no measure and draws at once.
  const measured = width > 0 && height > 0;
  // The server measures nothing, so its cards draw their charts' boxes, with their inputs, unmeasured; the
  // cards the browser hydrates from them (`html[data-app="starting"]`: ssr/member-boot.ts, ssr/boot.ts)
  // must render the same. Read once, as the card mounts: one added later waits for its measure.
  const [serverRendered] = useState(
    () => typeof document === "undefined" || document.documentElement.dataset.app === "starting",
  );
  const waitsForSize = !access && !print && !measured && !serverRendered;
  // A chart's own words (a pie's "Other", a radar's "Current period") in the dashboard's language.
  const words = useMemo(() => ({ other: t("widget.other"), currentPeriod: t("widget.currentPeriod") }), [t]);
  const input = useMemo<ChartInput | null>(
    () =>
      current && isChart && !empty && !waitsForSize
        ? {
            widget,
            current,
            previous,
            colours: look,
            compact,
            short,
            comparison,
            locale,
            words,
            size: chartWidth > 0 && chartHeight > 0 ? { width: chartWidth, height: chartHeight } : undefined,
            ...(targets.length > 0 ? { targets } : {}),
          }
        : null,
    [
      current,
      previous,
      widget,
      look,
      compact,
      short,
      isChart,
      empty,
      waitsForSize,
      comparison,
      locale,
      words,
      chartWidth,
      chartHeight,
      targets,
    ],
  );
  const option = useMemo(() => (input ? chartOption(input) : null), [input]);

  // Charts are ready once EChart has drawn the current option.
  const [drawn, setDrawn] = useState<ChartOption | null>(null);

  // While this widget's data is on its way or being drawn, the charts already drawn as snapshots wait
  // to go live (charts/live-queue.ts): every card's first drawing comes before ECharts' set-ups.
  const inFlight = enabled && !failed && !gaveUp && (!current || !settled);
  useEffect(() => (inFlight ? holdLiveCharts() : undefined), [inFlight]);

  useEffect(() => {
    if (!enabled) onState("unavailable");
    else if (failed || gaveUp) onState("error");
    else if (!current || !settled) onState("loading");
    else if (empty) onState("empty");
    else if (!isChart || (option !== null && drawn === option)) onState("ready");
    else onState("loading");
  }, [enabled, failed, gaveUp, current, settled, empty, isChart, option, drawn, onState]);

  if (!enabled) return <WidgetUnavailable />;
  if (failed) return <WidgetDataError detail={errorDetail(query.error)} />;
  if (gaveUp) return <WidgetTimedOut />;
  if (!current) {
    return (
      <WidgetSkeleton
        format={widget.format}
        withChange={Boolean(comparison) && !widget.hiddenChange}
        figures={chosenFigures(widget)}
        width={width}
      />
    );
  }
  // A filtered widget says so, first, right under the title: a client must not read a filtered table as
  // the whole site's, and a line under a long table is read last if at all.
  const filterTexts = [...new Set((data?.filters ?? []).map((filter) => filter.text))];
  const filtered =
    filterTexts.length > 0 ? (
      <Text
        size="xs"
        className="dash-updated dash-filter"
        data-testid="widget-filter"
        title={t("widget.filter", { filters: filterTexts.join(" · ") })}
      >
        {t("widget.filter", { filters: filterTexts.join(" · ") })}
      </Text>
    ) : null;

  if (empty) {
    // A filter that matches nothing is when saying the filter matters most.
    return (
      <>
        {filtered}
        <WidgetEmpty reasons={[...new Set((data?.noData ?? []).map((entry) => entry.reason))]} />
      </>
    );
  }

  const partialFailure =
    data && data.errors.length > 0 ? (
      <Tooltip label={data.errors.map((error) => error.message).join(", ")}>
        <Badge color="red" variant="light" size="sm" className="dash-partial-error">
          {t("widget.dataError")}
        </Badge>
      </Tooltip>
    ) : null;

  const updated =
    live && widget.realTime && query.dataUpdatedAt > 0 ? (
      <Text size="xs" className="dash-updated" data-testid="widget-updated">
        {t("widget.updated", { time: updatedClock(query.dataUpdatedAt, live.timezone) })}
      </Text>
    ) : null;

  // The provider failed for now: these are the last stored numbers, said so with their age.
  const notice = data?.notices?.[0];
  const stale = notice ? (
    <Text
      size="xs"
      className="dash-updated dash-stale"
      data-testid="widget-stale"
      title={t("widget.dataAsOf", { time: asOfText(notice.asOf, range.timezone), message: notice.message })}
    >
      {t("widget.dataAsOf", { time: asOfText(notice.asOf, range.timezone), message: notice.message })}
    </Text>
  ) : null;

  // The server draws a member's chart ahead when the body holds only the chart: the lines above and below
  // take a height it cannot know, and the page's own measure decides those.
  if (typeof document === "undefined" && input && option && !filtered && goals.length === 0 && !updated && !stale)
    noteServerDrawing(widget, input);

  return (
    <>
      {filtered}
      {partialFailure}
      {widget.format === "table" ? (
        <TableWidget widget={widget} current={current} previous={previous} compact={compact} short={short} />
      ) : widget.format === "summary" ? (
        <SummaryWidget widget={widget} current={current} previous={previous} width={width} />
      ) : option ? (
        <Suspense fallback={null}>
          <Chart
            option={option}
            label={`${t("widget.chart", { title: widget.title })}${targets.map((target) => `, ${target.label.toLowerCase()}`).join("")}`}
            onRendered={() => setDrawn(option)}
            whenVisible={!print && !live}
            // A chart is drawn first off the main thread (charts/chart-snapshots.ts); on a member's
            // dashboard the live chart follows when the page is idle (charts/live-queue.ts), on a public
            // view when the reader points at it.
            snapshot={!print && !live && input ? input : undefined}
            liveWhenIdle={!access}
          />
        </Suspense>
      ) : null}
      <GoalLines goals={goals} />
      {updated}
      {stale}
    </>
  );
});
