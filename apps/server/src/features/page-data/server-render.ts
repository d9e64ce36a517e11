import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import {
  HEADERS,
  type RenderedPublicView,
  type ServerRenderAnswerer,
  type ServerRenderBundle,
  type ServerRenderRequest,
  type TPageData,
} from "@app/core";
import type { FastifyRequest } from "fastify";
import { sanitizeUserHtml } from "../../infra/html";
import { type App, GUEST_COOKIE } from "../../infra/http";

/**
 * The public dashboard view rendered by the server (docs/decisions.md "Public view: rendered
 * by the server, the app on the first touch"). The web build's server bundle (apps/web/dist-ssr, from
 * apps/web/src/ssr/server-entry.tsx) renders the app's own components from the API's own answers, which
 * it asks for through `answer` below: the same routes, in process, with the viewer's headers. What the
 * bundle exports, takes and gives is the contract of @app/core (`ServerRenderBundle`), shared with the web.
 */

/** Server renders at once per process (see `render` below); the next viewers get the app's page. */
export const MAX_CONCURRENT_RENDERS = 4;

/** The viewer's zone from the cookie the page sets (ssr/boot.ts), when it is one the runtime knows. */
export function viewerZone(cookie: string | undefined): string {
  if (!cookie || cookie.length > 64) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: cookie });
    // As the browser spells it (it compares the page's zone with its own to hydrate).
    return cookie;
  } catch {
    return "UTC";
  }
}

/** The narrowest and widest viewports a member's charts are drawn ahead for (a hint outside is ignored). */
const VIEWPORT_WIDTHS = { min: 240, max: 7680 };

/**
 * The client hint a member's charts are drawn ahead by: the viewport's width gives each chart's box its
 * size, which the drawing the page asks for is made at. A member's pages ask for it (routes.ts).
 */
export const VIEWPORT_HINT = "Sec-CH-Viewport-Width";

/**
 * What the request says of the viewer's viewport (the `VIEWPORT_HINT` a Chromium sends once a page has
 * asked for it): whether it said anything, and its width in CSS pixels when that is a width charts are
 * drawn ahead for (null otherwise: not said, not a number, out of range).
 */
export function viewportHintOf(request: FastifyRequest): { said: boolean; width: number | null } {
  const header = request.headers[VIEWPORT_HINT.toLowerCase()];
  const width = typeof header === "string" && /^\d{1,5}$/.test(header.trim()) ? Number(header.trim()) : Number.NaN;
  return {
    said: header !== undefined,
    width: width >= VIEWPORT_WIDTHS.min && width <= VIEWPORT_WIDTHS.max ? width : null,
  };
}

/** Headers of the page's request the API calls carry too (custom domain, guest cookie, language). */
const FORWARDED = ["host", "cookie", "user-agent", "accept-language", "x-forwarded-for", "x-forwarded-proto"];

