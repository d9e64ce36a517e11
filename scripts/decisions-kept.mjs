#!/usr/bin/env node
/**
 * Proves that a reorganisation of docs/decisions.md lost nothing: every entry of the file at a git
 * revision (its heading and every line under it) is still in the working copy, whole and in order, at
 * whatever heading level and under whatever area it now stands. Lines added by the reorganisation (area
 * headings, the contents, an entry's "Recorded" date line) are not looked at; the old file's opening
 * paragraph is not checked (the reorganised file says afresh how it is ordered).
 *   node scripts/decisions-kept.mjs <revision>   e.g. `main` before merging a branch that reorganised it
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const FILE = "docs/decisions.md";
const revision = process.argv[2];
if (!revision) {
  console.error("usage: node scripts/decisions-kept.mjs <git revision holding the file before>");
  process.exit(2);
}
const normalise = (text) =>
  text
    .split("\n")
    .map((line) => line.replace(/^#{2,}\s+/, "").trimEnd())
    .filter((line) => line.trim() !== "" && !/^_Recorded \d{4}-\d\d-\d\d\._$/.test(line));

const before = execFileSync("git", ["show", `${revision}:${FILE}`], { encoding: "utf8" });
const now = normalise(fs.readFileSync(FILE, "utf8"));
const joined = `\n${now.join("\n")}\n`;
const entries = before.split(/\n(?=## )/).slice(1);
const lost = entries.filter((entry) => !joined.includes(`\n${normalise(entry).join("\n")}\n`));
for (const entry of lost) console.error(`not kept whole: ${entry.split("\n")[0]}`);
console.log(`${entries.length - lost.length} of ${entries.length} entries of ${revision}:${FILE} kept whole`);
process.exit(lost.length > 0 ? 1 : 0);
