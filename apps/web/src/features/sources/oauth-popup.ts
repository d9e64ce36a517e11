import { OAUTH_MESSAGE_TYPE, type TOAuthResult } from "@app/core";
import { errorMessage, fieldErrors } from "../../lib/api";
import { startOAuth } from "./api";

/** What the page tells the user when the popup could not finish (beside the server's own words). */
export const POPUP_MESSAGES = {
  blocked: "Your browser blocked the sign-in window. Allow pop-ups for this site, then click Connect again.",
  closed: "The sign-in window was closed before the connection finished. Nothing was connected.",
} as const;

type Result = Pick<TOAuthResult, "ok" | "sourceId" | "message"> & {
  /** The start's 422 per field (a typed account that is missing), to show under the field. */
  fields?: Record<string, string>;
};

/**
 * Connects an OAuth source in a popup (docs/connectors.md, "OAuth"): the window is opened at the click
 * (later, browsers block it), then sent to the provider's consent screen. The popup's last page posts
 * the result back on this origin and closes itself; a popup closed by hand ends the wait too.
 */
export function connectInPopup(
  connector: string,
  sourceId: string | null = null,
  account: string | null = null,
): Promise<Result> {
  const popup = window.open("", `reportz-oauth-${connector}`, "popup,width=520,height=700");
  if (!popup) return Promise.resolve({ ok: false, sourceId: null, message: POPUP_MESSAGES.blocked });
  popup.document.title = "Connecting…";
  return new Promise<Result>((resolve) => {
    let settled = false;
    const finish = (result: Result) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onMessage);
      window.clearInterval(watch);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Partial<TOAuthResult> | null;
      if (event.origin !== window.location.origin || data?.type !== OAUTH_MESSAGE_TYPE || data.connector !== connector)
        return;
      finish({ ok: data.ok === true, sourceId: data.sourceId ?? null, message: data.message ?? null });
    };
    window.addEventListener("message", onMessage);
    // A closed popup without a message: the user gave up (or the provider's page was closed).
    const watch = window.setInterval(() => {
      if (popup.closed)
        window.setTimeout(() => finish({ ok: false, sourceId: null, message: POPUP_MESSAGES.closed }), 300);
    }, 500);
    startOAuth(connector, sourceId, account).then(
      (url) => {
        popup.location.href = url;
      },
      (error) => {
        popup.close();
        const fields = fieldErrors(error) ?? undefined;
        finish({ ok: false, sourceId: null, message: errorMessage(error), ...(fields ? { fields } : {}) });
      },
    );
  });
}
