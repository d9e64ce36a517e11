#!/usr/bin/env node
/**
 * Feature boundaries, run by `npm run lint`:
 * - server: a feature (apps/server/src/features/<f>) reaches another feature through its service,
 *   never by importing that feature's repo.ts (its SQL) or routes.ts (its HTTP edge);
 * - web: a feature (apps/web/src/features/<f>) uses another feature only through its public modules
 *   (index, hooks, api, lazy: what it lets others load on demand, and keys: the query keys it caches
 *   server state under, for features that update that state), never its components, queries or other
 *   internals.
 * Exits 1 listing each violation. `findViolations(root)` is exported for the test that proves it fails.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const RULES = [
  {
    dir: "apps/server/src/features",
    allowed: (target) => !["repo", "routes"].includes(target.module),
    why: "reach another server feature through its service, not its repo or routes",
  },
  {
    dir: "apps/web/src/features",
    allowed: (target) => target.depth === 1 && ["index", "hooks", "api", "lazy", "keys"].includes(target.module),
    why: "use another web feature through its index, hooks, api, lazy or keys module only",
  },
];

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
// Static imports and re-exports, and dynamic import("…").
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function* files(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* files(full);
    } else if (SOURCE.test(entry.name)) {
      yield full;
    }
  }
}

/** The feature a path lies in, and the module inside it (path without extension, depth below the feature). */
function locate(featuresDir, file) {
  const relative = path.relative(featuresDir, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  if (parts.length < 2) return null;
  const last = parts[parts.length - 1].replace(/\.(ts|tsx|mts|js|mjs)$/, "");
  return { feature: parts[0], module: last, depth: parts.length - 1 };
}

/** Every import in `root` that crosses a feature boundary the wrong way, as "file: import (why)". */
export function findViolations(root) {
  const found = [];
  for (const rule of RULES) {
    const featuresDir = path.join(root, rule.dir);
    for (const file of files(featuresDir)) {
      const from = locate(featuresDir, file);
      if (!from) continue;
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const target = locate(featuresDir, path.resolve(path.dirname(file), match[1]));
        if (!target || target.feature === from.feature) continue;
        // (An import of a feature's folder, "../session", is its index: locate() gives null for it.)
        if (!rule.allowed(target)) found.push(`${path.relative(root, file)}: "${match[1]}" (${rule.why})`);
      }
    }
  }
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const violations = findViolations(root);
  for (const line of violations) console.error(line);
  if (violations.length > 0) {
    console.error(`${violations.length} import(s) cross a feature boundary.`);
    process.exit(1);
  }
}
