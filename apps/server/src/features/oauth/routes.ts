import { API, type TOAuthResult } from "@app/core";
import { type App, actorOf } from "../../infra/http";
import type { OAuthService } from "./service";

/** Escapes text for an HTML attribute or text node. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The popup's last page: the result in a data attribute, read by /oauth-done.js (a file, since the CSP
 * allows no inline script), which posts it to the window that opened the popup (same origin only) and
 * closes the popup. Without an opener (a blocked popup, a new tab) the page says what happened.
 */
export function callbackPage(result: TOAuthResult): string {
  const text = result.ok
    ? "Connected. You can close this window."
    : (result.message ?? "Something went wrong. Please try again.");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${result.ok ? "Connected" : "Not connected"}</title><style>body{font-family:system-ui,sans-serif;max-width:420px;margin:20vh auto;padding:0 16px;text-align:center;color:#1f2937}</style></head><body data-result="${escapeHtml(JSON.stringify(result))}"><h1 style="font-size:20px">${result.ok ? "Connected" : "Not connected"}</h1><p>${escapeHtml(text)}</p><script src="/oauth-done.js"></script></body></html>`;
}

export function oauthRoutes(app: App, oauth: OAuthService) {
  const tags = ["sources"];
  app.post(
    "/api/oauth/:connector/start",
    {
      schema: {
        tags,
        summary: "The provider's consent screen address for a new source, or to re-authorise source_id",
        params: API.oauthStart.params,
        body: API.oauthStart.body,
        response: { 200: API.oauthStart.output },
      },
    },
    async (request) => {
      const body = request.body;
      const url = await oauth.start(
        actorOf(request),
        request.params.connector,
        body?.source_id ?? null,
        body?.account ?? null,
      );
      return { data: { url } };
    },
  );

  app.get(
    "/api/oauth/:connector/callback",
    {
      schema: {
        tags,
        summary: "Where the provider sends the user back; answers a page that hands the result to the app",
        params: API.oauthCallback.params,
        querystring: API.oauthCallback.query,
      },
    },
    async (request, reply) => {
      const result = await oauth.callback(actorOf(request), request.params.connector, request.query);
      return (
        reply
          .type("text/html; charset=utf-8")
          .header("cache-control", "no-store")
          // Arriving from the provider's pages, any other policy would put this page in a new browsing
          // context group, without the opener it must hand the result to. The page holds only the result.
          .header("cross-origin-opener-policy", "unsafe-none")
          .send(callbackPage(result))
      );
    },
  );
}
