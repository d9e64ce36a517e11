import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The check `npm run lint` runs (plain Node, no types of its own).
// @ts-expect-error -- an .mjs script without declarations
import { findProblems } from "../../../scripts/check-citations.mjs";

const root = path.resolve(import.meta.dirname, "../../..");

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citations-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

// What the check must refuse, assembled so this file itself cites nothing.
const ISSUE = ["issue", "11 §4"].join(" ");
const NOTES = ["CONNECTORS", "md [RR]"].join(".");
const DECISIONS = ["docs", "decisions.md"].join("/");

describe("citations (scripts/check-citations.mjs, run by npm run lint)", () => {
  it("the repository cites only what a cloner can open", () => {
    const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
    })
      .split("\n")
      .filter((file) => /\.(ts|tsx|mjs|css|md)$/.test(file) && fs.existsSync(path.join(root, file)));
    expect(findProblems(root, files)).toEqual([]);
  });

  it("fails on an issue number, outside notes, and a decisions entry that does not exist", () => {
    const dir = tree({
      "docs/decisions.md": "# Decisions\n\n## Embed links: signed, revocable\n\ntext\n",
      "apps/server/src/a.ts": `/** Embeds (${ISSUE}). */\n/** Lags (${NOTES}). */\n`,
      "apps/server/src/b.ts": [
        `/** Signed (${DECISIONS}, "Embed links: signed,`,
        ` * revocable"), and (${DECISIONS}, "Embed … revocable") */`,
        `/** (${DECISIONS}, "No such entry") */`,
      ].join("\n"),
      "apps/server/src/connectors/x/index.ts": `/** (${NOTES}) */\n`,
    });
    const found = findProblems(dir, [
      "apps/server/src/a.ts",
      "apps/server/src/b.ts",
      "apps/server/src/connectors/x/index.ts",
    ]) as string[];
    // Connectors' folders are checked like every other file.
    expect(found).toHaveLength(4);
    expect(found[0]).toContain("a.ts:1:");
    expect(found[1]).toContain("a.ts:2:");
    expect(found[2]).toContain(`b.ts:3: ${DECISIONS}, "No such entry" (no such entry)`);
    expect(found[3]).toContain("connectors/x/index.ts:1:");
  });
});
