import type { TPageData } from "@app/core";
import type { ServerRenderState } from "./server-entry";

/**
 * A public dashboard rendered by the server (issue 6 §5; docs/decisions.md "Public view: rendered by the
 * server, the app on the first touch"): its HTML already shows every card, so the page runs no app
 * until the reader acts on it. Here: the charts are drawn from their inputs off the main thread, and the
 * reader's first pointer, touch, key or focus loads the app, which hydrates the page; a click on a
 * control before it was live is made again once it is.
 */

/** What a click before the app was live is made again on. */
const REPLAYED = "button, [role='button'], input, select, textarea";

const WAKE_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin"] as const;

export function bootServerRendered(container: HTMLElement, pageData: TPageData, state: ServerRenderState): void {
  let started = false;
  let replay: HTMLElement | null = null;
  let replayAt = -1;

  /** The control a click before the app was live meant (links work without the app), and its place. */
  const remember = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || target.closest("a[href]")) return;
    const control = target.closest<HTMLElement>(REPLAYED);
    if (!control) return;
    replay = control;
    replayAt = [...container.querySelectorAll(REPLAYED)].indexOf(control);
  };
  /** Pointing at a chart asks for the live one (tooltips, legend). */
  const overChart = (event: Event) => {
    if (event.target instanceof Element && event.target.closest("[data-chart-input]")) start(event);
  };

  const wake = (event: Event) => start(event);

  function start(event?: Event) {
    if (started) return;
    started = true;
    markChartWoken(event);
    for (const type of WAKE_EVENTS) document.removeEventListener(type, wake, true);
    document.removeEventListener("pointerover", overChart, true);
    void import("./hydrate")
      .then(({ hydratePublicView }) => hydratePublicView(container, pageData, state))
      .then(() => {
        document.removeEventListener("click", remember, true);
        if (replay) void replayClick(container, replay, replayAt);
      });
  }

  document.addEventListener("click", remember, true);
  // A chart that cannot be drawn without the app (no worker, a worker that fails) starts it.
  void import("./chart-placeholders")
    .then(({ drawChartPlaceholders }) => drawChartPlaceholders(container))
    .then((allDrawn) => allDrawn || start(), start);
  // Something was left to the app (a card still loading, a part the server could not draw), or charts
  // cannot be drawn without it: it starts at once.
  const needsApp = !state.complete || (typeof Worker === "undefined" && container.querySelector("[data-chart-input]"));
  if (needsApp) {
    start();
    return;
  }
  for (const type of WAKE_EVENTS) document.addEventListener(type, wake, { capture: true, passive: true });
  document.addEventListener("pointerover", overChart, { capture: true, passive: true });
}

/**
 * The chart the reader pointed at or touched to start the app, marked with where (`data-woken="x,y"`,
 * in the chart's pixels): once live, that chart goes live at once with its tooltip there (EChart.tsx),
 * as it would have had the app been running.
 */
function markChartWoken(event: Event | undefined): void {
  const target = event?.target instanceof Element ? event.target : null;
  const box = target?.closest<HTMLElement>("[data-chart-input]");
  if (!box) return;
  const rect = box.getBoundingClientRect();
  const point =
    event instanceof TouchEvent && event.touches[0]
      ? event.touches[0]
      : event instanceof MouseEvent
        ? event
        : { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
  box.dataset.woken = `${Math.round(point.clientX - rect.left)},${Math.round(point.clientY - rect.top)}`;
}

/**
 * Clicks again the control a click before the app was live meant: the same element, adopted by React,
 * or, where React drew that part anew, the control in its place. A stand-in that is not usable yet (the
 * date range's, until its picker has loaded: `aria-disabled`) is waited for, 3 s at most.
 */
function replayClick(container: HTMLElement, first: HTMLElement, index: number): Promise<void> {
  const until = Date.now() + 3000;
  return new Promise((resolve) => {
    const attempt = () => {
      const control = first.isConnected
        ? first
        : index >= 0
          ? container.querySelectorAll<HTMLElement>(REPLAYED)[index]
          : undefined;
      const usable = control?.isConnected && control.getAttribute("aria-disabled") !== "true";
      if (usable) control.click();
      if (usable || Date.now() > until) resolve();
      else setTimeout(attempt, 50);
    };
    attempt();
  });
}
