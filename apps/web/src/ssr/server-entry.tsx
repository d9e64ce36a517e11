import type {
  PageChart,
  RenderedPublicView,
  ServerRenderRequest,
  ServerRenderState as ServerRenderStateOf,
  ServerRenderWarmUp,
} from "@app/core";
import {
  type DehydratedState,
  dehydrate,
  type FetchQueryOptions,
  type Query,
  type QueryClient,
} from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, MemoryRouter } from "react-router";
import { App } from "../app/App";
import { createQueryClient } from "../app/query-client";
import { buildRoutes, loadScreen } from "../app/router";
import type { LoadedDashboard } from "../features/dashboard/api";
import { firstWidgetQueries } from "../features/dashboard/early-widgets";
import { pageDataKey } from "../features/session/page-data";
import { PublicViewTree } from "./public-tree";
import { type ServerDrawings, withServerDrawings } from "./server-drawings.server";
import { withTransport } from "./transport.server";
import { WARM_UP_PERMALINK, warmUpAnswerer, warmUpPageData } from "./warm-up.server";

export { drawChartSvg, warmChartDrawing } from "./chart-svg.server";
export { setUserHtmlSanitizer } from "./user-html.server";

/**
 * What the page carries for the browser (`<script id="ssr-state">`, the contract's `ServerRenderState` in
 * @app/core), with the answers as React Query dehydrates them.
 */
export type ServerRenderState = ServerRenderStateOf<DehydratedState>;

/** React's mark for a boundary it could not render (a component still loading): the browser renders it. */
const CLIENT_RENDERED = "<!--$!-->";
/**
 * Renders until nothing new is asked: the screen asks for the dashboard, the dashboard for its widgets'
 * data, a card for a lazily loaded part (the chart's box, the sanitised text). Each pass is a plain
 * renderToString (inline HTML, no streaming scripts); a part loaded once stays loaded for every render.
 */
const MAX_PASSES = 6;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The public dashboard view's HTML, rendered by the app's own components from the API's own answers,
 * or null when there is nothing a public viewer may see here without the app (a password, an error,
 * a dashboard not served).
 */
export async function renderPublicView(
  request: ServerRenderRequest,
): Promise<RenderedPublicView<DehydratedState> | null> {
  const queryClient = createQueryClient();
  const tree = (
    <PublicViewTree
      queryClient={queryClient}
      timezone={request.timezone}
      router={({ children }: { children: ReactNode }) => (
        <MemoryRouter initialEntries={[request.url]}>{children}</MemoryRouter>
      )}
    />
  );
  return renderTree(request, queryClient, tree, "public", { ahead: widgetsAhead(request) });
}

/**
 * A member's own dashboard page (route dashboard.show), rendered as the app itself renders it there: the
 * app's providers and router, at the page's address, with its screen loaded. The browser hydrates the
 * same tree (member-hydrate.tsx), so the member's page is the whole app from then on. Null when the page
 * is not a member's view of a dashboard of theirs (the app renders whatever it is: a 404, a redirect).
 */
export async function renderMemberView(
  request: ServerRenderRequest,
): Promise<RenderedPublicView<DehydratedState> | null> {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(buildRoutes(await loadScreen("dashboard.show")), {
    initialEntries: [request.url],
  });
  // With the viewer's viewport width, the charts' drawings the page will ask for are noted as it renders.
  const drawings: ServerDrawings | null = request.viewportWidth
    ? { viewportWidth: request.viewportWidth, wanted: new Map() }
    : null;
  const tree = <App queryClient={queryClient} router={router} />;
  // Each pass that noted charts hands them on at once: their drawing starts while the render goes on.
  const noted = () => {
    if (drawings && drawings.wanted.size > 0) request.onCharts?.(pageCharts(drawings));
  };
  const render = () =>
    renderTree(request, queryClient, tree, "member", {
      beforeRender: () => drawings?.wanted.clear(),
      afterRender: noted,
      ahead: widgetsAhead(request),
    });
  const rendered = await (drawings ? withServerDrawings(drawings, render) : render());
  router.dispose();
  // A guard that sent the member elsewhere (a two-factor set-up due): the app's page does that.
  if (!rendered || router.state.location.pathname !== request.url.split("?")[0]) return null;
  const charts = drawings ? pageCharts(drawings) : [];
  return charts.length > 0 ? { ...rendered, charts } : rendered;
}

/**
 * Renders a made-up member's dashboard (warm-up.server.ts) once, as the server starts (server-render.ts),
 * so that the first real page is rendered by code already run: what it drew, to be checked (a test), or
 * null when it could not render it.
 */
