import type { AppContext } from "../../context";
import type { App } from "../../infra/http";
import { addressMatcher, metricsText, recordRequest, watchJobQueue } from "../../infra/metrics";
import { safeEqual } from "../../infra/security";

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

  const allowedAddress = addressMatcher(ctx.config.metrics.allow);
  const token = ctx.config.opsToken;
  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const authorization = request.headers.authorization ?? "";
    const byToken = token !== null && safeEqual(authorization, `Bearer ${token}`);
    // Behind a proxy that is not declared (TRUST_PROXY), every visitor arrives from the proxy's address,
    // often loopback: forwarded requests are then judged by the token alone.
    const forwarded = request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined;
    const byAddress = !(forwarded && ctx.config.trustProxy === false) && allowedAddress(request.ip);
    if (!byToken && !byAddress) return reply.code(404).send({ code: "not_found", message: "Not found." });
    const { contentType, body } = await metricsText();
    return reply.type(contentType).header("cache-control", "no-store").send(body);
  });
}
