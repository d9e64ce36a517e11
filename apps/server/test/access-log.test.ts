import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../src/app";
import type { AppContext, Infra } from "../src/context";
import { createInfra } from "../src/infra";
import { loadConfig } from "../src/infra/config";
import type { App } from "../src/infra/http";

// The access log is one flat line per request (cheap to write, see decisions.md): it must still say what
// was asked and answered, and never carry cookies or authorisation headers.
const lines: Array<Record<string, unknown>> = [];
let app: App;
let infra: Infra;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-log-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "info" });
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  infra = await createInfra(config, { logger, sqliteFile: "log.sqlite" });
  const ctx: AppContext = { ...infra, config };
  app = await buildApp(ctx, { webDist: path.join(dataDir, "no-web-dist") });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await infra.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("writes one line per request with method, url, status and time, and no secrets", async () => {
  lines.length = 0;
  await app.inject({ method: "GET", url: "/api/health", headers: { cookie: "session=secret-token" } });
  await app.inject({
    method: "GET",
    url: "/api/users",
    headers: { cookie: "session=secret-token", "x-authorization": "pw" },
  });
  const access = lines.filter((line) => line.msg === "request completed");
  expect(access).toHaveLength(2);
  expect(access[0]).toMatchObject({ method: "GET", url: "/api/health", statusCode: 200 });
  expect(access[1]).toMatchObject({ method: "GET", url: "/api/users", statusCode: 401 });
  for (const line of access) {
    expect(typeof line.responseTime).toBe("number");
    expect(typeof line.reqId).toBe("string");
  }
  const text = JSON.stringify(lines);
  expect(text).not.toContain("secret-token");
  expect(text).not.toContain('"pw"');
});