function answererFor(app: App, request: FastifyRequest, pageData: TPageData): ServerRenderAnswerer {
  // A first visit's guest cookie is only being set on this page's answer: its calls carry it already.
  const guest = request.guestId && !request.cookies[GUEST_COOKIE] ? `${GUEST_COOKIE}=${request.guestId}` : null;
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    if (guest) headers.cookie = headers.cookie ? `${headers.cookie}; ${guest}` : guest;
    // The page's identification, as the browser sends it (the app reads it from the page data).
    headers[HEADERS.identification] = pageData.identification;
    const answer = await app.inject({
      method: (init.method ?? "GET") as "GET",
      url: input,
      headers,
      payload: typeof init.body === "string" ? init.body : undefined,
      remoteAddress: request.ip,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || name === "set-cookie") continue;
      responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : String(value));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    const body = empty ? null : new Uint8Array(answer.rawPayload);
    return inProcessResponse(empty ? "" : answer.payload, body, {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };
}

/**
 * An answer made in process: its text is the payload at hand. Read through the body's web stream, as a
 * fetched answer's is, the 24 answers of a dashboard took ~0.1 s of a render (the server's CPU profile);
 * the bundle's API client reads nothing but the text (web lib/api.ts). Its other readers read the body.
 */
function inProcessResponse(
  text: string,
  body: ConstructorParameters<typeof Response>[0],
  init: ResponseInit,
): Response {
  return Object.assign(new Response(body, init), { text: () => Promise.resolve(text) });
}

/**
 * The server bundle (CommonJS, one file) evaluated as Node's CommonJS loader would, but not through it:
 * the process's TypeScript runner (tsx) hooks every module it loads, rewriting and source-mapping it,
 * which for these 4 MB took 4 s and 300 MB more memory (51 MB this way).
 */
function loadCommonJs(file: string): unknown {
  const source = fs.readFileSync(file, "utf8");
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
  }) as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} };
  wrapper(module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/** Where the web build's server bundle of `webDist` is (apps/web/dist-ssr beside apps/web/dist). */
export function serverBundleFile(webDist: string): string {
  return path.join(webDist, "..", "dist-ssr", "server-entry.cjs");
}

/**
 * The web build's server bundle (apps/web/src/ssr/server-entry.tsx), loaded once per process and build:
 * null when there is none (the web app is not built) or it failed to load (logged). `eager` loads it as
 * the server starts rather than on first use: it is megabytes of code to read and compile (the first
 * public page waited 2.6 s for it under Lighthouse).
 */
export function serverBundle(app: App, webDist: string, eager: boolean): () => Promise<ServerRenderBundle | null> {
  const entry = serverBundleFile(webDist);
  let bundle: Promise<ServerRenderBundle | null> | null = null;
  const load = () => {
    bundle ??= (async () => {
      if (!fs.existsSync(entry)) return null;
      try {
        const loaded = loadCommonJs(entry) as ServerRenderBundle;
        loaded.setUserHtmlSanitizer(sanitizeUserHtml);
        // Its chart code is not warmed here: charts are drawn on a thread of their own, which warms its
        // copy (chart-worker.ts); this one draws only when that thread cannot.
        return loaded;
      } catch (error) {
        app.log.error(
          { err: error },
          "the web build's server bundle could not be loaded: public views are drawn by the app in the browser, and a member's first charts by its worker",
        );
        return null;
      }
    })();
    return bundle;
  };
  if (eager && fs.existsSync(entry)) {
    void load();
    // Once the server listens, a made-up member's dashboard is rendered once, in the background
    // (docs/decisions.md, "The server's first render is a made-up one"): the first real page a process
    // renders otherwise runs the render code for the first time, its lazy parts costing an extra pass.
    app.addHook("onListen", async () => {
      setImmediate(() => void warmUp(app, load));
    });
  } else if (eager)
    app.log.warn(
      `no server bundle at ${entry} (npm run build makes it): public views are drawn by the app in the browser, and a member's first charts by its worker`,
    );
  return load;
}

/** The bundle's warm-up render (`ServerRenderBundle.warmUp`), its outcome logged; never thrown. */
async function warmUp(app: App, load: () => Promise<ServerRenderBundle | null>): Promise<void> {
  try {
    const loaded = await load();
    if (!loaded) return;
    const started = performance.now();
    const drawn = await loaded.warmUp();
    if (drawn) app.log.debug({ ...drawn, ms: Math.round(performance.now() - started) }, "server render warmed up");
    else app.log.warn("the server render's warm-up dashboard could not be rendered: the first page renders cold");
  } catch (error) {
    app.log.warn({ err: error }, "the server render's warm-up failed: the first page renders cold");
  }
}

/** A dashboard page renderer (`dashboardViewRenderer`). */
export type DashboardViewRenderer = ReturnType<typeof dashboardViewRenderer>;

/**
 * Renders dashboard pages with the web build's server bundle (`serverBundle`): a public viewer's, or a
 * member's own (`view`); null when there is no bundle (the web app is not built) or rendering is off.
 */
export function dashboardViewRenderer(
  app: App,
  bundle: () => Promise<ServerRenderBundle | null>,
  options: { enabled: boolean; budgetMs: number },
) {
  const load = async () => (options.enabled ? bundle() : null);
  let rendering = 0;

  return async function render(
    request: FastifyRequest,
    pageData: TPageData,
    timezone: string,
    view: "public" | "member" = "public",
    onCharts?: ServerRenderRequest["onCharts"],
  ): Promise<RenderedPublicView | null> {
    const loaded = await load();
    // Renders take the event loop in slices of milliseconds: past a few at once (a link shared widely,
    // opened at the same minute), the next viewers get the app's page, which costs the server nothing.
    if (!loaded || rendering >= MAX_CONCURRENT_RENDERS) return null;
    rendering += 1;
    try {
      const renderView = view === "member" ? loaded.renderMemberView : loaded.renderPublicView;
      return await renderView({
        url: request.url,
        pageData,
        timezone,
        answer: answererFor(app, request, pageData),
        budgetMs: options.budgetMs,
        ...(view === "member" ? { viewportWidth: viewportHintOf(request).width ?? undefined, onCharts } : {}),
      });
    } catch (error) {
      // The page is still the app's: it loads the dashboard itself, as it does without a server render.
      request.log.error({ err: error, view }, "dashboard server render failed");
      return null;
    } finally {
      rendering -= 1;
    }
  };
}
