import { Box } from "@mantine/core";
import { useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import { PrintModeContext } from "../print";
import type { ChartInput } from "./chart-common";
import { CHART_PARTS, type ChartPart, chartParts, loadChartParts, loadedChartParts } from "./chart-parts";
import { chartSnapshot, snapshotLayer, snapshotsAvailable, snapshotsPending, warmSnapshots } from "./chart-snapshots";
import type { ChartOption } from "./chart-types";
import { afterCardsDrawn, browserLiveQueue, type LiveQueue, liveChartsHeld } from "./live-queue";

type EChartsModule = typeof import("./echarts-setup");
type ECharts = EChartsModule["echarts"];
type ChartInstance = ReturnType<ECharts["init"]>;

let loading: Promise<EChartsModule> | null = null;
/** echarts' core once loaded (a chart may then be drawn without waiting, as printing needs). */
let core: ECharts | null = null;
/** Whether the SVG renderer (print) has been installed on the core. */
let svgInstalled = false;

/**
 * echarts' core with the parts this option draws (series types, components), fetched in parallel on
 * the first chart that needs them; the core is loaded once for the page.
 */
async function loadECharts(option: ChartOption): Promise<ECharts> {
  // A failed fetch (a new release while the tab was open) is not kept: the next chart asks again.
  loading ??= import("./echarts-setup").catch((error: unknown) => {
    loading = null;
    throw error;
  });
  const [{ echarts }, parts] = await Promise.all([loading, loadChartParts(chartParts(option))]);
  echarts.use(parts.flat());
  core = echarts;
  return echarts;
}

/** The core with this option's parts, when all are loaded already; null when drawing would have to wait. */
function loadedECharts(option: ChartOption, svg: boolean): ECharts | null {
  const parts = core ? loadedChartParts(chartParts(option)) : null;
  if (!core || !parts || (svg && !svgInstalled)) return null;
  core.use(parts.flat());
  return core;
}

/**
 * The print view's code, loaded ahead of its first dashboard (the server's warm-up of its print page):
 * echarts' core, the SVG renderer and every part.
 */
export async function preloadPrintCharts(): Promise<void> {
  // A failed fetch (a new release while the tab was open) is not kept: the next chart asks again.
  loading ??= import("./echarts-setup").catch((error: unknown) => {
    loading = null;
    throw error;
  });
  const [{ echarts }, parts] = await Promise.all([loading, loadChartParts(CHART_PARTS)]);
  echarts.use(parts.flat());
  core = echarts;
  await loadSvgRenderer(echarts);
}

/**
 * The parts a member's dashboard's charts will draw with, asked for as soon as the dashboard is known
 * (features/dashboard/early-widgets.ts), while its data is still on the way: the snapshot worker starts
 * and loads them at once (each chart's first drawing is its snapshot); the page's own echarts, for the
 * live charts that follow, is fetched and evaluated once the cards are drawn (afterCardsDrawn: its
 * evaluation is main-thread time the first frame does not need).
 */
export function preloadChartCode(parts: ChartPart[]): void {
  warmSnapshots(parts);
  const load = () => {
    // A failed fetch (a new release while the tab was open) is not kept: the next chart asks again.
    loading ??= import("./echarts-setup").catch((error: unknown) => {
      loading = null;
      throw error;
    });
    void Promise.all([loading, loadChartParts(parts)]).then(
      ([{ echarts }, extensions]) => {
        echarts.use(extensions.flat());
        core = echarts;
      },
      // A chart that needs the code asks for it again when it draws, and reports a failure then.
      () => {},
    );
  };
  if (!snapshotsAvailable()) load();
  else afterCardsDrawn(load);
}

/** The queue of a member's charts waiting to go live (live-queue.ts), made with the first. */
let liveQueue: LiveQueue | null = null;
function queueLive(setUp: () => Promise<unknown>): () => void {
  liveQueue ??= browserLiveQueue(() => snapshotsPending() || liveChartsHeld());
  return liveQueue.add(setUp);
}

/**
 * Charts still waiting to come into view, each with a function that draws it now. Printing the page
 * (Ctrl+P, `beforeprint`) draws them all before the browser lays the pages out: a printed dashboard
 * shows every chart, not the empty cards of those the reader never scrolled to.
 */
const waitingForView = new Set<() => void>();
if (typeof window !== "undefined") {
  window.addEventListener("beforeprint", () => {
    for (const draw of [...waitingForView]) draw();
  });
}

/**
 * Resolves once the element comes within a short scroll of the viewport (at once where
 * IntersectionObserver is missing); `cancel` stops watching.
 */
function nearViewport(element: Element): { visible: Promise<void>; cancel: () => void } {
  if (typeof IntersectionObserver === "undefined") return { visible: Promise.resolve(), cancel: () => {} };
  let observer: IntersectionObserver | null = null;
  const visible = new Promise<void>((resolve) => {
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer?.disconnect();
        resolve();
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(element);
  });
  return { visible, cancel: () => observer?.disconnect() };
}

/**
 * Whether the element is where `nearViewport` would report it at once (within 200 px above or below the
 * viewport). Read in a layout effect, after the commit's DOM changes: the layout it forces is the one
 * the browser makes before painting anyway.
 */
function isNearViewport(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom >= -200 && box.top <= window.innerHeight + 200 && box.right >= 0 && box.left <= window.innerWidth;
}

interface Props {
  option: ChartOption;
  /**
   * Draw only once the chart comes near the viewport. A dashboard's charts below the fold cost a phone
   * most of its first second (ECharts' set-up and layout per chart); they are drawn as the reader
   * scrolls to them. The card stays busy (not ready) until then. Off in print and on wall displays.
   */
  whenVisible?: boolean;
  /** Accessible description of the chart (canvas content is invisible to assistive technology). */
  label: string;
  /** Called once the option has been drawn. */
  onRendered?: () => void;
  /**
   * The input `option` was made from, on public views: the chart is first drawn as an SVG snapshot made
   * off the main thread (chart-snapshots.ts), and the live chart takes over when the reader points at it.
   */
  snapshot?: ChartInput;
  /**
   * With `snapshot` (a member's dashboard): the live chart is set up after its snapshot, when the page is
   * idle (live-queue.ts), not only when the reader points at it. Off on public views.
   */
  liveWhenIdle?: boolean;
}

/** Print: SVG (vector text in the PDF, not a bitmap). */
async function loadSvgRenderer(echarts: ECharts) {
  echarts.use((await import("./parts/svg-renderer")).default);
  svgInstalled = true;
}

/**
 * Print draws without animation (the PDF is taken once drawn). So does every chart's first draw: on a
 * phone, a dashboard's charts growing in at once were a second of animation frames competing with the
 * rest of the page; later changes (a new range, a realtime refresh) still animate.
 */
function withoutAnimation(option: ChartOption, still: boolean): ChartOption {
  return still ? ({ ...option, animation: false } as ChartOption) : option;
}

/** Resolves in a later task, so the browser may draw and answer input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** An ECharts canvas that follows its option and resizes with its container (the widget card). */
export function EChart({ option, label, onRendered, whenVisible = false, snapshot, liveWhenIdle = false }: Props) {
  const print = useContext(PrintModeContext) !== null;
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef({ option, onRendered, snapshot });
  latest.current = { option, onRendered, snapshot };
  /** Draws the latest input again while the chart is still a snapshot (null once live). */
  const redrawSnapshot = useRef<(() => void) | null>(null);
  const firstSnapshot = useRef(snapshot !== undefined && !print);
  /** A draw has been asked of ECharts and its `finished` event not yet seen. */
  const awaitingFinish = useRef(false);
  /** The live ECharts chart has drawn (`data-live`): what reads the chart's instance waits for this. */
  const [isLive, setIsLive] = useState(false);

  // A layout effect, run in the commit that mounts the chart: a passive effect of a background
  // (transition) commit runs in a task the scheduler puts after the other renders waiting, which on the
  // owner's busy first second was 0.1–1 s before the snapshot was even asked for (bench (b)'s profile).
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let observer: ResizeObserver | null = null;
    let frame = 0;
    let live = false;
    let painted = false;
    let overlay: HTMLDivElement | null = null;
    let drawnSize = "";
    /** Snapshots asked for, and the latest of them put on screen, with the input it was drawn from. */
    let snapshotsAsked = 0;
    let shownSnapshot = 0;
    let shownInput: ChartInput | undefined;
    /** Takes this chart out of the idle queue (live-queue.ts). */
    let unqueue: (() => void) | null = null;
    /** Draws the snapshot again at the chart's size and data, while it is one. */
    let snapshotRedraw: (() => void) | null = null;
    const near = whenVisible ? nearViewport(element) : null;
    if (near) {
      waitingForView.add(drawForPrint);
      // Its code loaded ahead while the page is idle, so a print can draw it at once. Not on public views
      // before any chart went live: there the page keeps echarts out until the reader points at a chart.
      if (!latest.current.snapshot || liveWhenIdle || core) {
        const preload = () => {
          if (!disposed && !painted) void loadECharts(latest.current.option).catch(() => {});
        };
        // A member's: once the cards are drawn, with the rest of the screen.
        if (liveWhenIdle) afterCardsDrawn(preload);
        else if (typeof requestIdleCallback === "function") requestIdleCallback(preload, { timeout: 5_000 });
        else setTimeout(preload, 1_000);
      }
    }

    const size = () => ({ width: element.clientWidth, height: element.clientHeight });

    /** Stops what a snapshot (or waiting for the viewport) had going: the chart is going live. */
    const leaveSnapshot = () => {
      live = true;
      redrawSnapshot.current = null;
      unqueue?.();
      unqueue = null;
      waitingForView.delete(drawForPrint);
      near?.cancel();
      for (const type of WAKE_EVENTS) element.removeEventListener(type, wake);
      observer?.disconnect();
    };

    /** zrender set up in the element (canvas, SVG in print), once. */
    const setUp = (echarts: ECharts): ChartInstance => {
      if (chart.current) return chart.current;
      const instance = echarts.init(element, undefined, { renderer: print ? "svg" : "canvas" });
      chart.current = instance;
      // The chart's own word that its final frame is drawn (its layout, any progressive series and
      // animation done): only then is the card ready, and the print view may be captured.
      instance.on("finished", () => {
        if (!awaitingFinish.current) return;
        awaitingFinish.current = false;
        latest.current.onRendered?.();
      });
      // zrender empties the element: the snapshot stays on top until the live chart has painted.
      if (overlay) element.appendChild(overlay);
      return instance;
    };

    /** The option drawn and painted now, once. `pointer` is where the reader pointed. */
    const paint = (instance: ChartInstance, pointer?: { x: number; y: number }) => {
      if (painted) return;
      painted = true;
      awaitingFinish.current = true;
      instance.setOption(withoutAnimation(latest.current.option, true), { notMerge: true });
      // Browser tests read what was drawn (the option, text positions) from the element.
      (element as HTMLElement & { echartsInstance?: ChartInstance }).echartsInstance = instance;
      // Paint now, in this chart's own task: left to zrender, every chart of the screen paints in the
      // same animation frame, one long task of all of them (close to a second on a phone).
      instance.getZr().flush();
      overlay?.remove();
      overlay = null;
      setIsLive(true);
      if (pointer) instance.dispatchAction({ type: "showTip", x: pointer.x, y: pointer.y });
      observer = new ResizeObserver(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => instance.resize());
      });
      observer.observe(element);
    };

    /** The live chart: ECharts on this page, canvas (SVG in print). `pointer` is where the reader pointed. */
    const goLive = async (pointer?: { x: number; y: number }) => {
      if (live || disposed) return;
      leaveSnapshot();
      try {
        await setUpLive(pointer);
      } catch {
        if (disposed || painted) return;
        // The chart's code could not be loaded: the snapshot stays the chart (redrawn as its data
        // changes), and pointing at it tries again.
        live = false;
        redrawSnapshot.current = snapshotRedraw;
        for (const type of WAKE_EVENTS) element.addEventListener(type, wake, { passive: true, once: true });
      }
    };
    const setUpLive = async (pointer?: { x: number; y: number }) => {
      const echarts = await loadECharts(latest.current.option);
      if (disposed) return;
      // The option may have changed (and need other parts) while echarts loaded.
      await loadECharts(latest.current.option);
      // Each chart draws in tasks of its own, not in the render that mounted it: the set-up (canvas,
      // zrender) in one, the option (layout and drawing, most of the time) in the next, with the browser
      // free to draw and answer input in between (docs/decisions.md, "Public view speed").
      await nextTask();
      if (disposed) return;
      if (print) await loadSvgRenderer(echarts);
      if (disposed) return;
      const instance = setUp(echarts);
      await nextTask();
      if (disposed) return;
      paint(instance, pointer);
    };

    /**
     * Before the browser prints: drawn at once when its code is loaded (the print is laid out right after
     * the `beforeprint` handlers return), else as soon as it is.
     */
    function drawForPrint() {
      if (disposed || painted) return;
      const echarts = loadedECharts(latest.current.option, print);
      if (!echarts) {
        void goLive();
        return;
      }
      leaveSnapshot();
      paint(setUp(echarts));
    }

    function wake(event: Event) {
      const box = element?.getBoundingClientRect();
      const point =
        event instanceof PointerEvent && box ? { x: event.clientX - box.left, y: event.clientY - box.top } : undefined;
      void goLive(point);
    }

    /** Draws the snapshot at the element's size; false when it cannot be drawn (then the chart goes live). */
    const drawSnapshot = async (): Promise<boolean> => {
      const input = latest.current.snapshot;
      const at = size();
      if (!input || at.width === 0 || at.height === 0) return false;
      drawnSize = `${at.width}x${at.height}`;
      const asked = ++snapshotsAsked;
      let svg: string;
      try {
        // A member's snapshots are kept by the browser and found again on the next load (snapshot-store.ts).
        svg = await chartSnapshot(input, at, liveWhenIdle);
      } catch {
        return false;
      }
      if (disposed || live) return true;
      // Workers side by side may answer out of order: a later drawing is on screen already.
      if (asked < shownSnapshot) return true;
      shownSnapshot = asked;
      shownInput = input;
      overlay ??= snapshotLayer(element);
      overlay.innerHTML = svg;
      // An input that changed while it was drawn is not said drawn: the drawing of the latest says it.
      if (input === latest.current.snapshot) latest.current.onRendered?.();
      return true;
    };

    // A member's chart in view asks for its snapshot at once: the IntersectionObserver's first report,
    // which says the same, comes only with a frame, and a page busy with its first renders gives one
    // 0.2–0.5 s late (bench (b)'s profile; docs/decisions.md, "The owner's dashboard: no Suspense retry
    // before a chart"). One below the fold still waits to be scrolled to.
    const snapshotAtOnce =
      liveWhenIdle && firstSnapshot.current && !print && snapshotsAvailable() && isNearViewport(element);
    // A member's page the server rendered has every chart drawn already (ssr/member-boot.ts): each is
    // adopted at once, so that the drawing follows the card's measure from the start (a card that changes
    // its input while it waits to be scrolled to stays busy, and holds every live chart: live-queue.ts);
    // one below the fold still goes live only once scrolled to.
    const adoptAtOnce =
      liveWhenIdle &&
      firstSnapshot.current &&
      !print &&
      snapshotsAvailable() &&
      element.querySelector(":scope > .echart-snapshot") !== null;
    void (snapshotAtOnce || adoptAtOnce ? Promise.resolve() : (near?.visible ?? Promise.resolve())).then(async () => {
      // A member's snapshot stays a print's to draw live until the chart is live (drawForPrint).
      if (!liveWhenIdle) waitingForView.delete(drawForPrint);
      if (disposed || live) return;
      if (!firstSnapshot.current || print || !snapshotsAvailable()) return goLive();
      for (const type of WAKE_EVENTS) element.addEventListener(type, wake, { passive: true, once: true });
      // A server-rendered page's snapshot, drawn before the app started (ssr/chart-placeholders.ts).
      const drawn = element.querySelector<HTMLDivElement>(":scope > .echart-snapshot");
      if (drawn) {
        overlay = drawn;
        drawnSize = drawn.dataset.size ?? "";
        latest.current.onRendered?.();
        // The reader started the app by pointing at this chart (ssr/boot.ts): it goes live there.
        const woken = element.dataset.woken?.split(",").map(Number);
        if (woken?.length === 2) {
          delete element.dataset.woken;
          return goLive({ x: woken[0], y: woken[1] });
        }
      } else if (!(await drawSnapshot())) return goLive();
      // The reader pointed at the chart while its first snapshot was being drawn: it is live already, and
      // a snapshot's redraw set up now would take its later options (a goal added, another range) away
      // from the live chart, which then never draws them nor says them drawn (the card stays busy).
      if (disposed || live) return;
      snapshotRedraw = () => {
        void drawSnapshot().then((drawn) => (drawn ? undefined : goLive()));
      };
      redrawSnapshot.current = snapshotRedraw;
      // The input changed while the first snapshot was drawn (no redraw was set up yet to follow it).
      if (shownInput !== undefined && shownInput !== latest.current.snapshot) snapshotRedraw();
      // A snapshot is drawn at one size: a card that changes size gets a new one.
      observer = new ResizeObserver(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          const at = size();
          if (!live && `${at.width}x${at.height}` !== drawnSize) redrawSnapshot.current?.();
        });
      });
      observer.observe(element);
      if (liveWhenIdle) {
        // Printing the page (beforeprint) draws it live at once, as it draws the charts not yet in view.
        waitingForView.add(drawForPrint);
        if (snapshotAtOnce || !adoptAtOnce || !near) unqueue = queueLive(() => goLive());
        else
          void near.visible.then(() => {
            if (!disposed && !live) unqueue = queueLive(() => goLive());
          });
      }
    });
    return () => {
      disposed = true;
      unqueue?.();
      waitingForView.delete(drawForPrint);
      near?.cancel();
      cancelAnimationFrame(frame);
      observer?.disconnect();
      for (const type of WAKE_EVENTS) element.removeEventListener(type, wake);
      redrawSnapshot.current = null;
      chart.current?.dispose();
      chart.current = null;
    };
  }, [print, whenVisible, liveWhenIdle]);

  useEffect(() => {
    // Still a snapshot: the new input is drawn as one too.
    if (redrawSnapshot.current) {
      redrawSnapshot.current();
      return;
    }
    const instance = chart.current;
    if (!instance) return;
    let current = true;
    // A new option may draw a series type not loaded yet (a widget switched from line to radar).
    void loadECharts(option).then(() => {
      if (!current || instance.isDisposed()) return;
      // In print the card is ready on the chart's `finished` (its final frame); on screen the new data
      // is said drawn at once, its animation still running.
      awaitingFinish.current = print;
      instance.setOption(withoutAnimation(option, print), { notMerge: true });
      if (!print) latest.current.onRendered?.();
    });
    return () => {
      current = false;
    };
  }, [option, print]);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      w="100%"
      h="100%"
      mih={0}
      pos="relative"
      data-live={isLive || undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty constant; it keeps React out of the box's children.
      dangerouslySetInnerHTML={UNMANAGED}
      // The server's page draws its charts before the app starts, from the input they are made from.
      data-chart-input={typeof window === "undefined" && snapshot ? JSON.stringify(snapshot) : undefined}
    />
  );
}

/** What makes a snapshot live: the reader pointing at or touching the chart (tooltips, legend). */
const WAKE_EVENTS = ["pointerenter", "pointerdown", "touchstart"] as const;

/**
 * The chart's box keeps what scripts put in it (zrender's canvas, the snapshot layer) out of React's
 * hands: React sets no children here and, hydrating a server-rendered page, adopts the snapshot that
 * ssr/chart-placeholders.ts drew into the box before the app started.
 */
const UNMANAGED = { __html: "" };
