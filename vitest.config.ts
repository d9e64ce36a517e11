import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// One runner for unit (core) and server integration tests. Server tests share one
// SQLite file per worker and, when TEST_DATABASE_URL is set, a PostgreSQL database.

// One id per run, in every test database's name (apps/server/test/global-setup.ts): the run's teardown
// drops only its own, so two runs may share a cluster.
process.env.TEST_DB_RUN ??= Math.random().toString(36).slice(2, 8);
export default defineConfig({
  test: {
    projects: [
      // Core and the web app's logic are pure modules: their files share one module graph per worker
      // (`isolate: false`) instead of importing it again for each of ~100 files, which was ~80 % of these
      // projects' time (docs/decisions.md, "The test projects share their modules").
      { test: { name: "core", include: ["packages/core/src/**/*.test.ts"], environment: "node", isolate: false } },
      // Pure logic of the web app (no DOM needed); screens are tested in the browser (e2e).
      { test: { name: "web", include: ["apps/web/src/**/*.test.ts"], environment: "node", isolate: false } },
      {
        test: {
          name: "server",
          include: ["apps/server/src/**/*.test.ts", "apps/server/test/**/*.test.ts"],
          environment: "node",
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: false,
          // Isolated (the default): unisolated, this project ran in ~55 % of the time, but two clean-clone CI
          // runs each failed once on a test race the isolated runs had never shown (docs/decisions.md, "The
          // test projects share their modules").
          // On PostgreSQL, fails the run if a suite left its `t_…` database behind.
          globalSetup: ["apps/server/test/global-setup.ts"],
          // Outbound HTTP to anything but loopback fails the test that made it.
          setupFiles: ["apps/server/test/network-guard.ts"],
          // Each test process trusts the test-only certificate of the HTTPS front before the fakes
          // (apps/server/test/tls-front.ts); Node reads this when the process starts.
          env: {
            TEST_DB_RUN: process.env.TEST_DB_RUN,
            NODE_EXTRA_CA_CERTS: fileURLToPath(
              new URL("apps/server/test/fixtures/tls/test-only-127.0.0.1.cert.pem", import.meta.url),
            ),
          },
        },
      },
    ],
  },
});
