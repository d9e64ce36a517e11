import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import type { AppContext } from "../src/context";
import { createInfra } from "../src/infra";
import { loadConfig } from "../src/infra/config";
import type { App } from "../src/infra/http";

/** A stand-in for Sentry's ingestion endpoint on 127.0.0.1: keeps every envelope it is sent, as text. */
function ingestionServer() {
  const envelopes: string[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body = Buffer.concat(chunks);
      if (request.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
      if (request.url?.startsWith("/api/1/envelope/")) envelopes.push(body.toString("utf8"));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiters.splice(0)) wake();
    });
  });
  return {
    envelopes,
    /** The event items received so far (an envelope is a header line, then item header and payload lines). */
    events(): Array<Record<string, unknown>> {
      return envelopes.flatMap((envelope) => {
        const lines = envelope.split("\n").filter(Boolean);
        const events: Array<Record<string, unknown>> = [];
        for (let i = 1; i + 1 < lines.length; i += 2) {
          if (JSON.parse(lines[i]).type === "event") events.push(JSON.parse(lines[i + 1]));
        }
        return events;
      });
    },
    async listen(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return (server.address() as AddressInfo).port;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The real app and infrastructure, plus a route that fails the way a bug would. */
async function startApp(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-errors-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env });
  const infra = await createInfra(config, { logger: pino({ level: "silent" }), sqliteFile: "test.sqlite" });
  const ctx: AppContext = { ...infra, config };
  const app: App = await buildApp(ctx, { webDist: path.join(dataDir, "no-web-dist") });
  app.post("/boom/:id", { config: { public: true } }, async () => {
    throw new Error(
      "could not save for olivia@example.com: connect postgres://reportz:db-password-42@db.internal/reportz failed",
    );
  });
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const SECRETS = [
  "session-cookie-secret",
  "guest-cookie-secret",
  "bearer-secret-value",
  "dashboard-password-secret",
  "identification-secret",
  "body-password-secret",
  "query-token-secret",
  "olivia@example.com",
  "db-password-42",
];

async function forceServerError(app: App) {
  return app.inject({
    method: "POST",
    url: "/boom/42?token=query-token-secret",
    headers: {
      cookie: "reportz_session=session-cookie-secret; reportz_guest=guest-cookie-secret",
      authorization: "Bearer bearer-secret-value",
      "x-authorization": "dashboard-password-secret",
      "x-identification": "identification-secret",
      "user-agent": "error-reporting-test",
    },
    payload: { email: "olivia@example.com", password: "body-password-secret" },
  });
}

describe("error reporting without a DSN", () => {
  it("only logs: the SDK is neither loaded nor initialised", async () => {
    const started = await startApp({});
    try {
      expect(started.ctx.errors.enabled).toBe(false);
      expect((await forceServerError(started.app)).statusCode).toBe(500);
      const Sentry = await import("@sentry/node");
      expect(Sentry.isInitialized()).toBe(false);
      const pageData = await started.app.inject({ method: "GET", url: "/api/page-data" });
      expect(pageData.json().config.errorReporting).toBeNull();
      expect(String(pageData.headers["content-security-policy"])).toMatch(/connect-src 'self' ws: wss:(;|$)/);
    } finally {
      await started.close();
    }
  });
});

describe("error reporting with a DSN", () => {
  const ingestion = ingestionServer();
  let started: Awaited<ReturnType<typeof startApp>>;
  let dsn = "";

  beforeAll(async () => {
    const port = await ingestion.listen();
    dsn = `http://publickey@127.0.0.1:${port}/1`;
    started = await startApp({ SENTRY_DSN: dsn, SENTRY_SAMPLE_RATE: "1" });
  });
  afterAll(async () => {
    await started?.close();
    await ingestion.close();
  });

  it("sends a forced 500 to the ingestion endpoint with its route and without any secret", async () => {
    const response = await forceServerError(started.app);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: "internal", message: "Server Error" });
    expect(await started.ctx.errors.flush(5000)).toBe(true);

    const events = ingestion.events();
    expect(events).toHaveLength(1);
    const [event] = events as Array<{
      tags?: Record<string, string>;
      transaction?: string;
      exception?: { values: Array<{ type: string; value: string }> };
      request?: unknown;
    }>;
    expect(event.tags).toMatchObject({ route: "/boom/:id", method: "POST" });
    expect(event.transaction).toBe("POST /boom/:id");
    expect(event.exception?.values[0].type).toBe("Error");
    expect(event.exception?.values[0].value).toContain("could not save for [email]");
    const raw = ingestion.envelopes.join("\n");
    for (const secret of SECRETS) expect(raw).not.toContain(secret);
  });

  it("hands the browser its DSN in page data", async () => {
    const pageData = await started.app.inject({ method: "GET", url: "/api/page-data" });
    expect(pageData.json().config.errorReporting).toEqual({ dsn, sampleRate: 1, environment: "test" });
    // Its reports go to the DSN's host, which the page's policy must allow (and nothing more).
    const connect = /connect-src ([^;]*)/.exec(String(pageData.headers["content-security-policy"]))?.[1];
    expect(connect?.split(" ")).toEqual(["'self'", "ws:", "wss:", new URL(dsn).origin]);
  });

  it("does not report what the client got wrong (4xx)", async () => {
    const before = ingestion.envelopes.length;
    expect((await started.app.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(401);
    await started.ctx.errors.flush(2000);
    expect(ingestion.envelopes.length).toBe(before);
  });
});