export async function warmUp(): Promise<ServerRenderWarmUp | null> {
  const rendered = await renderMemberView({
    url: `/dashboards/${WARM_UP_PERMALINK}`,
    pageData: warmUpPageData(),
    timezone: "UTC",
    answer: warmUpAnswerer,
    budgetMs: 10_000,
    viewportWidth: 1280,
  });
  if (!rendered) return null;
  return {
    cards: rendered.html.match(/ data-widget-id="/g)?.length ?? 0,
    ready: rendered.html.match(/data-ready="true"/g)?.length ?? 0,
    charts: rendered.charts?.length ?? 0,
    complete: rendered.state.complete,
  };
}

function pageCharts(drawings: ServerDrawings): PageChart[] {
  return [...drawings.wanted.entries()].map(([widgetId, { input, size, body }]) => ({
    widgetId,
    input: input as unknown as Record<string, unknown>,
    size,
    body,
  }));
}

/**
 * Once the dashboard's answer is in, its widgets' data queries as its cards will build them: asked for with
 * it, so that no pass renders 24 cards loading only to find what they ask (~0.1 s of a member's first
 * render, on the page's path). A card asking otherwise (another range) still asks in the next pass.
 */
function widgetsAhead(request: ServerRenderRequest) {
  const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
  return (query: Query): FetchQueryOptions[] => {
    const loaded = query.state.data as LoadedDashboard | undefined;
    if (query.queryKey[0] !== "dashboard" || !loaded?.dashboard?.widgets) return [];
    return firstWidgetQueries(loaded, request.timezone, search, null) as FetchQueryOptions[];
  };
}

interface RenderHooks {
  beforeRender?: () => void;
  afterRender?: () => void;
  /** The queries an answered query leads to, asked for as soon as it is in, before the next pass. */
  ahead?: (query: Query) => FetchQueryOptions[];
}

async function renderTree(
  request: ServerRenderRequest,
  queryClient: QueryClient,
  tree: ReactNode,
  view: "public" | "member",
  { beforeRender, afterRender, ahead }: RenderHooks = {},
): Promise<RenderedPublicView<DehydratedState> | null> {
  queryClient.setQueryData(pageDataKey, request.pageData);
  const deadline = Date.now() + request.budgetMs;
  // Answers by query, re-seeded before each pass: some queries are dropped from the cache as soon as no
  // component watches them (the dashboard's gcTime is 0), and a server render watches nothing.
  const answers = new Map<string, { queryKey: readonly unknown[]; data: unknown }>();
  const asked = new Set<string>();
  const render = () => {
    for (const { queryKey, data } of answers.values()) queryClient.setQueryData(queryKey, data);
    beforeRender?.();
    const html = renderToString(tree);
    afterRender?.();
    return html;
  };

  return withTransport(request.answer, async () => {
    let html = render();
    for (let pass = 1; pass < MAX_PASSES; pass++) {
      const waiting = queryClient
        .getQueryCache()
        .findAll()
        .filter((query) => query.state.data === undefined && !asked.has(query.queryHash) && !disabled(query));
      const lazyParts = html.includes(CLIENT_RENDERED);
      if (waiting.length === 0 && !lazyParts) break;
      if (waiting.length > 0 && Date.now() >= deadline) break;
      await Promise.race([Promise.allSettled(waiting.map((query) => fetchOnce(query))), timeLeft(deadline)]);
      // Dynamic imports of lazy parts settle in a later task.
      await nextTask();
      html = render();
    }
    // What failed on the server is drawn loading, as the browser's first render draws it (it has no
    // answer for it), and the browser asks again: a card drawn as an error here would not match there,
    // and React would draw the whole page anew.
    const failed = queryClient
      .getQueryCache()
      .findAll()
      .filter((query) => query.state.status === "error");
    if (failed.length > 0) {
      for (const query of failed) {
        answers.delete(query.queryHash);
        queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
      }
      html = render();
    }
    const dashboard = queryClient.getQueryData<{ isPublic?: boolean }>(["dashboard", paramOf(request.url), null]);
    // A public view for a public viewer, a member's view for a member: anything else is the app's.
    if (!dashboard || dashboard.isPublic !== (view === "public")) return null;
    const queries = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => query.state.status === "success" && query.queryKey[0] !== pageDataKey[0],
    });
    const complete =
      failed.length === 0 &&
      !html.includes(CLIENT_RENDERED) &&
      queryClient
        .getQueryCache()
        .findAll()
        .every((query) => query.state.status === "success" || disabled(query));
    void queryClient.cancelQueries();
    return { html, state: { timezone: request.timezone, view, complete, queries } };
  });

  async function fetchOnce(query: Query) {
    asked.add(query.queryHash);
    // One try: the browser retries what failed, and the page must not wait for a back-off.
    const data = await query.fetch({ ...query.options, retry: false });
    answers.set(query.queryHash, { queryKey: query.queryKey, data });
    const next = (ahead?.(query) ?? [])
      .map((options) => queryClient.getQueryCache().build(queryClient, queryClient.defaultQueryOptions(options)))
      .filter((found) => found.state.data === undefined && !asked.has(found.queryHash));
    await Promise.allSettled(next.map((found) => fetchOnce(found)));
  }
}

/** A query its component does not run yet (`enabled: false`): the browser runs it when it may. */
function disabled(query: Query): boolean {
  const { enabled } = query.options as { enabled?: boolean | ((query: Query) => boolean) };
  return enabled === false || (typeof enabled === "function" && !enabled(query));
}

function timeLeft(deadline: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref());
}

/** The permalink of a /dashboards/:permalink address. */
function paramOf(url: string): string {
  const path = url.split("?")[0];
  return decodeURIComponent(path.split("/")[2] ?? "");
}
