import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { buildApp, DEFAULT_WEB_DIST } from "../src/app";
import type { AppContext } from "../src/context";
import { buildFeatureServices, defineJobs } from "../src/features";
import type { ServiceRegistry } from "../src/features/registry";
import { createInfra } from "../src/infra";
import { loadConfig } from "../src/infra/config";
import type { App } from "../src/infra/http";
import { TEST_DATABASE_PATTERN, testDatabaseName } from "./global-setup";

export type DbTarget = "sqlite" | "postgres";

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function dbTargets(): DbTarget[] {
  return process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
}

async function adminQuery(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function createPostgresDatabase(): Promise<{ name: string; url: string }> {
  const name = testDatabaseName();
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** FORCE ends connections still open (a pool a failed test left behind), which would otherwise block the drop. */
export async function dropPostgresDatabase(name: string): Promise<void> {
  if (!TEST_DATABASE_PATTERN.test(name)) throw new Error(`not a test database: ${name}`);
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export interface TestEnv {
  target: DbTarget;
  app: App;
  ctx: AppContext;
  /** The features' services, as the app uses them (for what no route triggers, such as a scheduler pass). */
  services: ServiceRegistry;
  dataDir: string;
  /** A new cookie-keeping client, like a separate browser. */
  client(): TestClient;
  /** Messages written to the outbox (no SMTP_URL in tests). */
  outbox(): string[];
}

/** Boots the real app on a fresh database of the given kind. */
export interface TestEnvOptions {
  /**
   * Serve the built web app and listen on 127.0.0.1:PORT (PORT must be in `env`): for tests where a
   * real browser opens the app, such as the PDF renderer's. Needs `npm run build` first.
   */
  listen?: boolean;
}

export async function startTestEnv(
  target: DbTarget,
  env: Record<string, string> = {},
  options: TestEnvOptions = {},
): Promise<TestEnv & { close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-test-"));
  const database = target === "postgres" ? await createPostgresDatabase() : null;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? "",
    RATE_LIMIT_AUTH_MAX: "1000",
    LOG_LEVEL: "silent",
    ...env,
  });
  // TEST_LOG_LEVEL=warn shows what the product logged while a test ran (why a job failed, say).
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const infra = await createInfra(config, { logger, sqliteFile: "test.sqlite" });
  const ctx: AppContext = { ...infra, config };
  // As main.ts wires a process: the features' services, their jobs defined (not started), the app.
  const services = buildFeatureServices(ctx);
  defineJobs(ctx, services);
  if (options.listen && !fs.existsSync(path.join(DEFAULT_WEB_DIST, "index.html"))) {
    throw new Error(`The built web app is missing (${DEFAULT_WEB_DIST}): run \`npm run build\` first.`);
  }
  const webDist = options.listen ? DEFAULT_WEB_DIST : path.join(dataDir, "no-web-dist");
  const app = await buildApp(ctx, { webDist, services });
  await app.ready();
  if (options.listen) await app.listen({ port: config.port, host: "127.0.0.1" });
  return {
    target,
    app,
    ctx,
    services,
    dataDir,
    client: () => new TestClient(app),
    outbox: () => {
      const dir = path.join(dataDir, "outbox");
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir)
        .sort()
        .map((f) => decodeQuotedPrintable(fs.readFileSync(path.join(dir, f), "utf8")));
    },
    async close() {
      await app.close();
      await services.close();
      await infra.close();
      if (database) await dropPostgresDatabase(database.name);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the same suite once per database target, with a fresh app for each. */
export function describeEachDb(
  name: string,
  suite: (env: () => TestEnv) => void,
  env: Record<string, string> | (() => Promise<Record<string, string>>) = {},
  options: TestEnvOptions = {},
) {
  for (const target of dbTargets()) {
    describe(`${name} [${target}]`, () => {
      let current: (TestEnv & { close(): Promise<void> }) | null = null;
      beforeAll(async () => {
        current = await startTestEnv(target, typeof env === "function" ? await env() : env, options);
      });
      afterAll(async () => {
        await current?.close();
      });
      suite(() => {
        if (!current) throw new Error("test env not started");
        return current;
      });
    });
  }
}

/** .eml bodies are quoted-printable; tests read them as the recipient's mail client would. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** An HTTP client over app.inject that keeps cookies and sends the page's identification, like the SPA. */
export class TestClient {
  private cookies = new Map<string, string>();
  identification = "";

  constructor(private readonly app: App) {}

  /** The value of a cookie this client holds. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Holds a cookie as if a response had set it (a session made by the row factories). */
  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  private cookieHeader(): string {
    return [...this.cookies.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keepCookies(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      if (cookie.value === "" || (cookie.maxAge !== undefined && cookie.maxAge <= 0)) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  /** Raw request with full control of headers. */
  async raw(
    method: Method,
    url: string,
    options: { body?: unknown; headers?: Record<string, string>; payload?: string | Buffer } = {},
  ) {
    const response = await this.app.inject({
      method,
      url,
      headers: { cookie: this.cookieHeader(), ...options.headers },
      ...(options.payload !== undefined
        ? { payload: options.payload }
        : options.body !== undefined
          ? { payload: options.body as object }
          : {}),
    });
    this.keepCookies(response);
    return response;
  }

  /** Loads page data (as the SPA's HTML would) and keeps its identification. */
  async pageData() {
    const response = await this.raw("GET", "/api/page-data");
    const data = response.json();
    this.identification = data.identification;
    return data;
  }

  /** An /api call as the SPA makes it: XHR header and identification. */
  async api(method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) {
    if (!this.identification) await this.pageData();
    return this.raw(method, url, {
      body,
      headers: { "x-requested-with": "XMLHttpRequest", "x-identification": this.identification, ...headers },
    });
  }

  /** A multipart /api call (fields and files), as the SPA's FormData posts. */
  async apiMultipart(
    method: Method,
    url: string,
    fields: Record<string, string>,
    files: Parameters<typeof multipart>[1] = {},
  ) {
    if (!this.identification) await this.pageData();
    const body = multipart(fields, files);
    return this.raw(method, url, {
      payload: body.payload,
      headers: { ...body.headers, "x-requested-with": "XMLHttpRequest", "x-identification": this.identification },
    });
  }

  async register(overrides: Record<string, unknown> = {}) {
    const email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const body = {
      name: "Olivia Owner",
      email,
      password: "secret-pass-1",
      password_confirmation: "secret-pass-1",
      terms_consent: true,
      age_consent: true,
      dashboards: 25,
      ...overrides,
    };
    const response = await this.raw("POST", "/register", { body, headers: { "x-requested-with": "XMLHttpRequest" } });
    if (response.statusCode === 200) await this.pageData();
    return { response, email: String(body.email), password: String(body.password) };
  }

  async login(email: string, password: string) {
    const response = await this.raw("POST", "/login", {
      body: { email, password },
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    if (response.statusCode === 200) await this.pageData();
    return response;
  }

  /** Registers a company owner and enters the app past the intro. */
  async signUpAndPassIntro(overrides: Record<string, unknown> = {}) {
    const result = await this.register(overrides);
    await this.api("POST", "/api/user/data", { intro_passed: true });
    const page = await this.pageData();
    return { ...result, user: page.user, company: page.company };
  }
}

/** A multipart body for app.inject (fields and files). */
export function multipart(
  fields: Record<string, string>,
  files: Record<string, { filename: string; type: string; data: Buffer }> = {},
) {
  const boundary = `----test${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** A tiny valid PNG (1x1). */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

/** An admin invites a user who sets a password from the e-mailed link; returns that user's client. */
export async function inviteAndJoin(env: () => TestEnv, admin: TestClient, roleName: "user" | "admin") {
  const email = `member-${Math.random().toString(36).slice(2, 9)}@example.com`;
  const invited = await admin.api("POST", "/api/users", { name: "Mia Member", email, roleName });
  expect(invited.statusCode).toBe(200);
  const mail = env()
    .outbox()
    .find((m) => m.includes(email));
  const token = /\/password\/set\/([A-Za-z0-9_-]+)/.exec(String(mail))?.[1];
  expect(token).toBeTruthy();
  const member = env().client();
  const set = await member.raw("POST", "/password/set", {
    body: { token, password: "member-pass-1", password_confirmation: "member-pass-1" },
    headers: { "x-requested-with": "XMLHttpRequest" },
  });
  expect(set.statusCode).toBe(200);
  await member.pageData();
  await member.api("PUT", `/api/users/${invited.json().data.id}`, { terms_consent: true, age_consent: true });
  await member.api("POST", "/api/user/data", { intro_passed: true });
  return member;
}

/**
 * A signed-in owner's new 'website-overview' dashboard and the public data address of its first
 * interactive widget, with a closed month to ask it for.
 */
export async function sharedTemplateWidget(owner: TestClient) {
  const created = await owner.api("POST", "/api/dashboards", { name: "Shared", template: "website-overview" });
  const permalink: string = created.json().data.permalink;
  const dashboard = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data;
  const widget = dashboard.widgets.find((w: { nature: string }) => w.nature === "interactive");
  const url = `/api/dashboards/${permalink}/widgets/${widget.id}/data`;
  const range = { startDate: "2026-10-01", endDate: "2026-10-31", timezone: "UTC" };
  return { permalink, dashboard, widget, url, range };
}
