import fs from "node:fs";
import path from "node:path";
import { type GraphSdk, parseSdkModule } from "./graph-sdk";

/**
 * Refreshes facebookAds/graph-sdk.json from a checkout of Meta's Python business SDK (docs/connectors.md):
 * `npx tsx apps/server/src/connectors/meta/graph-sdk-refresh.ts …`.
 * A file of its own, never imported by the server: a command-line entry inside a module the server
 * bundles would run when the bundle starts (it did: the built server stopped at start with its usage).
 */
const [checkout, pinnedPath, url, retrieved] = process.argv.slice(2);
if (!checkout || !pinnedPath)
  throw new Error("usage: graph-sdk-refresh.ts <sdk checkout> <graph-sdk.json> [url] [date]");
const old = JSON.parse(fs.readFileSync(pinnedPath, "utf8")) as GraphSdk;
const objects: GraphSdk["objects"] = {};
for (const [name, entry] of Object.entries(old.objects)) {
  const text = fs.readFileSync(path.join(checkout, "facebook_business/adobjects", `${entry.module}.py`), "utf8");
  objects[name] = { module: entry.module, ...parseSdkModule(text) };
}
const pinned = {
  ...old["x-pinned"],
  url: url || old["x-pinned"].url,
  retrieved: retrieved || new Date().toISOString().slice(0, 10),
};
fs.writeFileSync(pinnedPath, `${JSON.stringify({ "x-pinned": pinned, objects }, null, 2)}\n`);
