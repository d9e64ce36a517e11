import fs from "node:fs";
import path from "node:path";
import { matchRoute, ZPageData } from "@app/core";
import fastifyStatic from "@fastify/static";
import type { App } from "../../infra/http";

import type { PageDataService } from "./service";

const PLACEHOLDER = "<!--page-data-->";
const FALLBACK_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reportz</title>${PLACEHOLDER}</head><body><div id="root">The web app is not built yet: run npm run build.</div></body></html>`;

/**
 * The web modules (Vite manifest keys) a screen needs besides the entry. Its HTML names them, so the
 * browser fetches them alongside the entry rather than after it has run: one round trip less before
 * the public dashboard draws on a slow phone network.
 */
const SCREEN_MODULES: Record<string, string[]> = {
  "dashboard.show": ["src/routes/dashboard-show.tsx", "src/app/layouts/BareLayout.tsx"],
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** Per route name, the <link> tags of its screen's files that the entry does not already load. */
export function screenPreloads(webDist: string): Map<string, string> {
  const result = new Map<string, string>();
  const manifestFile = path.join(webDist, ".vite", "manifest.json");
  if (!fs.existsSync(manifestFile)) return result;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>;
  const closure = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const entry = closure(["index.html"]);
  const entryCss = new Set([...entry].flatMap((key) => manifest[key].css ?? []));
  for (const [name, keys] of Object.entries(SCREEN_MODULES)) {
    const chunks = [...closure(keys)].filter((key) => !entry.has(key));
    const css = [...new Set(chunks.flatMap((key) => manifest[key].css ?? []))].filter((file) => !entryCss.has(file));
    const tags = [
      ...css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
      ...chunks.map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key].file}">`),
    ];
    if (tags.length > 0) result.set(name, tags.join(""));
  }
  return result;
}

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
  const preloads = screenPreloads(webDist);
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
    const route = preloads.size > 0 ? matchRoute(url)?.route.name : undefined;
    const head = `${(route && preloads.get(route)) ?? ""}<script id="page-data" type="application/json">${json}</script>`;
    const html = template.replace(PLACEHOLDER, head);
    return reply.code(200).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
  });
}
