import { defineConfig } from "vitest/config";

// One runner for unit (core) and server integration tests. Server tests share one
// SQLite file per worker and, when TEST_DATABASE_URL is set, a PostgreSQL database.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "core", include: ["packages/core/src/**/*.test.ts"], environment: "node" } },
      // Pure logic of the web app (no DOM needed); screens are tested in the browser (e2e).
      { test: { name: "web", include: ["apps/web/src/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "server",
          include: ["apps/server/src/**/*.test.ts", "apps/server/test/**/*.test.ts"],
          environment: "node",
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: false,
          // On PostgreSQL, fails the run if a suite left its `t_…` database behind.
          globalSetup: ["apps/server/test/global-setup.ts"],
          // Outbound HTTP to anything but loopback fails the test that made it.
          setupFiles: ["apps/server/test/network-guard.ts"],
        },
      },
    ],
  },
});
