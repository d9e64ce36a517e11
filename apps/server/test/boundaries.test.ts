import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The check `npm run lint` runs (plain Node, no types of its own).
// @ts-expect-error -- an .mjs script without declarations
import { findViolations } from "../../../scripts/check-boundaries.mjs";

const root = path.resolve(import.meta.dirname, "../../..");

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "boundaries-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe("feature boundaries (scripts/check-boundaries.mjs, run by npm run lint)", () => {
  it("the repository has none crossed", () => {
    expect(findViolations(root)).toEqual([]);
  });

  it("fails on a server feature importing another feature's repo or routes, not on its service", () => {
    const dir = tree({
      "apps/server/src/features/users/service.ts": [
        'import { authRepo } from "../auth/repo";',
        'import { sessionStore } from "../auth/service";',
        'import { usersRepo } from "./repo";',
        'import type { X } from "../auth/routes";',
      ].join("\n"),
    });
    const found = findViolations(dir) as string[];
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('"../auth/repo"');
    expect(found[1]).toContain('"../auth/routes"');
  });

  it("fails on a web feature reaching into another feature's internals, dynamic imports included", () => {
    const dir = tree({
      "apps/web/src/features/dashboard/components/View.tsx": [
        'import { WidgetCard } from "../../widgets";',
        'import { useCurrentUser } from "../../session/hooks";',
        'import { chartOption } from "../../widgets/charts/chart-options";',
        'const drawer = () => import("../../widgets/form/WidgetFormDrawer");',
        'const lazy = () => import("../../widgets/lazy");',
        'import { own } from "../queries";',
      ].join("\n"),
    });
    const found = findViolations(dir) as string[];
    expect(found).toHaveLength(2);
    expect(found.join("\n")).toContain("chart-options");
    expect(found.join("\n")).toContain("WidgetFormDrawer");
  });
});
