import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The check `npm run lint` runs (plain Node, no types of its own).
// @ts-expect-error -- an .mjs script without declarations
import { findViolations, MAX_LINES } from "../../../scripts/check-function-length.mjs";

const root = path.resolve(import.meta.dirname, "../../..");

/** A file under apps/server/src holding `name`, a function of exactly `lines` lines. */
function tree(file: string, name: string, lines: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "function-length-"));
  const body = Array.from({ length: lines - 2 }, (_, index) => `  const v${index} = ${index};`);
  const text = [`export function ${name}() {`, ...body, "}", ""].join("\n");
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

describe("function length (scripts/check-function-length.mjs, run by npm run lint)", () => {
  it("the repository has no function over the limit beyond its allowance", () => {
    expect(findViolations(root).problems).toEqual([]);
  });

  it("fails on a function one line over the limit, not on one at the limit", () => {
    const over = findViolations(tree("apps/server/src/features/x/service.ts", "xService", MAX_LINES + 1));
    expect(over.problems).toHaveLength(1);
    expect(over.problems[0]).toContain(`xService is ${MAX_LINES + 1} lines`);
    expect(findViolations(tree("apps/server/src/features/x/service.ts", "xService", MAX_LINES)).problems).toEqual([]);
  });

  it("an allowed function may shrink but not grow, and its entry goes once it is under the limit", () => {
    const file = "apps/server/src/infra/db-jobs.ts";
    // An allowance of the test's own: the repository's list may be empty.
    const allowances = { [`${file}:createDatabaseJobQueue`]: 452 };
    const grown = findViolations(tree(file, "createDatabaseJobQueue", 1000), allowances);
    expect(grown.problems[0]).toContain("grew to 1000 lines");
    const shrunk = findViolations(tree(file, "createDatabaseJobQueue", 200), allowances);
    expect(shrunk.problems).toEqual([]);
    expect(shrunk.shrunk[0]).toContain("now 200 lines");
    const split = findViolations(tree(file, "createDatabaseJobQueue", 100), allowances);
    expect(split.problems[0]).toContain("no longer over");
  });
});
