import fs from "node:fs";
import type { OpenApiDocument, Pinned } from "./openapi";
import { trimOpenApi } from "./openapi-trim";

/**
 * Refreshes a connector's pinned OpenAPI copy from the provider's full document (docs/connectors.md):
 * `npx tsx apps/server/src/connectors/kit/openapi-trim-refresh.ts …`.
 * A file of its own, never imported by the server: a command-line entry inside a module the server
 * bundles would run when the bundle starts (it did: the built server stopped at start with its usage).
 */
const [fullPath, pinnedPath, url, retrieved] = process.argv.slice(2);
if (!fullPath || !pinnedPath)
  throw new Error("usage: openapi-trim-refresh.ts <full.json> <pinned openapi.json> [url] [date]");
const full = JSON.parse(fs.readFileSync(fullPath, "utf8")) as OpenApiDocument;
const old = JSON.parse(fs.readFileSync(pinnedPath, "utf8")) as OpenApiDocument;
const before = old["x-pinned"];
if (!before) throw new Error(`${pinnedPath} has no x-pinned operations`);
const pinned: Pinned = {
  url: url || before.url,
  retrieved: retrieved || new Date().toISOString().slice(0, 10),
  operations: before.operations,
};
fs.writeFileSync(pinnedPath, `${JSON.stringify(trimOpenApi(full, pinned), null, 2)}\n`);
