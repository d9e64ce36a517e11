import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { serverOnlyMessage } from "../../packages/core/src/i18n/areas";

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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files the server sends; source maps are fetched by developer tools only. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every built text file, once, at build
 * time: the server's static files (preCompressed) send them as they are, so no request pays for
 * compression and the slowest, smallest settings are affordable. A variant no smaller is not written.
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "reportz:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const source = await fs.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzip(source, { level: 9 }),
          ]);
          if (br.length < source.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < source.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * echarts and zrender modules except those of one series type or optional component (charts/parts) and
 * the SVG renderer, which only the print view loads.
 */
const ECHARTS_SHARED =
  /[\\/]node_modules[\\/](?:zrender[\\/](?!lib[\\/]svg[\\/])|echarts[\\/](?!lib[\\/](?:chart[\\/](?:line|bar|pie|radar|gauge)[\\/]|component[\\/](?:radar|dataset|graphic)|coord[\\/]radar[\\/]|renderer[\\/]installSVGRenderer)))/;

/**
 * React Router 7's package exports only its development build (warnings, invariant messages, extra
 * checks on every navigation and render); its production build sits beside it, unexported. A production
 * bundle takes that one, for both entry points so they share one router context.
 */
const reactRouterDir = path.dirname(createRequire(import.meta.url).resolve("react-router/package.json"));
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: path.join(reactRouterDir, "dist/production/index.mjs") },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDir, "dist/production/dom-export.mjs") },
];

/**
 * The start's chunks (main.tsx imports React and then the app in steps, with dynamic imports) preloaded
 * by the HTML like the entry's own: without this, each step's download would start only when the
 * step before it has run, a waterfall of round trips on a phone.
 */
