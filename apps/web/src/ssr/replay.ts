/**
 * A click on a server-rendered page before the app was live did nothing: it is made again once the app
 * has hydrated the page (ssr/boot.ts for a public view, ssr/member-boot.ts for a member's dashboard).
 */

/** What a click before the app was live is made again on. */
export const REPLAYED = "button, [role='button'], input, select, textarea";

/**
 * Clicks again the control a click before the app was live meant: the same element, adopted by React,
 * or, where React drew that part anew, the control in its place. A stand-in that is not usable yet (the
 * date range's, until its picker has loaded: `aria-disabled`) is waited for, 3 s at most.
 */
export function replayClick(container: HTMLElement, first: HTMLElement, index: number): Promise<void> {
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
