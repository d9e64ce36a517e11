import type { TPageData } from "@app/core";
import { clickedControl, replayClick } from "./replay";
import type { ServerRenderState } from "./server-entry";

/**
 * A public dashboard rendered by the server (docs/decisions.md "Public view: rendered by the
 * server, the app on the first touch"): its HTML already shows every card, so the page runs no app
 * until the reader acts on it. Here: the charts are drawn from their inputs off the main thread, and the
 * reader's first pointer, touch, key or focus loads the app, which hydrates the page; a click on a
 * control before it was live is made again once it is.
 */

const WAKE_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin"] as const;

/** A click on a control before the app was live, and the control's place among the page's controls. */
interface Click {
  event: Event;
  control: HTMLElement;
  index: number;
  /** A stand-in not usable yet (`aria-disabled`: the date range's, until its picker has loaded). */
  standIn: boolean;
}

export function bootServerRendered(container: HTMLElement, pageData: TPageData, state: ServerRenderState): void {
  let started = false;
  let clicks: Click[] = [];

  /** The control a click before the app was live meant (links work without the app), and its place. */
  const remember = (event: Event) => {
    const clicked = clickedControl(container, event);
    if (clicked) clicks.push({ event, ...clicked, standIn: clicked.control.getAttribute("aria-disabled") === "true" });
  };
  /** Pointing at a chart asks for the live one (tooltips, legend). */
  const overChart = (event: Event) => {
    if (event.target instanceof Element && event.target.closest("[data-chart-input]")) start(event);
  };
  const wake = (event: Event) => start(event);
  const listen = (on: boolean) => {
    for (const type of WAKE_EVENTS) {
      if (on) document.addEventListener(type, wake, { capture: true, passive: true });
      else document.removeEventListener(type, wake, true);
    }
    if (on) document.addEventListener("pointerover", overChart, { capture: true, passive: true });
    else document.removeEventListener("pointerover", overChart, true);
  };

  function start(event?: Event) {
    if (started) return;
    started = true;
    // Charts drawn before the app stop here: the app draws its own from now on (chart-placeholders.ts).
    document.documentElement.dataset.app = "starting";
    markChartWoken(event);
    listen(false);
    import("./hydrate")
      .then(({ hydratePublicView }) => hydratePublicView(container, pageData, state))
      .then(
        (view) => {
          document.removeEventListener("click", remember, true);
          // Once hydrating, React answers the clicks on what it has adopted itself: the last click it did
          // not answer (the app was not there yet, or that part's code was still loading) is made again;
          // a click on a stand-in is, whoever answered it (its picker is what it meant).
          const replay = clicks.findLast((click) => click.standIn || !view.answered(click.event));
          clicks = [];
          if (replay) void replayClick(container, replay.control, replay.index);
        },
        (error: unknown) => {
          // The app's code did not load (a network hiccup): the next touch tries again.
          console.error(error);
          started = false;
          delete document.documentElement.dataset.app;
          listen(true);
        },
      );
  }

  document.addEventListener("click", remember, true);
  // A chart that cannot be drawn without the app (no worker, a worker that fails) starts it.
  void import("./chart-placeholders")
    .then(({ drawChartPlaceholders }) => drawChartPlaceholders(container))
    .then((allDrawn) => allDrawn || start(), start);
  // Something was left to the app (a card still loading, a part the server could not draw): it starts at once.
  if (!state.complete) start();
  else listen(true);
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
    // Desktop Safari and Firefox have no TouchEvent at all.
    typeof TouchEvent !== "undefined" && event instanceof TouchEvent && event.touches[0]
      ? event.touches[0]
      : event instanceof MouseEvent
        ? event
        : { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
  box.dataset.woken = `${Math.round(point.clientX - rect.left)},${Math.round(point.clientY - rect.top)}`;
}
