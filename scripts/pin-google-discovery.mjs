#!/usr/bin/env node
/**
 * Pins a trimmed copy of a Google discovery document in a connector's folder (docs/connectors.md,
 * "Google's API descriptions"): only the methods the connector calls and the schemas they reach
 * (closed over `$ref`), without the prose (descriptions, icons, auth scopes), with where it came from.
 *
 *   node scripts/pin-google-discovery.mjs [--amend=<amendments.json>] <full.json> <source url> <YYYY-MM-DD> <out.json> <method id>…
 *
 * `--amend` names values Google's reference pages list but the newest document to be had lacks (an enum
 * value added since): `[{ "enumContaining": "CALL_CLICKS", "add": ["MESSAGING_CLICKS"], "source": url,
 * "why": "…" }]` adds to every enum holding the marker value; the pin records each amendment.
 *
 * `full.json` is the whole document (Google's Node.js client keeps them as `discovery/<api>-<version>.json`);
 * the source url names that file at the commit it was taken from. Method ids are the document's own
 * (`analyticsdata.properties.runReport`). The output is stable (keys sorted) so a refresh diffs cleanly.
 */
import fs from "node:fs";

const args = process.argv.slice(2);
const amendFile = args[0]?.startsWith("--amend=") ? args.shift()?.slice("--amend=".length) : null;
const amendments = amendFile ? JSON.parse(fs.readFileSync(amendFile, "utf8")) : [];
const [full, url, retrieved, out, ...methodIds] = args;
if (!full || !url || !/^\d{4}-\d{2}-\d{2}$/.test(retrieved ?? "") || !out || methodIds.length === 0) {
  console.error("usage: pin-google-discovery.mjs <full.json> <source url> <YYYY-MM-DD> <out.json> <method id>…");
  process.exit(2);
}
const doc = JSON.parse(fs.readFileSync(full, "utf8"));

/** Prose and what the checks never read. */
const DROPPED = new Set(["description", "enumDescriptions", "scopes", "icons", "auth", "enumDeprecated", "deprecated"]);

/** Maps whose keys are names (a property may be called `description`): their keys are all kept. */
const NAMED = new Set(["properties", "parameters", "schemas", "resources", "methods"]);

function strip(value, named = false) {
  if (Array.isArray(value)) return value.map((item) => strip(item));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => named || !DROPPED.has(key))
      .map((key) => [key, strip(value[key], !named && NAMED.has(key))]),
  );
}

/** The wanted methods, kept under their resource path. */
const wanted = new Set(methodIds);
const found = new Set();
function trimResources(resources) {
  const kept = {};
  for (const [name, resource] of Object.entries(resources ?? {})) {
    const methods = Object.fromEntries(
      Object.entries(resource.methods ?? {}).filter(([, method]) => wanted.has(method.id)),
    );
    for (const method of Object.values(methods)) found.add(method.id);
    const children = trimResources(resource.resources);
    const entry = {};
    if (Object.keys(methods).length > 0) entry.methods = methods;
    if (Object.keys(children).length > 0) entry.resources = children;
    if (Object.keys(entry).length > 0) kept[name] = entry;
  }
  return kept;
}
const resources = trimResources(doc.resources);
const missing = methodIds.filter((id) => !found.has(id));
if (missing.length > 0) {
  console.error(`not in ${full}: ${missing.join(", ")}`);
  process.exit(1);
}

/** Every schema a kept method reaches, through `$ref`s at any depth. */
const schemas = {};
function reach(value) {
  if (Array.isArray(value)) return value.forEach(reach);
  if (value === null || typeof value !== "object") return;
  if (typeof value.$ref === "string" && !(value.$ref in schemas)) {
    const target = doc.schemas?.[value.$ref];
    if (!target) throw new Error(`$ref ${value.$ref} is not among the document's schemas`);
    schemas[value.$ref] = target;
    reach(target);
  }
  for (const child of Object.values(value)) reach(child);
}
reach(resources);

/** Applies the amendments to every enum holding their marker value; each must apply somewhere. */
function amend(value, amendment) {
  if (Array.isArray(value)) {
    if (value.includes(amendment.enumContaining)) {
      for (const added of amendment.add) if (!value.includes(added)) value.push(added);
      return 1;
    }
    return value.reduce((count, item) => count + amend(item, amendment), 0);
  }
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce((count, child) => count + amend(child, amendment), 0);
}
const trimmed = { resources, schemas };
for (const amendment of amendments) {
  if (amend(trimmed, amendment) === 0) {
    console.error(`no enum holds ${amendment.enumContaining}: the amendment does not apply`);
    process.exit(1);
  }
}

const pinned = {
  pinned: {
    source: url,
    retrieved,
    methods: [...methodIds].sort(),
    ...(amendments.length > 0 ? { amendments } : {}),
  },
  ...strip({
    id: doc.id,
    name: doc.name,
    version: doc.version,
    revision: doc.revision,
    rootUrl: doc.rootUrl,
    servicePath: doc.servicePath,
    parameters: doc.parameters,
    resources,
    schemas: Object.fromEntries(
      Object.keys(schemas)
        .sort()
        .map((key) => [key, schemas[key]]),
    ),
  }),
};
fs.writeFileSync(out, `${JSON.stringify(pinned, null, 2)}\n`);
console.log(`${out}: ${methodIds.length} methods, ${Object.keys(schemas).length} schemas`);
