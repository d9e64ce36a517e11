#!/usr/bin/env node
/**
 * No function in apps/server/src longer than MAX_LINES lines, run by `npm run lint`: a long function
 * (a service written as one factory closure, a handler that does everything) is split by use case into
 * modules beside it, so a reader follows one request in one direction (docs/architecture.md).
 * A function's length runs from the line its declaration starts on to the line its body ends on.
 *
 * ALLOWED is empty: every service that was one long factory closure has been split (dashboards, sources,
 * widgets and widget alerts show the shape: one module per use case, assembled by service.ts; the job
 * queue's parts are assembled by infra/db-jobs.ts). The allowance stays for a function that must be
 * let in while it is split: its figure may only shrink; the check fails when such a function grows past
 * it (or a new one passes the limit), says when one has shrunk so its figure can be lowered, and fails on
 * an entry whose function is no longer over the limit (split, or renamed) until it is removed.
 *   node scripts/check-function-length.mjs          fails listing each offender
 *   node scripts/check-function-length.mjs --list   prints every function over the limit, longest first
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_LINES = 150;
const ROOT_DIR = "apps/server/src";

/** "file:name" → the length it had when it was allowed (longest first). */
export const ALLOWED = {};

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    // Tests (a connector's browser tests, `e2e/*.spec.ts`, among them) and the provider fakes beside a
    // connector (`fake.ts`, test code the server never loads) are exempt: a fake's routes mirror its
    // provider's API one after another, read as a list.
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) && entry.name !== "fake.ts")
      yield full;
  }
}

/** A readable name for a function node: its declared name, or the variable/property/call it is given to. */
function nameOf(node, source) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)))
    return parent.name.getText(source);
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source).replace(/\s+/g, " ");
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee})`;
  }
  return "(anonymous)";
}

/** Every function in the files under `root`/apps/server/src longer than MAX_LINES: { key, file, name, line, lines }. */
export function findLongFunctions(root) {
  const found = [];
  for (const file of files(path.join(root, ROOT_DIR))) {
    const text = fs.readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const relative = path.relative(root, file).split(path.sep).join("/");
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.end).line;
        const lines = end - start + 1;
        if (lines > MAX_LINES) {
          const name = nameOf(node, source);
          found.push({ key: `${relative}:${name}`, file: relative, name, line: start + 1, lines });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

/** The offenders: functions over the limit that are not allowed, or have grown past their allowance. */
export function findViolations(root, allowances = ALLOWED) {
  const problems = [];
  const shrunk = [];
  for (const found of findLongFunctions(root)) {
    const allowed = allowances[found.key];
    if (allowed === undefined) {
      problems.push(`${found.file}:${found.line}: ${found.name} is ${found.lines} lines (at most ${MAX_LINES})`);
    } else if (found.lines > allowed) {
      problems.push(
        `${found.file}:${found.line}: ${found.name} grew to ${found.lines} lines (allowed ${allowed}, may only shrink)`,
      );
    } else if (found.lines < allowed) {
      shrunk.push(`${found.key}: now ${found.lines} lines, lower its figure in ALLOWED from ${allowed}`);
    }
  }
  const found = new Set(findLongFunctions(root).map((each) => each.key));
  for (const key of Object.keys(allowances)) {
    const file = key.slice(0, key.lastIndexOf(":"));
    if (!found.has(key) && fs.existsSync(path.join(root, file)))
      problems.push(`${key} is no longer over ${MAX_LINES} lines (or was renamed): remove its entry`);
  }
  return { problems, shrunk };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  if (process.argv.includes("--list")) {
    for (const found of findLongFunctions(root))
      console.log(`${found.lines}\t${found.file}:${found.line}\t${found.name}`);
    process.exit(0);
  }
  const { problems, shrunk } = findViolations(root);
  for (const line of shrunk) console.log(line);
  if (problems.length > 0) {
    console.error(`Functions longer than ${MAX_LINES} lines in ${ROOT_DIR} (split them by use case):`);
    for (const line of problems) console.error(`  ${line}`);
    process.exit(1);
  }
}
