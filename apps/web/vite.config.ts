import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

const API_TARGET = "http://127.0.0.1:3000";

/** API paths always go to the server. */
const apiProxy: ProxyOptions = { target: API_TARGET, changeOrigin: false };

/**
 * /login, /register, /password/… are both SPA pages (GET) and form endpoints (POST):
 * only the non-GET requests go to the server, so the dev server keeps rendering the pages.
 */
const formProxy: ProxyOptions = {
  target: API_TARGET,
  changeOrigin: false,
  bypass: (req) => (req.method === "GET" || req.method === "HEAD" ? req.url : undefined),
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      "@app/core": fileURLToPath(new URL("../../packages/core/src/index.ts", import.meta.url)),
    },
    // @mantine/dates sits at the workspace root next to a different @mantine/core patch version;
    // one copy of each keeps a single MantineProvider context.
    dedupe: ["react", "react-dom", "@mantine/core", "@mantine/hooks"],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      "/api": apiProxy,
      "/login": formProxy,
      "/logout": apiProxy,
      "/register": formProxy,
      "/password": formProxy,
    },
  },
});
