import fs from "node:fs";
import path from "node:path";
import {
  API,
  buildDocumentTitle,
  dashboardColours,
  documentSiteTitle,
  matchRoute,
  type PageChart,
  preferredLanguage,
  type RenderedPublicView,
  routeByName,
  type TPageData,
} from "@app/core";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import { streamedAnswer } from "../../infra/compression";
import type { App } from "../../infra/http";
import { escapeHtml } from "../../infra/mail-html";
import { ALLOW_FRAMING } from "../../infra/security-headers";
import type { PublicHeader } from "../dashboards/service";
import { ChartDrawer, chartSnapshotRoutes } from "./chart-snapshots";
import { chartDrawingThread } from "./chart-worker";
import { allowingDrawingScript, writeDrawingsInPage } from "./drawings-in-page";
import {
  type DashboardViewRenderer,
  dashboardViewRenderer,
  serverBundle,
  serverBundleFile,
  VIEWPORT_HINT,
  viewerZone,
  viewportHintOf,
} from "./server-render";
import type { PageDataService } from "./service";

/** A dashboard page's title parts for a viewer (see the dashboards service's `pageTitle`). */
export type DashboardPageTitle = (
  viewerCompanyId: string | null,
  permalink: string,
  print: boolean,
) => Promise<{
  name: string | null;
  siteTitle: string | null;
  publicHeader?: PublicHeader | null;
  /** The dashboard's language for a public viewer (its page's `<html lang>`), else null. */
  language?: string | null;
}>;

