import { API } from "@app/core";
import { AppError } from "../../infra/errors";
import type { App } from "../../infra/http";
import { safeEqual } from "../../infra/security";
import type { OpsService } from "./service";

/**
 * Operator endpoints, outside /api (no session): answered only with `Authorization: Bearer <OPS_TOKEN>`,
 * and not at all (404) when no token is configured, so a default install exposes nothing.
 */
export function opsRoutes(app: App, ops: OpsService, token: string | null) {
  const tags = ["ops"];
  const guard = async (request: { headers: Record<string, unknown> }) => {
    const given = String(request.headers.authorization ?? "");
    if (!token || !safeEqual(given, `Bearer ${token}`)) throw new AppError("not_found", "Not found.");
  };
  app.post(
    "/ops/probe-jobs",
    {
      config: { public: true },
      onRequest: guard,
      schema: {
        tags,
        summary: "Enqueue probe jobs (operator check of the job pipeline)",
        body: API.opsProbeEnqueue.body,
        response: { 200: API.opsProbeEnqueue.output },
      },
    },
    async (request) => ({ data: await ops.enqueueProbes(request.body) }),
  );
  app.get(
    "/ops/probe-jobs",
    {
      config: { public: true },
      onRequest: guard,
      schema: {
        tags,
        summary: "Runs of probe jobs by key",
        querystring: API.opsProbeRuns.query,
        response: { 200: API.opsProbeRuns.output },
      },
    },
    async (request) => ({ data: await ops.probeRuns(request.query.prefix) }),
  );
  app.post(
    "/ops/billing/resync-discounts",
    {
      config: { public: true },
      onRequest: guard,
      schema: {
        tags,
        summary: "Bring card subscriptions at Stripe to the price the companies' records say",
        body: API.opsDiscountResync.body,
        response: { 200: API.opsDiscountResync.output },
      },
    },
    async (request) => ({ data: await ops.resyncDiscounts(request.body.companyId) }),
  );
}
