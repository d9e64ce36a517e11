import { API } from "@app/core";
import { z } from "zod";
import { type Db, pingDatabase } from "../../infra/db";
import type { App } from "../../infra/http";

/** GET /api/health: 200 when the database answers, 503 otherwise. */
export function healthRoutes(app: App, db: Db) {
  app.get(
    "/api/health",
    {
      config: { public: true },
      schema: {
        tags: ["ops"],
        response: { 200: API.health.output, 503: z.object({ status: z.literal("unavailable") }) },
      },
    },
    async (_request, reply) => {
      if (await pingDatabase(db)) return { status: "ok" as const };
      return reply.code(503).send({ status: "unavailable" as const });
    },
  );
}
