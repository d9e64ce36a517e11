#!/usr/bin/env node
/**
 * Comments and documents cite only what a cloner of this repository can open, run by `npm run lint`:
 * - no citation of the tracker's issue numbers (an "issue" word followed by a number), of the research
 *   notes kept outside the repository (the upper-case connectors notes file and its bracketed tags) or of
 *   the design notes kept beside it (upper-case conventions, toolchain and architecture notes);
 *   cite a file of the repository instead (a docs/decisions.md entry, a docs/connectors.md section, a
 *   source file) or give the reason itself;
 * - every docs/decisions.md entry cited by its title (the file's path, a comma, the title in quotes) exists: the
 *   quoted words are the start of, or part of, one of its `## ` or `### ` headings ("…" stands for words
 *   left out; line breaks and comment markers inside the quotes do not count).
 *   node scripts/check-citations.mjs   fails listing each citation that cannot be followed
 * `findProblems(root)` is exported for the test that proves it fails.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Built from pieces so this file does not match itself.
const FORBIDDEN = [
  { pattern: new RegExp(`\\b[Ii]ssue${" "}\\d+`), why: "cites an issue number" },
  { pattern: new RegExp(`${"CONNECTORS"}\\.md`), why: "cites research notes outside the repository" },
  { pattern: new RegExp(`\\.\\./${"shared"}/`), why: "cites a path outside the repository" },
  {
    pattern: new RegExp(`\\b(?:${"CONVEN"}TIONS|${"TOOL"}CHAIN)\\b|\\b${"ARCHI"}TECTURE(?: §|\\.md)`),
    why: "cites design notes outside the repository",
  },
];
const TEXT = /\.(ts|tsx|mts|mjs|js|css|md|sh|html|yml|yaml)$/;
const DECISIONS_FILE = ["docs", "decisions.md"].join("/");
const DECISION = /docs\/decisions\.md(?:,\s*|\s+)["“]([^"”]+)["”]/g;

function listFiles(root) {
  const listed = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n");
  return listed.filter((file) => TEXT.test(file) && fs.existsSync(path.join(root, file)));
}

/** A cited title as written, without line breaks and comment markers, and as a pattern ("…": any words). */
function titlePattern(quoted) {
  const words = quoted.replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, " ").trim();
  const parts = words.split(/\s*…\s*/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { words, pattern: new RegExp(parts.join(".*")) };
}

/** Every citation in the files under `root` that a reader cannot follow, as "file:line: what (why)". */
export function findProblems(root, files = listFiles(root)) {
  const decisions = path.join(root, "docs", "decisions.md");
  const headings = fs.existsSync(decisions)
    ? fs
        .readFileSync(decisions, "utf8")
        .split("\n")
        .filter((line) => /^#{2,3} /.test(line))
        .map((line) => line.replace(/^#+ /, "").trim())
    : [];
  const problems = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const lineOf = (index) => text.slice(0, index).split("\n").length;
    text.split("\n").forEach((line, index) => {
      for (const { pattern, why } of FORBIDDEN) {
        if (pattern.test(line)) problems.push(`${file}:${index + 1}: ${line.trim()} (${why})`);
      }
    });
    for (const match of text.matchAll(DECISION)) {
      const { words, pattern } = titlePattern(match[1]);
      if (!headings.some((heading) => pattern.test(heading))) {
        problems.push(`${file}:${lineOf(match.index)}: ${DECISIONS_FILE}, "${words}" (no such entry)`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const problems = findProblems(root);
  if (problems.length > 0) {
    console.error("Citations a reader of this repository cannot follow:");
    for (const line of problems) console.error(`  ${line}`);
    process.exit(1);
  }
}