const DASHBOARD_ROUTES = new Set(["dashboard.show", "dashboard.print", "dashboard.realTime", "dashboard.embedded"]);
const TITLE = /<title>[^<]*<\/title>/;
const PLACEHOLDER = "<!--page-data-->";
const HEAD_END = "</head>";
const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reportz</title>${PLACEHOLDER}</head><body><div id="root">The web app is not built yet: run npm run build.</div></body></html>`;

/**
 * The tab title the HTML arrives with, the same the app will set (docs/product.md §2), so nobody sees the
 * product's name flash by: a client opening an agency's dashboard sees its name and the agency's site
 * title at once. Only dashboard pages look anything up.
 */
async function documentTitle(
  pathname: string,
  data: TPageData,
  dashboardTitle: DashboardPageTitle | undefined,
  acceptLanguage: string | undefined,
): Promise<{ title: string; header: PublicHeader | null; language: string | null }> {
  const match = matchRoute(pathname);
  if (!match) {
    return { title: buildDocumentTitle(routeByName("notFound").title, data.siteTitle), header: null, language: null };
  }
  if (DASHBOARD_ROUTES.has(match.route.name) && match.params.permalink && dashboardTitle) {
    const { name, siteTitle, publicHeader, language } = await dashboardTitle(
      data.company?.id ?? null,
      match.params.permalink,
      match.route.name === "dashboard.print",
    );
    const header = match.route.name === "dashboard.show" ? (publicHeader ?? null) : null;
    // No dashboard at this link (nothing named, no language): its "not found" page is said in the
    // reader's browser's language when supported, else English (docs/decisions.md).
    const unknown = name === null && !language;
    return {
      title: buildDocumentTitle(name, documentSiteTitle(data.siteTitle, siteTitle)),
      header,
      language: language ?? (unknown ? preferredLanguage(acceptLanguage) : null),
    };
  }
  return { title: buildDocumentTitle(match.route.title, data.siteTitle), header: null, language: null };
}

/** The `lang` of the page's `<html>` (a server-rendered page has another attribute before it). */
const HTML_LANG = /(<html\b[^>]*?\s)lang="[^"]*"/;

/**
 * The page's language (docs/product.md §9, "Report language"): a client's dashboard page says the
 * dashboard's, so the browser hyphenates, reads aloud and offers translation rightly, and the app starts
 * loading that catalogue before the dashboard's answer is in (lib/i18n.tsx). Tags come from core's list.
 */
function withLanguage(html: string, language: string | null): string {
  return language ? html.replace(HTML_LANG, (_, start: string) => `${start}lang="${escapeHtml(language)}"`) : html;
}

const ROOT = '<div id="root">';
/** The app's root with what index.html paints in it before any script (a loader). */
const ROOT_ELEMENT = /<div id="root">[\s\S]*?<\/div>/;
/** The start's module preloads (vite.config.ts preloadStartChunks): a server-rendered page starts no app. */
const START_PRELOADS = /[ \t]*<link rel="modulepreload"[^>]*data-start[^>]*>\n?/g;
const EMBED_ROUTE = "/dashboards/:permalink/embed";
/** The app's module scripts and preloads in a page's head. */
const MODULE_TAGS = /<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>/g;

/** A page's head without its module scripts and preloads, and those apart (in the head's order). */
function splitModules(head: string): { head: string; modules: string } {
  return { head: head.replace(MODULE_TAGS, ""), modules: (head.match(MODULE_TAGS) ?? []).join("") };
}

/**
 * JSON in a non-executed script element; "<" escaped so user text can never close the element. `view`
 * names a server-rendered page's view for the entry (web main.tsx), which reads it before the JSON.
 */
function jsonScript(id: string, value: unknown, view?: "member"): string {
  const named = view ? ` data-view="${view}"` : "";
  return `<script id="${id}" type="application/json"${named}>${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`;
}

/**
 * The page of a server-rendered public view, made once at start-up from the app's page: Mantine's light
 * scheme on <html> (its stylesheet keys colours on it, set by a script otherwise), the modules that draw
 * its charts (ssr/boot.ts), and the app's start preloads made inert: the page runs no app until the
 * reader acts on it, and those downloads would compete with the charts' on a phone. They are kept in a
 * `<template>` (never fetched): a browser in another zone than the page's starts the app at once
 * (web main.tsx), and puts them in the head then, so its start downloads in parallel as the app's page.
 */
function serverRenderedTemplate(template: string, modules: string): string {
  const startPreloads = (template.match(START_PRELOADS) ?? []).map((link) => link.trim()).join("");
  return template
    .replace("<html ", () => '<html data-mantine-color-scheme="light" ')
    .replace(START_PRELOADS, "")
    .replace(PLACEHOLDER, () => `${PLACEHOLDER}<template id="start-preloads">${startPreloads}</template>`)
    .replace(HEAD_END, () => `${modules}${HEAD_END}`);
}

/** A viewer's server-rendered page: its title, the head's data and state, and the view's HTML in the root. */
function serverRenderedPage(template: string, title: string, head: string, rendered: RenderedPublicView): string {
  return template
    .replace(TITLE, () => `<title>${title}</title>`)
    .replace(PLACEHOLDER, () => head)
    .replace(ROOT_ELEMENT, () => `${ROOT}${rendered.html}</div>`);
}

/**
 * A public dashboard's header (canvas, logo, name) as plain HTML before the app's root, so a phone
 * paints the page's largest text (its LCP element) before any script has run. It repeats the markup
 * and classes of the bare layout and `DashboardHeader` (the dashboard screen's stylesheet is linked in
 * the head), with room kept for the buttons on its right, so the name sits where React draws it;
 * the app removes it in the commit that draws the dashboard (`boot-view.ts`). Out of the flow, over the
 * root: the root's loaders stay where they are when it goes (no layout shift). Never for a protected
 * dashboard (its name waits for the password), nor when the range is written under the name (that text
 * is computed by the app from the viewer's date and the address).
 */
export function bootHeaderHtml(header: PublicHeader): string {
  if (header.hiddenDateSelector) return "";
  const { dark, variables } = dashboardColours(header.styles);
  const style = Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(";");
  const logo = header.styles.logoImage
    ? `<img class="dash-logo" src="${escapeHtml(header.styles.logoImage)}" alt="">`
    : "";
  return (
    `<div id="boot-view" aria-hidden="true" style="position:absolute;top:0;left:0;right:0;padding:var(--mantine-spacing-md);background:#fff;min-height:100vh">` +
    `<div class="dash-root" data-theme="${dark ? "dark" : "light"}" style="${escapeHtml(style)}"><main class="dash-main">` +
    `<header class="dash-header"><div class="dash-header-brand">${logo}<div style="min-width:0">` +
    `<h1 class="dash-title">${escapeHtml(header.name)}</h1></div></div>` +
    `<div class="dash-header-actions" style="min-height:36px"></div></header></main></div></div>`
  );
}

/** The preloads' key of a server-rendered public view (its page needs other modules than the app's). */
const SERVER_RENDERED = "server-rendered";
/** The preloads' key of a member's server-rendered dashboard (the app's modules, and these). */
const MEMBER_RENDERED = "member-rendered";

/**
 * The web modules (Vite manifest keys) a screen needs besides the entry. Its HTML names them, so the
 * browser fetches them alongside the entry rather than after it has run: one round trip less before
 * the public dashboard draws on a slow phone network.
 */
const SCREEN_MODULES: Record<string, string[]> = {
  "dashboard.show": ["src/routes/dashboard-show.tsx", "src/app/layouts/BareLayout.tsx"],
  // A server-rendered public view: no app, only what draws its charts (web ssr/boot.ts).
  [SERVER_RENDERED]: ["src/ssr/boot.ts", "src/ssr/chart-placeholders.ts"],
  // A member's server-rendered dashboard: what draws its charts and hydrates it (web ssr/member-boot.ts).
  [MEMBER_RENDERED]: [
    "src/ssr/member-boot.ts",
    "src/ssr/member-hydrate.tsx",
    "src/features/widgets/charts/server-snapshots.ts",
    "src/features/widgets/charts/EChart.tsx",
  ],
};

/**
 * Modules whose stylesheets a screen needs, not their code. The server draws the insights' part of a
 * public view though the app loads it lazily: its styles are needed at once, its code only by the app.
 * (Its code's chunk imports the dashboard screen's, which imports React's: preloading it put ~150 KB
 * of the app back into a page that runs none, measured by Lighthouse on 2026-11-27.)
 */
const SCREEN_STYLES_ONLY: Record<string, string[]> = {
  [SERVER_RENDERED]: ["src/features/insights/lazy.ts"],
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * Per route name, the <link> tags of its screen's files that the entry does not already load: its
 * stylesheets (render-blocking, placed with the page data near the top of <head>) and its modules
 * (preloaded after the entry's own scripts, which the page needs first).
 */
export function screenPreloads(webDist: string): Map<string, { styles: string; modules: string }> {
  const result = new Map<string, { styles: string; modules: string }>();
  const manifestFile = path.join(webDist, ".vite", "manifest.json");
  if (!fs.existsSync(manifestFile)) return result;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>;
  const closure = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const entry = closure(["index.html"]);
  const entryCss = new Set([...entry].flatMap((key) => manifest[key].css ?? []));
  for (const [name, keys] of Object.entries(SCREEN_MODULES)) {
    const chunks = [...closure(keys)].filter((key) => !entry.has(key));
    const styled = [...chunks, ...closure(SCREEN_STYLES_ONLY[name] ?? [])];
    const css = [...new Set(styled.flatMap((key) => manifest[key].css ?? []))].filter((file) => !entryCss.has(file));
    const styles = css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join("");
    const modules = chunks
      .map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key].file}">`)
      .join("");
    if (styles || modules) result.set(name, { styles, modules });
  }
  return result;
}

