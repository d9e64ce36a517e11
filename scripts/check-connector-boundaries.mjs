#!/usr/bin/env node
/**
 * Connector boundaries, run by `npm run lint`: everything about a connector lives in its folder
 * (apps/server/src/connectors/<key>/, docs/adding-a-connector.md), so a source file elsewhere must not
 * name a connector's key (which is also its folder's name). Allowed places:
 * - the connector's own folder;
 * - the registry, apps/server/src/connectors/index.ts (the one list of connectors);
 * - a family folder (a folder under connectors/ without an index.ts, such as google/ or meta/) that the
 *   connector imports from: the family's shared OAuth adapter, classifier and fake serve its members and
 *   may name them (scopes per connector, for instance). The kits every connector uses (KITS: the HTTP
 *   client, the OAuth flow, grids, the shared helpers of kit/, the live check of check/) are no family:
 *   they name no connector, whoever imports them;
 * - `.env.example`: the operator's copy of every setting, with the providers' own words; it is checked
 *   against the registry (apps/server/src/infra/env-file.test.ts: exactly the variables the composed
 *   schema reads) rather than generated;
 * - a provider's own word in its connector's folder (VOCABULARY below): a word of the provider's API
 *   that is also a sibling connector's key (Meta's placement "instagram" in Facebook Ads), written as
 *   that quoted string only;
 * Nothing else: there is no list of exempt files. Tests and benchmarks that need "some connector" ask the
 * registry by capability (apps/server/test/connectors.ts, a fake's `fakeDomainDay`); what is about one
 * connector (its browser tests, its benchmarks) lives in its folder (docs/adding-a-connector.md).
 * `demo` and `csv` are not checked: they are also ordinary product words (the demo workspace, CSV
 * exports), so a textual check cannot tell the connector from the word.
 * `--count` prints, per connector, how many files outside its folder name it (the figure the
 * connector-folder work is measured by), and exits 0.
 * Exits 1 listing each violation. `findConnectorViolations(root, vocabulary)` is exported for its test.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CONNECTORS_DIR = "apps/server/src/connectors";
const REGISTRY = `${CONNECTORS_DIR}/index.ts`;
const SCANNED = ["apps", "packages", "e2e", "bench", "scripts", ".env.example"];
const SOURCE = /\.(ts|tsx|mts|js|mjs)$|^\.env\.example$/;
const PRODUCT_WORDS = new Set(["demo", "csv"]);
/** Shared kits under connectors/: folders without an index.ts that are no provider family. */
const KITS = new Set(["http", "oauth", "grid", "kit", "check"]);
/** This script: its VOCABULARY names connector folders. */
const SELF = "scripts/check-connector-boundaries.mjs";

/**
 * A provider's words that are also a sibling connector's key, allowed in that provider's connector
 * folder as the quoted string and nowhere else, with why it is the provider's word. Not debt: the
 * provider speaks so. Anything else there naming the sibling (an import, an identifier, its connector
 * key in code) is still a violation, and an entry the folder no longer says fails the check (so it goes).
 */
export const VOCABULARY = [
  // Meta's ad placements (Insights' `publisher_platform` breakdown): facebook, instagram, messenger,
  // audience_network; the fake answers with them, as Meta does.
  { folder: "facebookAds", word: "instagram", why: "Meta's publisher_platform value" },
];

function* files(root, entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isFile()) {
    if (SOURCE.test(path.basename(full))) yield entry;
    return;
  }
  for (const child of fs.readdirSync(full, { withFileTypes: true })) {
    if (["node_modules", "dist", "test-results", "playwright-report"].includes(child.name)) continue;
    if (child.name.startsWith(".") && child.name !== ".env.example") continue;
    yield* files(root, path.join(entry, child.name));
  }
}

/** Connector folders (with an index.ts) and family folders (without), under connectors/. */
function connectorFolders(root) {
  const dir = path.join(root, CONNECTORS_DIR);
  const connectors = [];
  const families = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (fs.existsSync(path.join(dir, entry.name, "index.ts"))) connectors.push(entry.name);
    else if (!KITS.has(entry.name)) families.push(entry.name);
  }
  return { connectors, families };
}

