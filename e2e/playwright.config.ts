import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { allFakesEnv } from "../apps/server/test/fakes/all";
import { CHROMIUM_LAUNCH_OPTIONS } from "./chromium";

// One fresh data folder per run, shared with workers through the environment.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `reportz-e2e-${Date.now()}`);
process.env.E2E_PORT ??= "3173"; // helpers running in parallel pick their own
// The demo login is random unless set; the browser tests need to know it.
process.env.E2E_DEMO_PASSWORD ??= "e2e-demo-password";
const port = Number(process.env.E2E_PORT);
// The provider fakes (apps/server/test/fakes/, npm run dev:fakes), next door.
const googlePort = port + 1;
const google = `http://127.0.0.1:${googlePort}`;
// Card payments (docs/decisions.md "Registration with payment"): the main server runs with them off, so
// a sign-up in the page makes a company in its trial as before; a second server next door has the
// Stripe fake on, for the specs that pay or play Stripe's webhooks (test.use baseURL E2E_PAYMENTS_URL).
const paymentsPort = port + 2;
process.env.E2E_PAYMENTS_URL ??= `http://127.0.0.1:${paymentsPort}`;
const fakesEnv = allFakesEnv(google);
const withoutPayments = Object.fromEntries(Object.entries(fakesEnv).filter(([name]) => !name.startsWith("STRIPE_")));
const serverEnv = (serverPort: number, dataDir: string, providers: Record<string, string>) => ({
  NODE_ENV: "test",
  PORT: String(serverPort),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  APP_URL: `http://127.0.0.1:${serverPort}`,
  RATE_LIMIT_AUTH_MAX: "1000",
  LOG_LEVEL: "warn",
  SEED_DEMO: "true",
  DEMO_PASSWORD: process.env.E2E_DEMO_PASSWORD ?? "",
  // Sender verification asks a DNS server nobody runs: every lookup fails fast, offline.
  DNS_SERVERS: "127.0.0.1:9",
  // Every provider connector points at the fakes (npm run dev:fakes), never at the real provider.
  ...providers,
});

// The server as `npm start` runs it (apps/server/build.mjs, then plain Node): the browser tests try what
// users run. Each of the two servers builds (1 s); the build's write is atomic, so they may race.
const SERVER_COMMAND = "node ../apps/server/build.mjs && node --enable-source-maps ../apps/server/dist/main.mjs";

export default defineConfig({
  // Two places hold browser tests: e2e/tests/ (the product's screens) and each connector's own folder,
  // apps/server/src/connectors/<key>/e2e/ (what a user sees of that one connector: its connect dialog,
  // its widgets), so a connector's browser tests leave with its folder (docs/adding-a-connector.md).
  projects: [
    { name: "product", testDir: "./tests" },
    { name: "connectors", testDir: "../apps/server/src/connectors", testMatch: /\/[^/]+\/e2e\/[^/]+\.spec\.ts$/ },
  ],
  outputDir: "./test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  webServer: [
    {
      command: "npx tsx ../apps/server/test/fakes/serve.ts",
      url: `${google}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      // A payment in the fake checkout sends Stripe's signed webhooks to the payments server.
      env: {
        FAKES_PORT: String(googlePort),
        STRIPE_FAKE_WEBHOOK_URL: `${process.env.E2E_PAYMENTS_URL}/api/payment/webhook`,
      },
    },
    {
      command: SERVER_COMMAND,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      // Its warnings and errors (LOG_LEVEL warn) go to the run's output: a failed test's server side.
      stdout: "pipe",
      env: serverEnv(port, process.env.E2E_DATA_DIR, withoutPayments),
    },
    {
      command: SERVER_COMMAND,
      url: `${process.env.E2E_PAYMENTS_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: serverEnv(paymentsPort, `${process.env.E2E_DATA_DIR}-payments`, fakesEnv),
    },
  ],
});
