import fs from "node:fs";
import path from "node:path";
import { buildDocumentTitle, documentSiteTitle, matchRoute, routeByName, type TPageData, ZPageData } from "@app/core";
import fastifyStatic from "@fastify/static";
import type { App } from "../../infra/http";

import type { PageDataService } from "./service";

/** A dashboard page's title parts for a viewer (see the dashboards service's `pageTitle`). */
export type DashboardPageTitle = (
  viewerCompanyId: string | null,
  permalink: string,
) => Promise<{ name: string | null; siteTitle: string | null }>;

const DASHBOARD_ROUTES = new Set(["dashboard.show", "dashboard.print", "dashboard.realTime"]);
const TITLE = /<title>[^<]*<\/title>/;

const PLACEHOLDER = "<!--page-data-->";
const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reportz</title>${PLACEHOLDER}</head><body><div id="root">The web app is not built yet: run npm run build.</div></body></html>`;

/**
 * The tab title the HTML arrives with, the same the app will set (spec §2), so nobody sees the
 * product's name flash by: a client opening an agency's dashboard sees its name and the agency's site
 * title at once. Only dashboard pages look anything up.
 */
async function documentTitle(
  pathname: string,
  data: TPageData,
  dashboardTitle: DashboardPageTitle | undefined,
): Promise<string> {
  const match = matchRoute(pathname);
  if (!match) return buildDocumentTitle(routeByName("notFound").title, data.siteTitle);
  if (DASHBOARD_ROUTES.has(match.route.name) && match.params.permalink && dashboardTitle) {
    const { name, siteTitle } = await dashboardTitle(data.company?.id ?? null, match.params.permalink);
    return buildDocumentTitle(name, documentSiteTitle(data.siteTitle, siteTitle));
  }
  return buildDocumentTitle(match.route.title, data.siteTitle);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Page data as JSON, and the SPA's HTML with the same data inlined for every non-API path. */
export async function pageDataRoutes(
  app: App,
  pageData: PageDataService,
  webDist: string,
  dashboardTitle?: DashboardPageTitle,
) {
  app.get(
    "/api/page-data",
    { config: { public: true, pageData: true }, schema: { tags: ["session"], response: { 200: ZPageData } } },
    async (request) => pageData.build(request.auth, request.guestId),
  );

  const indexFile = path.join(webDist, "index.html");
  const hasDist = fs.existsSync(indexFile);
  const template = hasDist ? fs.readFileSync(indexFile, "utf8") : FALLBACK_HTML;
  if (hasDist) {
    // Hashed assets are immutable; index.html is never served from here (it carries page data).
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, maxAge: "1y", immutable: true });
  }

  // History-mode fallback: every GET that is not an API call or a file gets the app; its router shows 404s.
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0];
    if (request.method !== "GET" || url.startsWith("/api/") || url === "/api") {
      return reply.code(404).send({ code: "not_found", message: "Not found." });
    }
    const data = await pageData.build(request.auth, request.guestId);
    // Escape "<" so user-controlled strings can never close the script element.
    const json = JSON.stringify(data).replace(/</g, "\\u003c");
    const title = escapeHtml(await documentTitle(url, data, dashboardTitle));
    // Replacer functions: a "$&" or "$'" in user text must not be read as a replacement pattern.
    const html = template
      .replace(TITLE, () => `<title>${title}</title>`)
      .replace(PLACEHOLDER, () => `<script id="page-data" type="application/json">${json}</script>`);
    return reply.code(200).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
  });
}