/**
 * A member's own dashboard (docs/decisions.md, "A member's dashboard rendered by the server"), rendered
 * in the member's zone. Its page is streamed: the head (its styles) leaves at once, so the browser fetches
 * them while the server renders; the root follows, rendered or, when it cannot be, with the app's loader
 * (the app then loads the page as on any other); then the charts' drawings; then the app's modules.
 */
function streamMemberPage(
  render: DashboardViewRenderer | null,
  drawer: ChartDrawer,
  request: FastifyRequest,
  reply: FastifyReply,
  member: { data: TPageData; zone: string; html: string },
): FastifyReply {
  const { data, zone, html: appPage } = member;
  // Mantine's stylesheet keys its colours on the scheme its script sets on <html>, which runs only once
  // the app has hydrated: the server's page says it itself, or its buttons lose their colours until then.
  const page = appPage.replace("<html ", () => '<html data-mantine-color-scheme="light" ');
  const root = ROOT_ELEMENT.exec(page);
  if (!root || !render) return reply.send(appPage);
  const { stream, flush } = streamedAnswer(request, reply);
  // The one inline script the page may run: the one that puts each drawing it carries in place.
  const policy = reply.getHeader("content-security-policy");
  if (typeof policy === "string") reply.header("content-security-policy", allowingDrawingScript(policy));
  // A reader gone before the end: nothing more to send.
  stream.on("error", () => undefined);
  reply.send(stream);
  const write = (html: string) => {
    if (stream.destroyed) return false;
    stream.write(html);
    flush();
    return true;
  };
  // The head at once. Where the page will carry its charts' drawings (the browser said its width), the head
  // keeps its styles and its modules come after the drawings (docs/decisions.md, "A member's charts drawn
  // in the page"): the cards are drawn without them, and on two cores their fetching and compiling slowed
  // the render and the drawings the cards wait for. Elsewhere the page's own code draws the charts, and
  // its modules load while the server renders.
  const drawn = viewportHintOf(request).width !== null;
  const { head, modules } = drawn
    ? splitModules(page.slice(0, root.index))
    : { head: page.slice(0, root.index), modules: "" };
  write(head);
  // The drawings the page will ask for, made while the browser loads it (docs/decisions.md, "A member's
  // charts drawn ahead"), each started as soon as a pass of the render has noted it.
  const drawAhead = (charts: PageChart[]) => void drawer.drawAhead(charts);
  void render(request, data, zone, "member", drawAhead).then(async (rendered) => {
    const end = modules + page.slice(root.index + root[0].length);
    if (!rendered) return void stream.end(root[0] + end);
    write(`${ROOT}${rendered.html}</div>${jsonScript("ssr-state", rendered.state, "member")}`);
    // Those done soon enough go in the page itself, after its body, so that its cards are drawn before
    // any of the app's files are asked for; the page asks for the rest itself (ssr/member-boot.ts).
    if (rendered.charts) await writeDrawingsInPage(rendered.charts, drawer.drawAhead(rendered.charts), write);
    if (!stream.destroyed) stream.end(end);
  });
  return reply;
}

