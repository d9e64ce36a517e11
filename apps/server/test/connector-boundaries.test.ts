import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The check `npm run lint` runs (plain Node, no types of its own).
// @ts-expect-error -- an .mjs script without declarations
import { findConnectorViolations } from "../../../scripts/check-connector-boundaries.mjs";

const root = path.resolve(import.meta.dirname, "../../..");

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "connector-boundaries-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const C = "apps/server/src/connectors";
const connector = (key: string, extra = "") =>
  `export const c = {\n  key: "${key}",\n  displayName: "X",\n};\n${extra}`;

describe("connector boundaries (scripts/check-connector-boundaries.mjs, run by npm run lint)", () => {
  it("the repository has none crossed", () => {
    expect(findConnectorViolations(root)).toEqual([]);
  });

  it("fails on a key named outside its folder, not in the folder, the registry, its family or .env.example", () => {
    const dir = tree({
      [`${C}/index.ts`]: 'import { c } from "./fooAds";\nexport const ALL = ["fooAds"];',
      [`${C}/fooAds/index.ts`]: connector("fooAds", 'import { x } from "../foo/shared";\nconst self = "fooAds";'),
      [`${C}/foo/shared.ts`]: 'export const scopes = { fooAds: ["read"] };',
      [`${C}/http/client.ts`]: "// fooAds needs this",
      ".env.example": "# fooAds\nFOO_URL=",
      "apps/server/src/features/x/service.ts": 'if (key === "fooAds") {}',
      "apps/web/src/ui/logos.tsx": "export const L = { fooAds: 1, fooAdsExtra: 2 };",
      "docs/notes.md": "fooAds (not source)",
    });
    const found = findConnectorViolations(dir) as string[];
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^apps\/server\/src\/connectors\/http\/client\.ts: names the connector "fooAds"/);
    expect(found.some((line) => line.startsWith("apps/server/src/features/x/service.ts:"))).toBe(true);
    expect(found.some((line) => line.startsWith("apps/web/src/ui/logos.tsx:"))).toBe(true);
  });

  it("fails on a folder not named by its key", () => {
    const dir = tree({ [`${C}/foo-ads/index.ts`]: connector("fooAds") });
    expect(findConnectorViolations(dir)).toEqual([`${C}/foo-ads: the folder's name is not its connector's key`]);
  });

  it("allows a provider's own word that is a sibling's key only as the quoted string in the folder VOCABULARY names", () => {
    const vocabulary = [{ folder: "fooAds", word: "fooPhotos", why: "Foo's placement" }];
    const dir = tree({
      [`${C}/fooAds/index.ts`]: connector("fooAds", 'const placements = ["foo", "fooPhotos"];'),
      [`${C}/fooAds/fake.ts`]: "export const platforms = ['fooPhotos'];",
      [`${C}/fooPhotos/index.ts`]: connector("fooPhotos"),
      [`${C}/barAds/index.ts`]: connector("barAds", 'const placements = ["fooPhotos"];'),
    });
    expect(findConnectorViolations(dir, vocabulary)).toEqual([
      `${C}/barAds/index.ts: names the connector "fooPhotos" (move it into ${C}/fooPhotos/)`,
    ]);
    // Not as code: an import of the sibling, or its key as a name, is still the sibling's.
    fs.writeFileSync(path.join(dir, `${C}/fooAds/fake.ts`), 'import { x } from "../fooPhotos/fake";\n');
    fs.writeFileSync(path.join(dir, `${C}/barAds/index.ts`), connector("barAds"));
    expect(findConnectorViolations(dir, vocabulary)).toEqual([
      `${C}/fooAds/fake.ts: names the connector "fooPhotos" (move it into ${C}/fooPhotos/)`,
    ]);
    // An entry its folder no longer says goes.
    fs.writeFileSync(path.join(dir, `${C}/fooAds/fake.ts`), "export const platforms = [];\n");
    fs.writeFileSync(path.join(dir, `${C}/fooAds/index.ts`), connector("fooAds"));
    expect(findConnectorViolations(dir, vocabulary)).toEqual([
      `${C}/fooAds: no longer says "fooPhotos"; remove it from VOCABULARY in scripts/check-connector-boundaries.mjs`,
    ]);
  });
});
