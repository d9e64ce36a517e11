import fs from "node:fs";
import path from "node:path";
import { serverOnlyMessage } from "@app/core/i18n/areas";
import { ENGLISH as en } from "@app/core/i18n/english";
import { describe, expect, it } from "vitest";

/** Every source file of the web app, for the keys it says. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("the browser's catalogues (vite.config.ts browserCatalogues, core i18n/areas.ts)", () => {
  it("leave out the e-mail's, the insight sentences' and the goal count's messages, and nothing a page says", () => {
    const keys = Object.keys(en);
    const dropped = keys.filter(serverOnlyMessage);
    expect(dropped).toEqual(
      expect.arrayContaining(["reportMail.subject", "insights.byPercent", "goals.summaryCount", "goals.summary"]),
    );
    for (const kept of ["insights.title", "insights.reading", "goals.withPeriod", "goals.daysLeft", "widget.total"])
      expect(serverOnlyMessage(kept), kept).toBe(false);
    // No web source names a dropped key (every message a page says is a literal key: t("area.name")).
    const said = sources(path.resolve(import.meta.dirname, "..")).flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/["'`]((?:[a-zA-Z]+)\.[a-zA-Z_]+)["'`]/g)].map((match) => match[1]),
    );
    expect(said.filter((key) => keys.includes(key) && serverOnlyMessage(key))).toEqual([]);
  });
});
