import fs from "node:fs";
import path from "node:path";
import { ZPageData } from "@app/core";
import fastifyStatic from "@fastify/static";
import type { App } from "../../infra/http";

import type { PageDataService } from "./service";

const PLACEHOLDER = "<!--page-data-->";
const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reportz</title>${PLACEHOLDER}</head><body><div id="root">The web app is not built yet: run npm run build.</div></body></html>`;

/** Page data as JSON, and the SPA's HTML with the same data inlined for every non-API path. */
export async function pageDataRoutes(app: App, pageData: PageDataService, webDist: string) {
  app.get(
    "/api/page-data",
    { config: { public: true }, schema: { tags: ["session"], response: { 200: ZPageData } } },
    async (request) => pageData.build(request.auth, request.guestId),
  );

  const indexFile = path.join(webDist, "index.html");
  const hasDist = fs.existsSync(indexFile);
  const template = hasDist ? fs.readFileSync(indexFile, "utf8") : FALLBACK_HTML;
  if (hasDist) {
    // Hashed assets are immutable; index.html is never served from here (it carries page data).
    // The build writes .br and .gz beside each text file (apps/web/vite.config.ts): they are sent as they
    // are to clients that accept them, with `vary: accept-encoding`, so no request pays for compression.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      maxAge: "1y",
      immutable: true,
      preCompressed: true,
    });
  }

  // History-mode fallback: every GET that is not an API call or a file gets the app; its router shows 404s.
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0];
    if (request.method !== "GET" || url.startsWith("/api/") || url === "/api") {
      return reply.code(404).send({ code: "not_found", message: "Not found." });
    }
    const data = await pageData.build(request.auth, request.guestId);
    // Escape "<" so user-controlled strings can never close the script element.
    const json = JSON.stringify(data).replace(/</g, "\\u003c");
    const html = template.replace(PLACEHOLDER, `<script id="page-data" type="application/json">${json}</script>`);
    return reply.code(200).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
  });
}
