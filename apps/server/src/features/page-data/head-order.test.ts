import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDb } from "../../../test/harness";
import { buildApp } from "../../app";
import type { App } from "../../infra/http";

/**
 * The order of a dashboard page's <head> (docs/decisions.md, "The stylesheet first in the page's head"): requests leave in document order, so the
 * render-blocking stylesheets come first, then the page data and the entry's scripts (the Vite build
 * puts those in index.html), and the screen's module preloads last, where they cannot hold back the
 * first paint.
 */
describeEachDb("the head of a shared dashboard's page", (env) => {
  let app: App;

  beforeAll(async () => {
    const webDist = fs.mkdtempSync(path.join(env().dataDir, "web-"));
    fs.mkdirSync(path.join(webDist, ".vite"), { recursive: true });
    fs.writeFileSync(
      path.join(webDist, "index.html"),
      '<!doctype html><html><head><title>Reportz</title><link rel="stylesheet" href="/assets/index-1.css"><!--page-data--><script type="module" src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>',
    );
    const manifest = {
      "index.html": { file: "assets/index-1.js", imports: ["_shared.js"], css: ["assets/index-1.css"] },
      "_shared.js": { file: "assets/shared-1.js" },
      "src/routes/dashboard-show.tsx": { file: "assets/dashboard-show-1.js", imports: ["_shared.js", "_screen.js"] },
      "_screen.js": { file: "assets/DashboardScreen-1.js", css: ["assets/DashboardScreen-1.css"] },
      "src/app/layouts/BareLayout.tsx": { file: "assets/BareLayout-1.js" },
    };
    fs.writeFileSync(path.join(webDist, ".vite", "manifest.json"), JSON.stringify(manifest));
    app = await buildApp(env().ctx, { webDist });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it("stylesheets first, the screen's modules after the entry's script, nothing the entry loads twice", async () => {
    const response = await app.inject({ url: "/dashboards/someDashboard" });
    expect(response.statusCode).toBe(200);
    const head = response.body.slice(0, response.body.indexOf("</head>"));
    const links = [...head.matchAll(/<(link|script)[^>]*(?:href|src|id)="([^"]+)"/g)].map((match) => match[2]);
    expect(links).toEqual([
      "/assets/index-1.css",
      "/assets/DashboardScreen-1.css",
      "page-data",
      "/assets/index-1.js",
      "/assets/dashboard-show-1.js",
      "/assets/DashboardScreen-1.js",
      "/assets/BareLayout-1.js",
    ]);
    expect(head.endsWith('<link rel="modulepreload" crossorigin href="/assets/BareLayout-1.js">')).toBe(true);
  });
});
