import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { TInteractiveWidget, TWidget } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import pino from "pino";
import { buildApp } from "../apps/server/src/app";
import type { AppContext } from "../apps/server/src/context";
import { buildFeatureServices, defineJobs } from "../apps/server/src/features";
import { createInfra } from "../apps/server/src/infra";
import { loadConfig } from "../apps/server/src/infra/config";
import type { App } from "../apps/server/src/infra/http";

/**
 * A benchmark of one connector, kept in that connector's folder (apps/server/src/connectors/<key>/bench/,
 * exporting `benchmark`) so it leaves with the connector; bench/run-all.ts finds it.
 */
export interface ConnectorBenchmark {
  /** Its name on run-all's command line. */
  name: string;
  run(): Promise<unknown>;
}

export interface BenchServer {
  app: App;
  url: string;
  /** The data folder (SQLite file and uploads). */
  dataDir: string;
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** More server variables (a provider fake's `env`). */
  env?: Record<string, string>;
  /** Start on this data folder (its SQLite file kept from an earlier server) instead of a fresh one. */
  dataDir?: string;
  /** Leave the data folder in place on close, so another server can start on it. */
  keepData?: boolean;
}

/**
 * The real server, in this process, on a fresh SQLite file (or `options.dataDir`'s), listening on a free
 * loopback port.
 */
export async function startServer(webDist?: string, options: StartServerOptions = {}): Promise<BenchServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "reportz-bench-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    RATE_LIMIT_AUTH_MAX: "100000",
    ...options.env,
  });
  const logger = pino({ level: "silent" });
  const infra = await createInfra(config, { logger, sqliteFile: "bench.sqlite" });
  const ctx: AppContext = { ...infra, config };
  const app = await buildApp(ctx, webDist ? { webDist } : {});
  // The baseline: a hello-world route of the same server.
  app.get("/bench/hello", { config: { public: true } }, async () => ({ hello: "world" }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    async close() {
      await app.close();
      await infra.close();
      if (!options.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The real server wired as `main.ts` wires a process (services, their jobs defined and running here),
 * in this process on a fresh SQLite file, listening on `PORT` (which the renderer's print-view address
 * needs to know before the config is read).
 */
export async function startJobsServer(webDist: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-bench-"));
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    RATE_LIMIT_AUTH_MAX: "100000",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    // The render and job capacity may be tried out from the command line (BROWSER_PAGES=4 npx tsx …).
    ...Object.fromEntries(
      ["BROWSER_PAGES", "JOBS_CONCURRENCY"].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
    ),
    ...env,
  });
  const infra = await createInfra(config, { logger: pino({ level: "silent" }), sqliteFile: "bench.sqlite" });
  const ctx: AppContext = { ...infra, config };
  const services = buildFeatureServices(ctx);
  defineJobs(ctx, services);
  const app = await buildApp(ctx, { webDist, services });
  await app.listen({ port, host: "127.0.0.1" });
  return {
    ctx,
    services,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await services.close();
      await infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");

/** A free loopback port (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * CPU time (user + system, ms) used so far by the live processes of a process group, from /proc (Linux;
 * null elsewhere). Per request it shows what the server pays even when other work shares the cores.
 */
export function groupCpuMs(pgid: number): number | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

export interface ServerProcess {
  url: string;
  /** Also its process group id (it leads its own group). */
  pid: number;
  /** Where the process's stdout and stderr (its request log) went. */
  logFile: string;
  close(): Promise<void>;
}

/**
 * Starts a command in its own process group, its output to a file (a log nobody reads must not
 * block on a full pipe), and waits until `readyPath` answers 200. `close` sends SIGTERM to that group.
 */
export async function spawnServer(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number; readyPath: string; logFile: string },
): Promise<ServerProcess> {
  const out = fs.openSync(options.logFile, "w");
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", out, out],
    detached: true,
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited early; see ${options.logFile}`);
    if (Date.now() - started > 120_000) {
      process.kill(-(child.pid as number), "SIGKILL");
      throw new Error(`${command} did not answer ${options.readyPath} in 120 s; see ${options.logFile}`);
    }
    const ok = await fetch(url + options.readyPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid as number,
    logFile: options.logFile,
    async close() {
      if (child.exitCode === null) {
        process.kill(-(child.pid as number), "SIGTERM");
        const timer = setTimeout(
          () => child.exitCode === null && process.kill(-(child.pid as number), "SIGKILL"),
          15_000,
        );
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** A signed-in API client over fetch, holding the session cookie and identification like the SPA. */
export class BenchClient {
  cookie = "";
  identification = "";
  constructor(readonly base: string) {}

  headers(): Record<string, string> {
    return {
      cookie: this.cookie,
      "content-type": "application/json",
      "x-requested-with": "XMLHttpRequest",
      "x-identification": this.identification,
    };
  }

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(this.base + url, {
      method,
      headers: this.headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${await response.text()}`);
    return (response.status === 204 ? null : await response.json()) as T;
  }

  /** Registers a company and passes the intro. */
  async signUp(): Promise<{ email: string; password: string }> {
    const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    const password = "bench-password";
    const response = await fetch(`${this.base}/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
      body: JSON.stringify({
        name: "Bench",
        email,
        password,
        password_confirmation: password,
        terms_consent: true,
        age_consent: true,
      }),
    });
    if (!response.ok) throw new Error(`register ${response.status}`);
    await this.session(response);
    await this.call("POST", "/api/user/data", { intro_passed: true });
    return { email, password };
  }

  /** Signs in an existing user (POST /login), as the sign-in form does. */
  async signIn(email: string, password: string): Promise<void> {
    const response = await fetch(`${this.base}/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) throw new Error(`login ${response.status} ${await response.text()}`);
    await this.session(response);
  }

  /** Keeps the session cookie an answer set, and the identification the page data hands out with it. */
  private async session(response: Response): Promise<void> {
    this.cookie = (response.headers.getSetCookie().find((c) => c.startsWith("session=")) ?? "").split(";")[0];
    const page = await (await fetch(`${this.base}/api/page-data`, { headers: { cookie: this.cookie } })).json();
    this.identification = page.identification;
  }
}

const VARIANTS: Array<{ type: string; metrics: string[]; dimension: string | null; format: string }> = [
  { type: "demo.analytics", metrics: ["sessions", "users"], dimension: "date", format: "chart:line" },
  { type: "demo.analytics", metrics: ["sessions"], dimension: null, format: "summary" },
  { type: "demo.analytics", metrics: ["sessions", "bounce_rate"], dimension: "channel", format: "table" },
  { type: "demo.analytics", metrics: ["sessions"], dimension: "device", format: "chart:pie" },
  { type: "demo.search", metrics: ["clicks", "impressions"], dimension: "date", format: "chart:area" },
  { type: "demo.search", metrics: ["ctr"], dimension: null, format: "chart:gauge" },
  { type: "demo.search", metrics: ["clicks", "ctr", "position"], dimension: "query", format: "table" },
  { type: "demo.ads", metrics: ["cost", "conversions"], dimension: "campaign", format: "chart:bar" },
  { type: "demo.ads", metrics: ["cpc"], dimension: null, format: "summary" },
  { type: "demo.ecommerce", metrics: ["revenue", "orders"], dimension: "date", format: "chart:bar" },
  { type: "demo.ecommerce", metrics: ["revenue"], dimension: "country", format: "chart:radar" },
  { type: "demo.social", metrics: ["reach", "engagement"], dimension: "date", format: "chart:line" },
];

/** 24 distinct interactive Demo widgets (every format), as a dashboard's widget list. */
export function twentyFourWidgets(sourceId: string): TWidget[] {
  return Array.from({ length: 24 }, (_, i) => {
    const variant = VARIANTS[i % VARIANTS.length];
    const property = i < VARIANTS.length ? "acme-software" : "northwind-shop";
    return buildWidget({
      id: `w${i}`,
      order: i,
      hash: `h${i}`,
      width: variant.format === "summary" || variant.format === "chart:gauge" ? 1 : 2,
      title: `${variant.type.split(".")[1]} ${variant.metrics.join(", ")} #${i + 1}`,
      format: variant.format as TInteractiveWidget["format"],
      instances: [
        buildInstance({
          id: `i${i}`,
          type: variant.type,
          sourceId,
          config: "default",
          inputs: {
            property,
            metrics: variant.metrics,
            ...(variant.dimension ? { dimension: variant.dimension } : {}),
          },
        }),
      ],
    });
  });
}

/** Creates a Demo source and a dashboard holding the 24 widgets; returns what the benches need. */
export async function seedDashboard(client: BenchClient) {
  const source = await client.call<{ data: { id: string } }>("POST", "/api/sources", { name: "demo" });
  const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
    name: "Bench dashboard",
  });
  const dashboard = await client.call<{ data: { id: string; startDate: string; endDate: string } }>(
    "GET",
    `/api/dashboards/${created.data.permalink}`,
  );
  const widgets = twentyFourWidgets(source.data.id);
  const form = new FormData();
  form.set("widgets", JSON.stringify(widgets));
  const { "content-type": _omit, ...headers } = client.headers();
  const saved = await fetch(`${client.base}/api/dashboards/${dashboard.data.id}`, {
    method: "POST",
    headers,
    body: form,
  });
  if (!saved.ok) throw new Error(`save ${saved.status} ${await saved.text()}`);
  return {
    permalink: created.data.permalink,
    widgets,
    startDate: dashboard.data.startDate,
    endDate: dashboard.data.endDate,
  };
}

export function fmt(n: number, digits = 2): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/**
 * Serves `html` (a page frozen with no script) at any path and the built assets of `dist` as the product
 * does (brotli when there is one): the floor a page of the same content, styles and size loads in.
 */
export function serveFrozen(html: string, dist: string): Promise<{ url: string; close: () => void }> {
  const page = zlib.brotliCompressSync(Buffer.from(html));
  const types: Record<string, string> = { ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml" };
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (!pathname.startsWith("/assets/")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "br" }).end(page);
      return;
    }
    const file = path.join(dist, path.normalize(pathname));
    const type = types[path.extname(file)] ?? "application/octet-stream";
    if (fs.existsSync(`${file}.br`)) {
      res.writeHead(200, { "content-type": type, "content-encoding": "br" }).end(fs.readFileSync(`${file}.br`));
    } else if (fs.existsSync(file)) {
      res.writeHead(200, { "content-type": type }).end(fs.readFileSync(file));
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/dashboards/frozen`, close: () => server.close() });
    }),
  );
}
