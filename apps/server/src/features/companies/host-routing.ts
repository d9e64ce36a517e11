import { matchRoute } from "@app/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "./service";

/** The SPA pages a client of the company opens on its domain: the shared dashboard views. */
const DASHBOARD_PAGES = new Set(["dashboard.show", "dashboard.realTime", "dashboard.embedded"]);

/** What those pages ask of the API (by route pattern), each about one dashboard's permalink. */
const DASHBOARD_API = new Set([
  "/api/dashboards/:permalink",
  "/api/dashboards/:permalink/widgets/:widgetId/data",
  "/api/dashboards/:permalink/insights",
  "/api/dashboards/:permalink/pdf",
  "/api/dashboards/:permalink/realtime/pdf",
]);

/** The built web app's files (scripts, styles, fonts, icons), served from exact static routes. */
const BUILT_FILE = /\.(js|mjs|css|map|svg|png|jpe?g|webp|gif|ico|woff2?|ttf|txt|webmanifest)$/;

/**
 * Custom domains (docs/product.md §3 domainCname): a request whose Host is a company's verified domain
 * sees only that company's shared dashboards, their API calls, its images and the app's built files.
 * Everything else there (sign-in, registration, the signed-in API, another company's dashboards) is a
 * 404, so the domain cannot be used to reach the product or another agency's clients. Unknown hosts
 * (the app's own among them) pass untouched. Runs first among the onRequest hooks.
 */
export function hostRouting(companies: CompaniesService, ownerOf: (permalink: string) => Promise<string | null>) {
  async function routeByHost(request: FastifyRequest, host: string): Promise<void> {
    const company = await companies.forHost(host);
    if (!company) return;
    request.whiteLabel = company;
    if (!(await servedOn(company.companyId, request, ownerOf))) throw new AppError("not_found", "Not found.");
  }
  // Callback style: the app's own host (nearly every request) passes without a promise or a microtask.
  return function hostHook(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    const host = request.hostname.toLowerCase().replace(/\.$/, "");
    if (!companies.mayBeCustomHost(host)) done();
    else routeByHost(request, host).then(() => done(), done);
  };
}

async function servedOn(
  companyId: string,
  request: FastifyRequest,
  ownerOf: (permalink: string) => Promise<string | null>,
): Promise<boolean> {
  const path = request.url.split("?")[0];
  const read = request.method === "GET" || request.method === "HEAD";
  const ownDashboard = async (permalink: string | undefined) =>
    permalink !== undefined && (await ownerOf(permalink)) === companyId;
  if (path === "/api/page-data") return read;
  if (path.startsWith("/files/")) return read && path.startsWith(`/files/${companyId}/`);
  const pattern = request.routeOptions.url;
  if (pattern && DASHBOARD_API.has(pattern)) {
    return ownDashboard((request.params as { permalink?: string }).permalink);
  }
  if (!read) return false;
  // The SPA's HTML: the not-found fallback, and the embedded view's own route.
  if (request.is404 || pattern === "/dashboards/:permalink/embed") {
    const match = matchRoute(path);
    return match !== null && DASHBOARD_PAGES.has(match.route.name) && ownDashboard(match.params.permalink);
  }
  // Static files are routes of their exact path; any other route with a file-like name is not one of them.
  return pattern === path && !path.startsWith("/api/") && BUILT_FILE.test(path);
}
