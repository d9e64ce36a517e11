import { API, type ServerRenderBundle, ZErrorBody } from "@app/core";
import type { App } from "../../infra/http";

/** Room for the most charts a request may carry, each with its data (the input is the chart's whole table). */
const BODY_LIMIT = 8 * 1024 * 1024;

/** Resolves in a later turn of the event loop, so other requests are answered between two drawings. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * POST /api/chart-snapshots: a member's charts drawn here, as SVG, by the same code as the browser's snapshot
 * worker (the web build's server bundle, `drawChartSvg`). A browser that keeps no drawing of a dashboard (a
 * first visit, a new release) would otherwise load ECharts into a worker and run its cold code for every
 * chart while the page itself starts; here the code is warm after the first requests
 * (docs/decisions.md, "The owner's first drawings made by the server"). Members only (the default
 * guard): a public viewer's page is drawn by its own worker. 503 without a bundle (the web app not
 * built): the browser then draws every chart itself.
 */
export function chartSnapshotRoutes(app: App, bundle: (() => Promise<ServerRenderBundle | null>) | null) {
  app.post(
    "/api/chart-snapshots",
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ["widgets"],
        summary: "Charts of a dashboard drawn by the server as SVG (each item its own answer or error)",
        body: API.chartSnapshots.body,
        response: { 200: API.chartSnapshots.output, 503: ZErrorBody },
      },
    },
    async (request, reply) => {
      const loaded = bundle ? await bundle() : null;
      if (!loaded) {
        return reply
          .code(503)
          .send({ code: "unavailable", message: "Charts are drawn by the browser on this server." });
      }
      const data: Array<{ svg: string } | { error: string }> = [];
      for (const [index, { input, size }] of request.body.items.entries()) {
        if (index > 0) await nextTurn();
        try {
          data.push({ svg: await loaded.drawChartSvg(input, size) });
        } catch (error) {
          // An input the drawing code refuses is that item's failure (the browser draws it), not the request's.
          data.push({ error: error instanceof Error ? error.message : String(error) });
        }
      }
      return { data };
    },
  );
}
