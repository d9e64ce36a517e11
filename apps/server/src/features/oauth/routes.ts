import { API, OAUTH_MESSAGE_TYPE, type TOAuthResult } from "@app/core";
import { AppError } from "../../infra/errors";
import { type App, actorOf, isPageNavigation } from "../../infra/http";
import { escapeHtml } from "../../infra/mail-html";
import type { OAuthService } from "./service";

/** Escapes text for an HTML attribute or text node. */

/**
 * A page of the OAuth popup: a title and a paragraph (HTML, escaped by the caller). With a result, the
 * result goes in a data attribute, read by /oauth-done.js (a file, since the CSP allows no inline
 * script), which posts it to the window that opened the popup (same origin only) and closes the popup.
 * Without an opener (a blocked popup, a new tab) the page says what happened.
 */
function popupPage(title: string, paragraph: string, result: TOAuthResult | null): string {
  const data = result ? ` data-result="${escapeHtml(JSON.stringify(result))}"` : "";
  const script = result ? `<script src="/oauth-done.js"></script>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:420px;margin:20vh auto;padding:0 16px;text-align:center;color:#1f2937}</style></head><body${data}><h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${paragraph}</p>${script}</body></html>`;
}

/** The popup's last page: the result handed to the app, in words for a popup without opener. */
export function callbackPage(result: TOAuthResult, title = result.ok ? "Connected" : "Not connected"): string {
  const text = result.ok
    ? "Connected. You can close this window."
    : (result.message ?? "Something went wrong. Please try again.");
  return popupPage(title, escapeHtml(text), result);
}

/**
 * The callback reached without a session. In a popup this is nearly always the product opened at
 * another address than APP_URL (127.0.0.1 for localhost): the provider returns to APP_URL, where the
 * session cookie of the other host is not sent. The page says where to open the product; no result
 * is posted, the opener being of another origin, and the popup stays open to be read.
 */
export function signedOutPage(siteTitle: string, appUrl: string, requestHost: string | undefined): string {
  const site = escapeHtml(siteTitle);
  const link = `<a href="${escapeHtml(appUrl)}">${escapeHtml(appUrl)}</a>`;
  const ownHost = new URL(appUrl).host;
  const reason =
    requestHost && requestHost !== ownHost
      ? `This window is at ${escapeHtml(requestHost)}, but ${site} is set up at ${escapeHtml(appUrl)}, so your sign-in does not reach it.`
      : `You are not signed in at ${escapeHtml(appUrl)}. If you opened ${site} at another address (such as 127.0.0.1 instead of localhost, or the reverse), your sign-in stayed there.`;
  return popupPage("Not connected", `${reason} Open ${site} at ${link}, sign in, and click Connect again.`, null);
}

export function oauthRoutes(app: App, oauth: OAuthService, site: { title: string; appUrl: string }) {
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
      // Public so that a browser without a session gets a page in words (below), not the JSON 401.
      config: { public: true },
      schema: {
        tags,
        summary: "Where the provider sends the user back; answers a page that hands the result to the app",
        params: API.oauthCallback.params,
        querystring: API.oauthCallback.query,
      },
    },
    async (request, reply) => {
      const { connector } = request.params;
      const page = isPageNavigation(request);
      const html = (status: number, body: string) =>
        reply
          .code(status)
          .type("text/html; charset=utf-8")
          .header("cache-control", "no-store")
          // Arriving from the provider's pages, any other policy would put this page in a new browsing
          // context group, without the opener it must hand the result to. The page holds only the result.
          .header("cross-origin-opener-policy", "unsafe-none")
          .send(body);
      if (!oauth.isOAuthConnector(connector)) {
        const message = `There is no connector called “${connector}” that connects with OAuth, so nothing was connected.`;
        if (!page) throw AppError.notFound(message);
        const result: TOAuthResult = { type: OAUTH_MESSAGE_TYPE, ok: false, connector, sourceId: null, message };
        return html(404, callbackPage(result, "Not found"));
      }
      if (!request.auth) {
        if (!page) throw new AppError("unauthenticated", "Unauthenticated.");
        return html(401, signedOutPage(site.title, site.appUrl, request.headers.host));
      }
      const result = await oauth.callback(actorOf(request), connector, request.query);
      return html(200, callbackPage(result));
    },
  );
}
