import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { skipWithoutRedis, startTestRedis } from "../../../test/redis";
import { closeRedis, connectRedis } from "../../infra/distributed/redis";
import { createRedisRateLimitStore } from "../../infra/distributed/redis-rate-limit";
import { createMemoryRateLimitStore } from "../../infra/rate-limit-store";
import { classifyGoogle } from "../google/classify";
import { createProviderClient, type ProviderClientOptions } from "./client";
import { ProviderError } from "./errors";

/**
 * A provider stand-in on 127.0.0.1: each test scripts the answers it gives, in order, and reads back
 * what it was asked (the real HTTP path: sockets, headers, bodies, time limits).
 */
type Scripted = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };
let script: Scripted[] = [];
let seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let inFlight = 0;
let mostInFlight = 0;
let base = "";
const server = http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const next = script.length > 1 ? (script.shift() as Scripted) : (script[0] ?? { status: 200, body: {} });
    setTimeout(() => {
      inFlight -= 1;
      if (response.destroyed) return;
      response.writeHead(next.status, { "content-type": "application/json", ...next.headers });
      response.end(next.body === undefined ? "" : JSON.stringify(next.body));
    }, next.delayMs ?? 0);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
  mostInFlight = 0;
});

const ZReport = z.object({ rows: z.array(z.object({ value: z.string() })) });

function client(options: Partial<ProviderClientOptions> = {}) {
  const waits: number[] = [];
  const made = createProviderClient({
    provider: "ga4",
    baseUrl: base,
    classify: classifyGoogle,
    counters: createMemoryRateLimitStore(),
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client: made, waits };
}

const failure = async (promise: Promise<unknown>): Promise<ProviderError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected a ProviderError");
};

