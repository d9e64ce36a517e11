import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { freePort, until } from "../../../test/wait";
import { harborDashboard } from "./test-helpers";

/** The text of a PDF as a reader's copy-paste would give it (poppler's pdftotext), page by page. */
function pdfPages(bytes: Buffer): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "insights-pdf-")), "export.pdf");
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).split("\f");
}

/** The share menu's PDF button: ask, then poll with the check value until the file comes. */
async function downloadPdf(client: TestClient, url: string) {
  const first = await client.raw("GET", url);
  if (first.statusCode !== 202) return first;
  const check = first.json().check as string;
  let final = first;
  await until(
    async () => {
      final = await client.raw("GET", `${url}&check=${check}`);
      return final.statusCode !== 304 && final.statusCode !== 202;
    },
    90_000,
    250,
  );
  return final;
}

describeEachDb(
  "automatic insights on the PDF's first page",
  (env) => {
    beforeAll(async () => {
      await env().ctx.jobs.start();
    });

    it("prints the dashboard's summary first, with the same sentence the API gives", async () => {
      const { owner, dashboard } = await harborDashboard(env(), { name: "Harbor Outfitters", insightsSummary: true });
      const period = { startDate: "2026-10-19", endDate: "2026-10-31" };
      const api = await owner.client.api("POST", `/api/dashboards/${dashboard.permalink}/insights`, {
        ...period,
        timezone: "UTC",
      });
      const [first] = api.json().data.summary as Array<{ sentence: string }>;
      expect(first.sentence).toMatch(/^Sessions down .*Organic Search contributed −/);

      const range = encodeURIComponent(JSON.stringify(period));
      const url = `/api/dashboards/${dashboard.permalink}/pdf?timezone=UTC&date_range=${range}`;
      const final = await downloadPdf(owner.client, url);
      expect(final.statusCode).toBe(200);
      const [page1] = pdfPages(final.rawPayload);
      // Lines wrap on paper: compare the words.
      const words = (text: string) => text.replace(/\s+/g, " ").trim();
      const text = words(page1);
      // The summary comes before the widgets (then the widget's own line says it again under its title).
      const title = text.indexOf("Sessions by channel");
      expect(text.indexOf(words(first.sentence))).toBeGreaterThan(-1);
      expect(text.indexOf(words(first.sentence))).toBeLessThan(title);
      expect(text.indexOf("Insights")).toBeLessThan(title);
      expect(text.slice(title)).toContain(`Insights: ${words(first.sentence)}`);
    });
  },
  async () => ({ PORT: String(await freePort()), PDF_WIDGET_TIMEOUT_MS: "4000" }),
  { listen: true },
);
