import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createDemoSource, dataRequest, demoInstance } from "../src/features/widgets/test-helpers";
import { loadConfig } from "../src/infra/config";
import { answerMetrics, metricsAccess, recordJob, watchJobQueue } from "../src/infra/metrics";
import { describeEachDb, type TestEnv } from "./harness";

const TOKEN = "ops-token-0123456789abcdef";

/** GET /metrics as a scraper at `address` would ask it. */
async function scrape(env: TestEnv, address = "127.0.0.1", headers: Record<string, string> = {}) {
  return env.app.inject({ method: "GET", url: "/metrics", remoteAddress: address, headers });
}

/** The value of one sample line, or 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describeEachDb(
  "GET /metrics",
  (env) => {
    it("counts requests and their latency by route pattern, never by raw URL", async () => {
      const before = (await scrape(env())).body;
      const series = 'http_requests_total{route="/api/dashboards/:permalink",method="GET",status="404"}';
      for (const permalink of ["first-secret-link", "second-secret-link"])
        expect((await env().app.inject({ method: "GET", url: `/api/dashboards/${permalink}` })).statusCode).toBe(404);
      const response = await scrape(env());
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sample(response.body, series) - sample(before, series)).toBe(2);
      expect(response.body).toContain(
        'http_request_duration_seconds_count{route="/api/dashboards/:permalink",method="GET"}',
      );
      expect(response.body).not.toContain("secret-link");
      // Paths no route matched share one series.
      await env().app.inject({ method: "GET", url: "/api/nothing-here-123" });
      expect((await scrape(env())).body).not.toContain("nothing-here-123");
    });

    it("answers only the allowed addresses or the ops token; anyone else gets a 404", async () => {
      expect((await scrape(env(), "::1")).statusCode).toBe(200);
      expect((await scrape(env(), "::ffff:127.0.0.1")).statusCode).toBe(200);
      expect((await scrape(env(), "10.20.30.40")).statusCode).toBe(200);
      const outsider = await scrape(env(), "203.0.113.9");
      expect(outsider.statusCode).toBe(404);
      expect(outsider.body).not.toContain("http_requests_total");
      expect((await scrape(env(), "203.0.113.9", { authorization: "Bearer wrong-token-0123456789" })).statusCode).toBe(
        404,
      );
      expect((await scrape(env(), "203.0.113.9", { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
      // Through an undeclared reverse proxy every visitor looks local: only the token counts then.
      expect((await scrape(env(), "127.0.0.1", { "x-forwarded-for": "198.51.100.7" })).statusCode).toBe(404);
      expect(
        (await scrape(env(), "127.0.0.1", { "x-forwarded-for": "198.51.100.7", authorization: `Bearer ${TOKEN}` }))
          .statusCode,
      ).toBe(200);
    });

    it("shows the job queue's depth, even when a queue cannot answer", async () => {
      const unwatch = watchJobQueue({
        counts: async () => ({ waiting: 4, delayed: 1, active: 2, completed: 9, failed: 3 }),
      });
      const broken = watchJobQueue({
        counts: async () => {
          throw new Error("redis away");
        },
      });
      try {
        const text = (await scrape(env())).body;
        // The app's own queue is counted too, so at least these.
        expect(sample(text, 'jobs_queue_depth{state="waiting"}')).toBeGreaterThanOrEqual(4);
        expect(sample(text, 'jobs_queue_depth{state="failed"}')).toBeGreaterThanOrEqual(3);
      } finally {
        unwatch();
        broken();
      }
    });

    it("shows job durations and failures by job name", async () => {
      const before = (await scrape(env())).body;
      recordJob("ops.test", 0.2, "completed");
      recordJob("ops.test", 1.5, "failed");
      const text = (await scrape(env())).body;
      expect(
        sample(text, 'jobs_failed_total{name="ops.test"}') - sample(before, 'jobs_failed_total{name="ops.test"}'),
      ).toBe(1);
      expect(sample(text, 'jobs_duration_seconds_count{name="ops.test",outcome="completed"}')).toBeGreaterThanOrEqual(
        1,
      );
    });

    it("counts cache hits and misses per namespace", async () => {
      // The registry is the process's: one namespace per database target, as both run in this process.
      const namespace = `metrics-test-${env().target}`;
      const cache = env().ctx.cache<{ n: number }>(namespace, { maxSize: 10, ttlMs: 60_000 });
      await cache.get("a");
      await cache.set("a", { n: 1 });
      await cache.get("a");
      await cache.get("a");
      const text = (await scrape(env())).body;
      expect(sample(text, `cache_lookups_total{namespace="${namespace}",result="miss"}`)).toBe(1);
      expect(sample(text, `cache_lookups_total{namespace="${namespace}",result="hit"}`)).toBe(2);
    });

    it("counts upstream calls by provider", async () => {
      const owner = env().client();
      await owner.signUpAndPassIntro();
      const sourceId = await createDemoSource(owner);
      await owner.pageData();
      const series = 'upstream_calls_total{provider="demo",outcome="ok"}';
      const before = sample((await scrape(env())).body, series);
      const body = dataRequest([demoInstance(sourceId)], { startDate: "2025-02-01", endDate: "2025-02-28" });
      expect((await owner.api("POST", "/api/widgets/data", body)).statusCode).toBe(200);
      // The range and its comparison range: two calls; the cached repeat makes none.
      expect(sample((await scrape(env())).body, series) - before).toBe(2);
      expect((await owner.api("POST", "/api/widgets/data", body)).statusCode).toBe(200);
      expect(sample((await scrape(env())).body, series) - before).toBe(2);
    });
  },
  { METRICS_ALLOW: "127.0.0.0/8, ::1, 10.0.0.0/8", OPS_TOKEN: TOKEN },
);

describe("GET /metrics on a worker's bare HTTP server", () => {
  it("answers with the same rule: loopback yes, a token-less forwarded request no", async () => {
    const mayRead = metricsAccess(loadConfig({ OPS_TOKEN: TOKEN }));
    const server = http.createServer((request, response) => void answerMetrics(request, response, mayRead));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    try {
      recordJob("worker.test", 0.5, "completed");
      const allowed = await fetch(url);
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('jobs_duration_seconds_count{name="worker.test",outcome="completed"} 1');
      expect((await fetch(url, { headers: { "x-forwarded-for": "198.51.100.7" } })).status).toBe(404);
      const withToken = await fetch(url, {
        headers: { "x-forwarded-for": "198.51.100.7", authorization: `Bearer ${TOKEN}` },
      });
      expect(withToken.status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
