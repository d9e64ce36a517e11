import type { TPageData } from "@app/core";
import { drawChartPlaceholders } from "./chart-placeholders";
import { REPLAYED } from "./replay";
import type { ServerRenderState } from "./server-entry";

/** The longest a member's page waits for its charts' first drawings before the app's code loads. */
const DRAWINGS_AT_MOST_MS = 3000;

/** A click on a control of the server's page before the app was live, and the control's place among them. */
export interface EarlyClick {
  control: HTMLElement;
  index: number;
}

/**
 * A member's own dashboard rendered by the server (docs/decisions.md, "A member's dashboard rendered by
 * the server"), first steps: its HTML shows every card with its figures; its charts are drawn into it
 * first (the drawings this browser kept, the rest asked of the server, as the app asks for them), since
 * the app's code, evaluated meanwhile, would hold the main thread the drawings' steps wait for. Then the
 * app hydrates the page (member-view.tsx). The last click on a control until then is made again once the
 * app is live.
 */
export function bootMember(container: HTMLElement, pageData: TPageData, state: ServerRenderState): Promise<void> {
  let clicked: EarlyClick | null = null;
  const remember = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || target.closest("a[href]")) return;
    const control = target.closest<HTMLElement>(REPLAYED);
    if (!control || !container.contains(control)) return;
    clicked = { control, index: [...container.querySelectorAll(REPLAYED)].indexOf(control) };
  };
  document.addEventListener("click", remember, true);
  const drawn = drawChartPlaceholders(container, { member: true }).catch(() => false);
  const atMost = new Promise((resolve) => setTimeout(resolve, DRAWINGS_AT_MOST_MS));
  return Promise.race([drawn, atMost])
    .then(() => import("./member-view"))
    .then(({ hydrateMemberView }) =>
      hydrateMemberView(container, pageData, state, () => {
        // From here React answers the clicks itself.
        document.removeEventListener("click", remember, true);
        return clicked;
      }),
    );
}
