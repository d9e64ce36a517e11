// Start-and-serve smoke test of the built server under a given Node binary (scripts/node-lines.sh runs it
// on each supported LTS line). Plain JavaScript so that it runs on any Node: the driver runs on the
// machine's Node, the server on the one named by SMOKE_NODE.
//
// What a newcomer's first minute needs: the server starts, migrates an empty PostgreSQL database, seeds the
// demo account, answers /api/health, the demo admin logs in, the page data names them and the app's page
// is served. PostgreSQL, not SQLite: better-sqlite3 is a native module built for the Node that installed
// it, and rebuilding it per line costs CI minutes; the server loads it only when it opens a SQLite file.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const nodeBin = process.env.SMOKE_NODE ?? process.execPath;
const clusterUrl = process.env.TEST_DATABASE_URL;
if (!clusterUrl) {
  console.error("smoke-serve: TEST_DATABASE_URL must name a PostgreSQL cluster (bash .ci/run starts one).");
  process.exit(2);
}
const PASSWORD = "smoke-demo-password";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function fail(message, log) {
  console.error(`smoke-serve (${nodeBin}): ${message}`);
  if (log) console.error(log.slice(-4000));
  process.exitCode = 1;
}

const version = await new Promise((resolve) => {
  const child = spawn(nodeBin, ["--version"]);
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.on("close", () => resolve(out.trim()));
});
const dbName = `smoke_${version.replace(/\W/g, "_")}_${process.pid}`;
const admin = new pg.Client({ connectionString: clusterUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(clusterUrl);
dbUrl.pathname = `/${dbName}`;

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-smoke-"));
const child = spawn(nodeBin, ["--enable-source-maps", path.join(root, "apps/server/dist/main.mjs")], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: "development",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl.toString(),
    DEMO_PASSWORD: PASSWORD,
    LOG_LEVEL: "warn",
  },
});
let log = "";
child.stdout.on("data", (d) => {
  log += d;
});
child.stderr.on("data", (d) => {
  log += d;
});
const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));

const base = `http://127.0.0.1:${port}`;
try {
  const deadline = Date.now() + 60_000;
  let healthy = false;
  while (!healthy && Date.now() < deadline) {
    const early = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 250))]);
    if (early !== undefined) throw new Error(`the server exited with ${early} before it was healthy`);
    healthy = await fetch(`${base}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
  }
  if (!healthy) throw new Error("/api/health did not answer 200 within 60 s");

  const login = await fetch(`${base}/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
    body: JSON.stringify({ email: "demo@reportz.local", password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`demo login answered ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const pageData = await fetch(`${base}/api/page-data`, { headers: { cookie } }).then((res) => res.json());
  if (pageData?.user?.email !== "demo@reportz.local") throw new Error("the page data does not name the demo admin");
  const page = await fetch(`${base}/dashboards`, { headers: { cookie } });
  const html = await page.text();
  if (page.status !== 200 || !/<script[^>]+type="module"/.test(html)) throw new Error("the app's page was not served");
  console.log(`smoke-serve: ${version} started, migrated, seeded, logged the demo admin in and served the app`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error), log);
} finally {
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  child.kill("SIGKILL");
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