describe("the connectors' HTTP layer against a local provider", () => {
  it("sends the typed request (path, query, JSON body, headers) and returns the parsed answer", async () => {
    script = [{ status: 200, body: { rows: [{ value: "42" }] } }];
    const { client: ga4 } = client();
    const report = await ga4.request({
      method: "POST",
      path: "/v1beta/properties/123:runReport",
      query: { fields: ["rows", "totals"], alt: "json" },
      headers: { authorization: "Bearer token-1" },
      json: { dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }], returnPropertyQuota: true },
      schema: ZReport,
    });
    expect(report.rows[0]?.value).toBe("42");
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/v1beta/properties/123:runReport?fields=rows&fields=totals&alt=json",
    });
    expect(seen[0]?.headers.authorization).toBe("Bearer token-1");
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[0]?.body ?? "{}").returnPropertyQuota).toBe(true);
  });

  it("retries an outage with backoff and succeeds; the source never hears of it", async () => {
    script = [
      { status: 503, body: { error: { code: 503, status: "UNAVAILABLE", message: "down" } } },
      { status: 500, body: { error: { code: 500, status: "INTERNAL", message: "oops" } } },
      { status: 200, body: { rows: [] } },
    ];
    const { client: ga4, waits } = client();
    expect(await ga4.request({ path: "/x", schema: ZReport })).toEqual({ rows: [] });
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(250);
    expect(waits[1]).toBeGreaterThanOrEqual(500);
  });

  it("honours Retry-After, and does not sleep through a long one: it answers at once with the wait", async () => {
    script = [
      {
        status: 429,
        body: { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "slow down" } },
        headers: { "retry-after": "2" },
      },
      { status: 200, body: { rows: [] } },
    ];
    const short = client();
    await short.client.request({ path: "/x", schema: ZReport });
    expect(short.waits).toEqual([2000]);

    script = [
      {
        status: 429,
        body: { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "slow down" } },
        headers: { "retry-after": "120" },
      },
    ];
    seen = [];
    const long = client();
    const error = await failure(long.client.request({ path: "/x", schema: ZReport, limitKey: "property:1" }));
    expect(error).toMatchObject({ kind: "rate", retryAfterMs: 120_000 });
    expect(long.waits).toEqual([]);
    // Asked again before the wait is over: refused here, the provider is not bothered.
    const again = await failure(long.client.request({ path: "/x", schema: ZReport, limitKey: "property:1" }));
    expect(again.kind).toBe("rate");
    expect(seen).toHaveLength(1);
    // Another property is not held up.
    script = [{ status: 200, body: { rows: [] } }];
    await long.client.request({ path: "/x", schema: ZReport, limitKey: "property:2" });
    expect(seen).toHaveLength(2);
  });

  it("caps retries with a budget shared by every request (GA4 penalises repeated server errors)", async () => {
    script = [{ status: 503, body: { error: { code: 503, status: "UNAVAILABLE", message: "down" } } }];
    const { client: ga4 } = client({ attempts: 5, retryBudget: { max: 3, windowMs: 3_600_000 } });
    const first = await failure(ga4.request({ path: "/a", schema: ZReport }));
    expect(first.kind).toBe("server");
    expect(seen).toHaveLength(4); // 1 + the budget's 3 retries
    seen = [];
    await failure(ga4.request({ path: "/b", schema: ZReport }));
    expect(seen).toHaveLength(1); // the budget is spent: no retry at all
  });

  it("a used-up quota is not retried, and holds further requests for that key until its reset", async () => {
    script = [
      {
        status: 429,
        body: {
          error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Exhausted property tokens per hour quota." },
        },
      },
    ];
    const { client: ga4, waits } = client();
    const error = await failure(ga4.request({ path: "/x", schema: ZReport, limitKey: "property:9" }));
    expect(error.kind).toBe("quota");
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(waits).toEqual([]);
    await failure(ga4.request({ path: "/x", schema: ZReport, limitKey: "property:9" }));
    expect(seen).toHaveLength(1);
  });

  it("a request queued behind one that found the quota used up is not sent either", async () => {
    script = [
      {
        status: 429,
        body: {
          error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Exhausted property tokens per hour quota." },
        },
        delayMs: 50,
      },
      { status: 200, body: { rows: [] } },
    ];
    // One at a time per key: the second waits for the first's answer, which says the quota is used up.
    const { client: ga4 } = client({ concurrency: 1 });
    const [first, second] = await Promise.all([
      failure(ga4.request({ path: "/x", schema: ZReport, limitKey: "property:7" })),
      failure(ga4.request({ path: "/y", schema: ZReport, limitKey: "property:7" })),
    ]);
    expect(first.kind).toBe("quota");
    expect(second.kind).toBe("quota");
    expect(second.reason).toMatch(/^still waiting/);
    expect(seen.map((request) => request.url)).toEqual(["/x"]);
  });

  it("spends quota buckets before sending: the request over the allowance never leaves", async () => {
    script = [{ status: 200, body: { rows: [] } }];
    const { client: gsc } = client({ provider: "gsc" });
    const bucket = { key: "site:https://acme.com/", max: 2, windowMs: 60_000, kind: "rate" as const };
    await gsc.request({ path: "/q", schema: ZReport, quotas: [bucket] });
    await gsc.request({ path: "/q", schema: ZReport, quotas: [bucket] });
    const refused = await failure(gsc.request({ path: "/q", schema: ZReport, quotas: [bucket] }));
    expect(refused.kind).toBe("rate");
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(seen).toHaveLength(2);
  });

  it("keeps at most `concurrency` requests in flight per key", async () => {
    script = [{ status: 200, body: { rows: [] }, delayMs: 40 }];
    const { client: ga4 } = client({ concurrency: 3 });
    await Promise.all(
      Array.from({ length: 12 }, () => ga4.request({ path: "/x", schema: ZReport, limitKey: "property:1" })),
    );
    expect(seen).toHaveLength(12);
    expect(mostInFlight).toBe(3);
  });

  it.skipIf(skipWithoutRedis)(
    "counts requests in flight across processes: two servers sharing Redis stay within one property's limit",
    async () => {
      const redis = await startTestRedis();
      const connections = [connectRedis(redis.url, { name: "p1" }), connectRedis(redis.url, { name: "p2" })];
      try {
        script = [{ status: 200, body: { rows: [] }, delayMs: 40 }];
        // Two processes' clients: each alone would allow 3 at once; together they still may not exceed 3.
        const processes = connections.map(
          (connection) => client({ concurrency: 3, counters: createRedisRateLimitStore(connection) }).client,
        );
        await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (processes[i % 2] as (typeof processes)[number]).request({
              path: "/x",
              schema: ZReport,
              limitKey: "property:7",
            }),
          ),
        );
        expect(seen).toHaveLength(16);
        expect(mostInFlight).toBe(3);
      } finally {
        await Promise.all(connections.map(closeRedis));
        await redis.stop();
      }
    },
  );

  it("an answer of the wrong shape is a server failure, not retried; an auth failure is not retried either", async () => {
    script = [{ status: 200, body: { rows: "not a list" } }];
    const { client: ga4 } = client();
    const shape = await failure(ga4.request({ path: "/x", schema: ZReport }));
    expect(shape.kind).toBe("server");
    expect(shape.reason).toContain("unexpected answer at rows");
    expect(seen).toHaveLength(1);
    script = [
      { status: 401, body: { error: { code: 401, status: "UNAUTHENTICATED", message: "Invalid Credentials" } } },
    ];
    seen = [];
    expect((await failure(ga4.request({ path: "/x", schema: ZReport }))).kind).toBe("auth");
    expect(seen).toHaveLength(1);
  });

  it("a provider that does not answer in time is a server failure", async () => {
    script = [{ status: 200, body: { rows: [] }, delayMs: 2000 }];
    const { client: ga4 } = client({ timeoutMs: 150, attempts: 1 });
    const error = await failure(ga4.request({ path: "/x", schema: ZReport }));
    expect(error.kind).toBe("server");
    expect(error.reason).toContain("no answer within 150 ms");
  });

  it("sends OAuth-style form bodies", async () => {
    script = [{ status: 200, body: { rows: [] } }];
    const { client: oauth } = client();
    await oauth.request({
      path: "/token",
      form: { grant_type: "refresh_token", refresh_token: "r 1" },
      schema: ZReport,
    });
    expect(seen[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(seen[0]?.body).toBe("grant_type=refresh_token&refresh_token=r+1");
  });

  it("refuses user-supplied hosts on loopback or private addresses, unless the deployment allows them", async () => {
    script = [{ status: 200, body: { rows: [] } }];
    const port = new URL(base).port;
    for (const host of ["127.0.0.1", "localhost", "[::1]"]) {
      const { client: tracker } = client({
        provider: "rank-tracker",
        baseUrl: `http://${host}:${port}`,
        userSuppliedHost: { allow: [] },
        attempts: 1,
      });
      const error = await failure(tracker.request({ path: "/api", schema: ZReport }));
      expect(error.kind).toBe("input");
      expect(error.reason).toMatch(/not a public address/);
    }
    expect(seen).toHaveLength(0);
    const { client: allowed } = client({
      provider: "rank-tracker",
      baseUrl: base,
      userSuppliedHost: { allow: ["127.0.0.1"] },
    });
    expect(await allowed.request({ path: "/api", schema: ZReport })).toEqual({ rows: [] });
    expect(seen).toHaveLength(1);
  });
});
