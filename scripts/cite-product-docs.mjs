#!/usr/bin/env node
// Keeps the repository self-contained: comments and test titles cite `docs/product.md §N` (its sections
// keep the numbering of the product's original specification), never the specification or the
// architecture notes, which are not part of the repository.
//   node scripts/cite-product-docs.mjs          rewrites the citations in place (comment lines only)
//   node scripts/cite-product-docs.mjs --check  lists what is left and fails if anything is
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const PATTERNS = [
  [/\b[Ss]pec(?:'s)?:? ?(?=§)/g, "docs/product.md "],
  [/\b[Aa]rchitecture §1\b/g, "docs/operations.md"],
  [/\b(?:[Aa]rchitecture|ARCHITECTURE) §4\b/g, "docs/decisions.md, the widget data path"],
];
// Comment lines and test titles: never code, so a rewrite cannot change behaviour.
const CITING_LINE = /^\s*(\/\/|\*|\/\*|\{\/\*)|\b(describe|describeEachDb|it|test)(\.each\([^)]*\))?\(/;

const files = execFileSync("git", ["ls-files", "apps", "packages", "e2e", "bench", "scripts"], { encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(ts|tsx|mjs|js|css)$/.test(file) && fs.existsSync(file));
const check = process.argv.includes("--check");
const left = [];
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n");
  let changed = false;
  lines.forEach((line, index) => {
    if (!PATTERNS.some(([pattern]) => pattern.test(line))) return;
    for (const [pattern] of PATTERNS) pattern.lastIndex = 0;
    if (check || !CITING_LINE.test(line)) {
      left.push(`${file}:${index + 1}: ${line.trim()}`);
      return;
    }
    lines[index] = PATTERNS.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), line);
    changed = true;
  });
  if (changed) fs.writeFileSync(file, lines.join("\n"));
}
if (left.length > 0) {
  console.error(`${check ? "Citations of documents outside the repository" : "Left as they are (not a comment)"}:`);
  for (const line of left) console.error(`  ${line}`);
  process.exit(1);
}