function preloadStartChunks(): Plugin {
  const STEPS = [/\/src\/render\.tsx$/, /\/react-dom\/client\.js$/];
  return {
    name: "reportz:preload-start-chunks",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const files = new Set<string>();
        const add = (file: string) => {
          const chunk = bundle[file];
          if (files.has(file) || !chunk || chunk.type !== "chunk") return;
          files.add(file);
          for (const dependency of chunk.imports) add(dependency);
        };
        for (const [file, chunk] of Object.entries(bundle)) {
          if (
            chunk.type === "chunk" &&
            chunk.isDynamicEntry &&
            STEPS.some((step) => step.test(chunk.facadeModuleId ?? ""))
          )
            add(file);
        }
        const tags = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({
            tag: "link",
            // Marked: a server-rendered public view leaves them out (it starts no app until the reader acts).
            attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}`, "data-start": true },
            injectTo: "head" as const,
          }));
        return { html, tags };
      },
    },
  };
}

/**
 * The entry's stylesheet first in <head>, before any script: it blocks the first paint, and requests
 * leave in document order, so behind a few dozen module preloads it waited for free connections on a
 * phone's network (Lighthouse's first contentful paint moved by a second). The server puts the screen's
 * own stylesheets at `<!--page-data-->`, right after it, and the screen's modules at the end of <head>.
 */
function stylesFirst(): Plugin {
  return {
    name: "reportz:styles-first",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html) {
        const styles: string[] = [];
        const rest = html.replace(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g, (tag) => {
          styles.push(tag.trim());
          return "";
        });
        if (styles.length === 0 || !rest.includes("<!--page-data-->")) return html;
        return rest.replace("<!--page-data-->", `${styles.join("\n    ")}\n    <!--page-data-->`);
      },
    },
  };
}

/**
 * The server-rendering build (`vite build --ssr src/ssr/server-entry.tsx`, run by the server in Node) takes
 * the server's side of three modules: the API client's transport (answered inside the server), the user
 * HTML sanitiser (the server's, as DOMPurify needs a DOM) and the note of a member's charts to draw ahead
 * (nothing to note in the browser).
 */
const SERVER_MODULES: Array<[string, string]> = [
  ["/src/lib/transport.ts", "src/ssr/transport.server.ts"],
  ["/src/ui/user-html.ts", "src/ssr/user-html.server.ts"],
  ["/src/features/widgets/server-drawings.ts", "src/ssr/server-drawings.server.ts"],
];

const CATALOGUE = /packages\/core\/src\/i18n\/messages\/[\w-]+\.json$/;

/**
 * The browser's copy of each message catalogue without the messages only the server says (core
 * i18n/areas.ts: e-mails, insight and goal-count sentences): the English one is in the public view's
 * first download, and those keys were over a quarter of its weight (docs/decisions.md).
 */
function browserCatalogues(): Plugin {
  return {
    name: "reportz:browser-catalogues",
    enforce: "pre",
    transform(code, id) {
      if (!CATALOGUE.test(id.split("?")[0])) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const kept = Object.fromEntries(Object.entries(messages).filter(([key]) => !serverOnlyMessage(key)));
      return { code: JSON.stringify(kept), map: null };
    },
  };
}

function serverModules(): Plugin {
  return {
    name: "reportz:server-modules",
    enforce: "pre",
    apply: (_config, env) => Boolean(env.isSsrBuild),
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const swap = resolved && SERVER_MODULES.find(([from]) => resolved.id.replaceAll("\\", "/").endsWith(from));
      return swap ? fileURLToPath(new URL(swap[1], import.meta.url)) : null;
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    react(),
    browserCatalogues(),
    serverModules(),
    ...(isSsrBuild ? [] : [preloadStartChunks(), stylesFirst(), precompress()]),
  ],
  // One file the server imports, React and every library inside it: no resolution of the web's packages
  // from the server's process, and the production builds of all of them.
  ssr: { noExternal: true },
  // Vite leaves process.env.NODE_ENV to the runtime in a server build: React's production build, always.
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : undefined,
  resolve: {
    alias: [
      // Core's i18n modules by path (its library stays out of the index: docs/decisions.md, "Report languages").
      {
        find: /^@app\/core\/i18n\/(.*)$/,
        replacement: fileURLToPath(new URL("../../packages/core/src/i18n/", import.meta.url)) + "$1",
      },
      {
        find: /^@app\/core$/,
        replacement: fileURLToPath(new URL("../../packages/core/src/index.ts", import.meta.url)),
      },
      ...(command === "build" ? REACT_ROUTER_PRODUCTION : []),
    ],
    // @mantine/dates sits at the workspace root next to a different @mantine/core patch version;
    // one copy of each keeps a single MantineProvider context.
    dedupe: ["react", "react-dom", "@mantine/core", "@mantine/hooks"],
  },
  // Module workers: the chart snapshots' worker (charts/chart-svg.worker.ts) loads each series type's
  // part as its own chunk, as the page does.
  worker: { format: "es" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The server bundle is not minified: its stack traces read as they are.
    sourcemap: !isSsrBuild,
    // Read by the size budget test (apps/web/src/bundle-budget.test.ts).
    manifest: true,
    // The server bundle (isSsrBuild) is one CommonJS file (server-render.ts evaluates it itself): a lazily
    // loaded part of the view (the chart's box, a tooltip) is ready a microtask after it is asked for, so
    // the second render pass has it.
    copyPublicDir: !isSsrBuild,
    rolldownOptions: isSsrBuild
      ? { output: { codeSplitting: false, format: "cjs", entryFileNames: "[name].cjs" } }
      : {
          // Rolldown would otherwise hoist modules shared by lazy screens into the entry chunk: the public
          // dashboard would then download the Modal, Combobox, NumberInput… of every other screen.
          experimental: { chunkOptimization: { mergeCommonChunks: false } },
          output: {
            codeSplitting: {
              groups: [
                // echarts' shared internals in one chunk loaded with the first chart, instead of a dozen
                // small ones; each series type's own code stays in its part chunk (charts/parts).
                { name: "echarts", test: ECHARTS_SHARED },
                // React Query is on every screen's first load anyway: one chunk instead of the pieces that
                // lazy screens also use split out as files of their own (a request each on the public view).
                { name: "react-query", test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ },
              ],
            },
          },
        },
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
}));
