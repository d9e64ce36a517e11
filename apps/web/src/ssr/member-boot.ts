import { readInjectedPageData } from "../features/session/page-data";
import { startErrorReporting } from "../lib/error-reporting";
import { setIdentification } from "../lib/identification";
import { drawChartPlaceholders } from "./chart-placeholders";
import { clickedControl, replayClick } from "./replay";
import type { ServerRenderState } from "./server-entry";

/** The longest a member's page waits for its charts' first drawings before the app's code loads. */
const DRAWINGS_AT_MOST_MS = 3000;

/**
 * A member's own dashboard rendered by the server (docs/decisions.md, "A member's dashboard rendered by
 * the server"), first steps: its HTML shows every card with its figures; its charts are drawn into it
 * first (the drawings this browser kept, the rest asked of the server, as the app asks for them), since
 * the app's code, evaluated meanwhile, would hold the main thread the drawings' steps wait for. Then the
 * app hydrates the page (member-hydrate.tsx). The last click on a control until then is made again once the
 * app is live.
 */
export async function bootMember(container: HTMLElement, rendered: string): Promise<void> {
  const pageData = readInjectedPageData();
  if (!pageData) throw new Error("The page carries no page data.");
  setIdentification(pageData.identification);
  void startErrorReporting(pageData.config.errorReporting);
  const state = JSON.parse(rendered) as ServerRenderState;
  let clicked: { control: HTMLElement; index: number } | null = null;
  const remember = (event: Event) => {
    clicked = clickedControl(container, event) ?? clicked;
  };
  document.addEventListener("click", remember, true);
  const drawn = drawChartPlaceholders(container, { member: true }).catch(() => false);
  await Promise.race([drawn, new Promise((resolve) => setTimeout(resolve, DRAWINGS_AT_MOST_MS))]);
  const { hydrateMemberPage } = await import("./member-hydrate");
  let last: { control: HTMLElement; index: number } | null = null;
  await hydrateMemberPage(container, pageData, state.queries, {
    // From here React answers the clicks itself.
    onStart: () => {
      document.removeEventListener("click", remember, true);
      last = clicked;
    },
    onLive: () => {
      if (last) void replayClick(container, last.control, last.index);
    },
  });
}
