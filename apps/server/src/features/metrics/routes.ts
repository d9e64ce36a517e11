import type { AppContext } from "../../context";
import type { App } from "../../infra/http";
import { metricsAccess, metricsText, recordRequest, watchJobQueue } from "../../infra/metrics";

/** Requests that matched no route share one series, so random URLs cannot grow the metrics without bound. */
const UNMATCHED = "(unmatched)";

/**
 * Metrics: every answered request counted by route pattern, and GET /metrics (Prometheus text) for
 * the addresses of METRICS_ALLOW or a bearer OPS_TOKEN. Anyone else gets the same 404 as a missing
 * file, so the endpoint does not advertise itself.
 */
export function metricsRoutes(app: App, ctx: AppContext) {
  app.addHook("onResponse", async (request, reply) => {
    recordRequest(request.routeOptions.url ?? UNMATCHED, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  const unwatch = watchJobQueue(ctx.jobs);
  app.addHook("onClose", async () => unwatch());

  const mayRead = metricsAccess(ctx.config);
  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request.ip, request.headers))
      return reply.code(404).send({ code: "not_found", message: "Not found." });
    const { contentType, body } = await metricsText();
    return reply.type(contentType).header("cache-control", "no-store").send(body);
  });
}
