import http from "node:http";
import type { AppContext } from "../context";
import { pingDatabase } from "./db";
import { answerMetrics, metricsAccess } from "./metrics";

/**
 * A worker serves no public HTTP, but orchestrators (and the operations docs) want a liveness answer
 * on PORT: `GET /api/health` is 200 with the job counts while the database answers, 503 otherwise;
 * anything else is 404.
 */
export async function startWorkerHealth(ctx: AppContext, port: number, host: string): Promise<http.Server> {
  const mayRead = metricsAccess(ctx.config);
  const server = http.createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      response.end(JSON.stringify(body));
    };
    const path = request.url?.split("?")[0];
    // Job durations and failures are counted where jobs run: a worker's metrics are its own.
    if (request.method === "GET" && path === "/metrics") return void answerMetrics(request, response, mayRead);
    if (request.method !== "GET" || path !== "/api/health") return send(404, { code: "not_found" });
    void (async () => {
      if (!(await pingDatabase(ctx.db))) return send(503, { status: "unavailable" });
      const jobs = await ctx.jobs.counts().catch(() => null);
      send(200, { status: "ok", role: ctx.role, jobs });
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