/** The family folders a connector folder imports from (so they may name it). */
function familiesOf(root, key, families) {
  const found = new Set();
  for (const file of files(root, path.join(CONNECTORS_DIR, key))) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const family of families) if (text.includes(`"../${family}/`)) found.add(family);
  }
  return found;
}

const mentions = (key) => new RegExp(`(?<![A-Za-z0-9_])${key}(?![A-Za-z0-9_])`);

/**
 * Per checked connector key, the files outside its folder, the registry and its families that name it;
 * and the connector folders whose connector's key is not the folder's name.
 */
export function scanConnectors(root, vocabulary = VOCABULARY) {
  const { connectors, families } = connectorFolders(root);
  const misnamed = [];
  for (const key of connectors) {
    const index = fs.readFileSync(path.join(root, CONNECTORS_DIR, key, "index.ts"), "utf8");
    if (/\bdisplayName:/.test(index) && !new RegExp(`\\n  key: "${key}",`).test(index)) misnamed.push(key);
  }
  const sources = [...SCANNED.flatMap((entry) => [...files(root, entry)])].map((file) => ({
    file: file.split(path.sep).join("/"),
    text: fs.readFileSync(path.join(root, file), "utf8"),
  }));
  const naming = new Map();
  for (const key of connectors.filter((name) => !PRODUCT_WORDS.has(name))) {
    const own = [
      `${CONNECTORS_DIR}/${key}/`,
      ...[...familiesOf(root, key, families)].map((f) => `${CONNECTORS_DIR}/${f}/`),
    ];
    const pattern = mentions(key);
    naming.set(
      key,
      sources
        .filter(
          ({ file }) =>
            ![REGISTRY, SELF, ".env.example"].includes(file) && !own.some((prefix) => file.startsWith(prefix)),
        )
        .filter(({ file, text }) => pattern.test(withoutVocabulary(file, text, key, vocabulary)))
        .map(({ file }) => file),
    );
  }
  // An entry of a folder that is gone is not reported (the folder took its word with it).
  const unsaid = vocabulary.filter(
    ({ folder, word }) =>
      fs.existsSync(path.join(root, CONNECTORS_DIR, folder)) &&
      !sources.some(({ file, text }) => file.startsWith(`${CONNECTORS_DIR}/${folder}/`) && quoted(word).test(text)),
  );
  return { naming, misnamed, unsaid };
}

/** The word as a quoted string ("instagram", 'instagram'), the only form VOCABULARY allows. */
const quoted = (word) => new RegExp(`(["'])${word}\\1`, "g");

/** A file's text without the quoted words VOCABULARY allows in its folder for this key. */
function withoutVocabulary(file, text, key, vocabulary) {
  let rest = text;
  for (const { folder, word } of vocabulary) {
    if (word === key && file.startsWith(`${CONNECTORS_DIR}/${folder}/`)) rest = rest.replace(quoted(word), "");
  }
  return rest;
}

/** Every violation, as a line to print. */
export function findConnectorViolations(root, vocabulary = VOCABULARY) {
  const { naming, misnamed, unsaid } = scanConnectors(root, vocabulary);
  const found = misnamed.map((key) => `${CONNECTORS_DIR}/${key}: the folder's name is not its connector's key`);
  for (const { folder, word } of unsaid) {
    found.push(
      `${CONNECTORS_DIR}/${folder}: no longer says "${word}"; remove it from VOCABULARY in scripts/check-connector-boundaries.mjs`,
    );
  }
  for (const [key, list] of naming) {
    for (const file of list)
      found.push(`${file}: names the connector "${key}" (move it into ${CONNECTORS_DIR}/${key}/)`);
  }
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  if (process.argv.includes("--count")) {
    let total = 0;
    for (const [key, list] of scanConnectors(root).naming) {
      total += list.length;
      console.log(`${key}\t${list.length}${process.argv.includes("--files") ? `\t${list.join(" ")}` : ""}`);
    }
    console.log(`total\t${total}`);
  } else {
    const violations = findConnectorViolations(root);
    for (const line of violations) console.error(line);
    if (violations.length > 0) {
      console.error(`${violations.length} connector boundary violation(s) (docs/adding-a-connector.md).`);
      process.exit(1);
    }
  }
}
