#!/usr/bin/env node
/**
 * Pins Google Ads' field metadata for the resources a connector queries (docs/connectors.md, "Google's API
 * descriptions"). Google publishes it through GoogleAdsFieldService, not a discovery document; the
 * `google-ads-api` npm package (Opteo) generates `src/protos/autogen/fields.ts` from that service for
 * each API version: per resource, the attributes (its own and its attributed resources'), metrics and
 * segments selectable in a query FROM it. This keeps those lists for the named resources.
 *
 *   node scripts/pin-google-ads-fields.mjs <fields.ts> <source url> <YYYY-MM-DD> <vNN> <out.json> <resource>…
 *
 * Resources are GAQL's names (`campaign`, `keyword_view`). The output is sorted so a refresh diffs cleanly.
 */
import fs from "node:fs";

const [file, url, retrieved, version, out, ...resources] = process.argv.slice(2);
if (!file || !url || !/^\d{4}-\d{2}-\d{2}$/.test(retrieved ?? "") || !/^v\d+$/.test(version ?? "") || !out) {
  console.error("usage: pin-google-ads-fields.mjs <fields.ts> <source url> <YYYY-MM-DD> <vNN> <out.json> <resource>…");
  process.exit(2);
}
if (resources.length === 0) {
  console.error("name at least one resource");
  process.exit(2);
}
const text = fs.readFileSync(file, "utf8");

/** `keyword_view` → `KeywordView`, as the generated type names spell it. */
const typeName = (resource) =>
  resource
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

/** The string members of `export type <name> = | "a" | "b";` (none when the type is absent). */
function union(name) {
  const start = text.indexOf(`export type ${name} =`);
  if (start < 0) return [];
  const end = text.indexOf(";", start);
  return [...text.slice(start, end).matchAll(/"([^"]+)"/g)].map((match) => match[1]).sort();
}

const pinned = {
  pinned: { source: url, retrieved, version },
  resources: {},
};
for (const resource of [...resources].sort()) {
  const type = typeName(resource);
  const attributes = union(`${type}Field`);
  if (attributes.length === 0) {
    console.error(`no ${type}Field in ${file}: is ${resource} a resource?`);
    process.exit(1);
  }
  pinned.resources[resource] = {
    attributes,
    metrics: union(`${type}Metric`),
    segments: union(`${type}Segment`),
  };
}
fs.writeFileSync(out, `${JSON.stringify(pinned, null, 2)}\n`);
console.log(`${out}: ${resources.join(", ")}`);