/** Page data as JSON, and the SPA's HTML with the same data inlined for every non-API path. */
export async function pageDataRoutes(
  app: App,
  pageData: PageDataService,
  webDist: string,
  dashboardTitle?: DashboardPageTitle,
  serverRender: { enabled: boolean; budgetMs: number } = { enabled: false, budgetMs: 0 },
) {
  app.get(
    "/api/page-data",
    { config: { public: true, pageData: true }, schema: { tags: ["session"], response: { 200: API.pageData.output } } },
    async (request) => buildFor(request),
  );

  /** Page data; on a company's custom domain the site title is the company's (never the product's). */
  async function buildFor(request: FastifyRequest) {
    const data = await pageData.build(request.auth, request.guestId);
    return request.whiteLabel ? { ...data, siteTitle: request.whiteLabel.siteTitle } : data;
  }

  const indexFile = path.join(webDist, "index.html");
  const hasDist = fs.existsSync(indexFile);
  const template = hasDist ? fs.readFileSync(indexFile, "utf8") : FALLBACK_HTML;
  const preloads = screenPreloads(webDist);
  const servedTemplate = serverRenderedTemplate(template, preloads.get(SERVER_RENDERED)?.modules ?? "");
  if (hasDist) {
    // Hashed assets are immutable; index.html is never served from here (it carries page data).
    // The build writes .br and .gz beside each text file (apps/web/vite.config.ts): they are sent as they
    // are to clients that accept them, with `vary: accept-encoding`, so no request pays for compression.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      maxAge: "1y",
      immutable: true,
      preCompressed: true,
    });
  }

  // History-mode fallback: every GET that is not an API call or a file gets the app; its router shows 404s.
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0];
    if (request.method !== "GET" || url.startsWith("/api/") || url === "/api") {
      return reply.code(404).send({ code: "not_found", message: "Not found." });
    }
    return sendApp(request, reply);
  });

  // The embedded view is the one page other sites may frame (CSP frame-ancestors), so it is a route of
  // its own carrying that opt-in; every other page keeps the fallback's frame-ancestors 'none'. The page
  // is the same app: its token is checked by the API calls it makes (403 shows the expired state).
  app.get(
    "/dashboards/:permalink/embed",
    { config: { public: true, ...ALLOW_FRAMING }, schema: { hide: true } },
    async (request, reply) => sendApp(request, reply),
  );

  // The web build's server bundle: public views rendered by it, and a member's first chart drawings.
  const bundle = hasDist ? serverBundle(app, webDist, serverRender.enabled) : null;
  const renderView = bundle ? dashboardViewRenderer(app, bundle, serverRender) : null;
  // A member's chart drawings on a thread of their own: made on the event loop, they slowed the renders
  // after them about twofold (docs/decisions.md, "Chart drawings off the event loop").
  const drawing = bundle ? chartDrawingThread(app, serverBundleFile(webDist), bundle, serverRender.enabled) : null;
  const drawer = new ChartDrawer(drawing);
  chartSnapshotRoutes(app, drawer);

  async function sendApp(request: FastifyRequest, reply: FastifyReply) {
    const url = request.url.split("?")[0];
    const data = await buildFor(request);
    const document = await documentTitle(url, data, dashboardTitle, request.headers["accept-language"]);
    const title = escapeHtml(document.title);
    const route = matchRoute(url)?.route.name;
    const screen = route ? preloads.get(route) : undefined;
    const embedded = request.routeOptions.url === EMBED_ROUTE;
    // A public viewer's dashboard (no session) comes rendered by the server; so does a member's own.
    const publicView = renderView && document.header && !data.user && !embedded;
    const memberZone =
      renderView && route === "dashboard.show" && data.user && !embedded ? (data.session?.timezone ?? null) : null;
    const rendered = publicView ? await renderView(request, data, viewerZone(request.cookies.tz)) : null;
    const head = `${screen?.styles ?? ""}${jsonScript("page-data", data)}${rendered ? jsonScript("ssr-state", rendered.state) : ""}`;
    const modules = `${screen?.modules ?? ""}${memberZone ? (preloads.get(MEMBER_RENDERED)?.modules ?? "") : ""}`;
    // Replacer functions: a "$&" or "$'" in user text must not be read as a replacement pattern.
    const page = rendered
      ? serverRenderedPage(servedTemplate, title, `${preloads.get(SERVER_RENDERED)?.styles ?? ""}${head}`, rendered)
      : template
          .replace(TITLE, () => `<title>${title}</title>`)
          .replace(PLACEHOLDER, () => head)
          .replace(HEAD_END, () => `${modules}${HEAD_END}`)
          .replace(ROOT, () => (document.header ? bootHeaderHtml(document.header) : "") + ROOT);
    const html = withLanguage(page, document.language);
    reply.code(200).header("cache-control", "no-store").type("text/html; charset=utf-8");
    // From a member's first page on, a Chromium says its viewport's width with every request (a public
    // viewer is not asked: nothing of theirs is drawn ahead).
    if (data.user) reply.header("accept-ch", VIEWPORT_HINT);
    if (memberZone) {
      reply.header("vary", VIEWPORT_HINT);
      // A Chromium that has not said it yet (a first visit) is asked to send the request again with it, at
      // once, so that its charts are drawn ahead; the first answer is the app's page, not rendered, as the
      // browser drops it (one that does not ask again gets the app, which loads the dashboard itself).
      if (!viewportHintOf(request).said && typeof request.headers["sec-ch-ua"] === "string")
        return reply.header("critical-ch", VIEWPORT_HINT).send(html);
      return streamMemberPage(renderView, drawer, request, reply, { data, zone: memberZone, html });
    }
    return reply.send(html);
  }
}
