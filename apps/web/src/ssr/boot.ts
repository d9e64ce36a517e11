import type { TPageData } from "@app/core";
import type { ServerRenderState } from "./server-entry";

/**
 * A public dashboard rendered by the server (issue 6 §5; docs/decisions.md "Public view: rendered by the
 * server, the app on the first touch"): its HTML already shows every card, so the page runs no app
 * until the reader acts on it. Here: the charts are drawn from their inputs off the main thread, and the
 * reader's first pointer, touch, key or focus loads the app, which hydrates the page; a click on a
 * control before it was live is made again once it is.
 */

/** The state the server rendered the page in, when it did (`<script id="ssr-state">`). */
export function serverRenderState(): ServerRenderState | null {
  const element = document.getElementById("ssr-state");
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as ServerRenderState;
  } catch {
    return null;
  }
}

/** The cookie the server reads the viewer's zone from (its next render is then in the viewer's zone). */
export function rememberZone(timezone: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed, encoded value; the Cookie Store API is missing in Firefox and Safari.
  document.cookie = `tz=${encodeURIComponent(timezone)}; path=/; max-age=31536000; samesite=lax`;
}

const WAKE_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin"] as const;

export function bootServerRendered(container: HTMLElement, pageData: TPageData, state: ServerRenderState): void {
  let started = false;
  let replay: HTMLElement | null = null;

  /** The control a click before the app was live meant (links work without the app). */
  const remember = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || target.closest("a[href]")) return;
    replay = target.closest<HTMLElement>("button, [role='button'], input, select, textarea") ?? replay;
  };
  /** Pointing at a chart asks for the live one (tooltips, legend). */
  const overChart = (event: Event) => {
    if (event.target instanceof Element && event.target.closest("[data-chart-input]")) start();
  };

  function start() {
    if (started) return;
    started = true;
    for (const type of WAKE_EVENTS) document.removeEventListener(type, start, true);
    document.removeEventListener("pointerover", overChart, true);
    void import("./hydrate")
      .then(({ hydratePublicView }) => hydratePublicView(container, pageData, state))
      .then(() => {
        document.removeEventListener("click", remember, true);
        const control: HTMLElement | null = replay;
        if (control?.isConnected) control.click();
      });
  }

  document.addEventListener("click", remember, true);
  void import("./chart-placeholders").then(({ drawChartPlaceholders }) => drawChartPlaceholders(container));
  // Something was left to the app (a card still loading, a part the server could not draw), or charts
  // cannot be drawn without it: it starts at once.
  const needsApp = !state.complete || (typeof Worker === "undefined" && container.querySelector("[data-chart-input]"));
  if (needsApp) {
    start();
    return;
  }
  for (const type of WAKE_EVENTS) document.addEventListener(type, start, { capture: true, passive: true });
  document.addEventListener("pointerover", overChart, { capture: true, passive: true });
}
