/**
 * A click on a server-rendered page before the app was live did nothing: it is made again once the app
 * has hydrated the page (ssr/boot.ts for a public view, ssr/member-boot.ts for a member's dashboard).
 */

/** What a click before the app was live is made again on. */
const REPLAYED = "button, [role='button'], input, select, textarea";

/**
 * The control of the server's page a click before the app was live meant, and its place among the page's
 * controls; null for a link (links work without the app) or what is outside the page (a modal's portal is
 * the app's own).
 */
export function clickedControl(container: HTMLElement, event: Event): { control: HTMLElement; index: number } | null {
  const target = event.target instanceof Element ? event.target : null;
  if (!target || target.closest("a[href]")) return null;
  const control = target.closest<HTMLElement>(REPLAYED);
  if (!control || !container.contains(control)) return null;
  return { control, index: [...container.querySelectorAll(REPLAYED)].indexOf(control) };
}

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
