import { z } from "zod";
import { AppError } from "../../infra/errors";
import type { App } from "../../infra/http";
import { safeEqual } from "../../infra/security";
import type { OpsService } from "./service";

const ZProbeRequest = z.strictObject({
  prefix: z.string().regex(/^[A-Za-z0-9._-]{1,60}$/, "The prefix may contain letters, digits and . _ - only."),
  count: z.number().int().min(1).max(1000),
  sleepMs: z.number().int().min(0).max(60_000).default(0),
});
const ZProbeQuery = z.strictObject({ prefix: ZProbeRequest.shape.prefix });

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
      schema: { tags, summary: "Enqueue probe jobs (operator check of the job pipeline)", body: ZProbeRequest },
    },
    async (request) => ({ data: await ops.enqueueProbes(request.body) }),
  );
  app.get(
    "/ops/probe-jobs",
    {
      config: { public: true },
      onRequest: guard,
      schema: { tags, summary: "Runs of probe jobs by key", querystring: ZProbeQuery },
    },
    async (request) => ({ data: await ops.probeRuns(request.query.prefix) }),
  );
}
