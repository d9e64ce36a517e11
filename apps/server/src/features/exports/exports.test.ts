import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AUTOMATIC_REPORT_REFUSALS, PDF_MESSAGES, type TWidget } from "@app/core";
import { buildPassiveWidget } from "@app/core/widgets/test-fixtures";
import { beforeAll, expect, it } from "vitest";
import { buildDashboard, buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { freePort, until } from "../../../test/wait";
import { createBrowserPool } from "../../infra/browser";
import { createDashboardRenderer, printableHeight, printUrl } from "./chromium-renderer";

/** The text of a PDF as a reader's copy-paste would give it (poppler's pdftotext). */
function pdfText(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pdf-")), "export.pdf");
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

function pdfPages(bytes: Buffer): number {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pdf-")), "export.pdf");
  fs.writeFileSync(file, bytes);
  const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
}

type Headers = Record<string, string>;

/** What the share menu's PDF button does: ask, then poll with the check value until the file comes. */
async function downloadPdf(client: TestClient, url: string, headers: Headers = {}) {
  const first = await client.raw("GET", url, { headers });
  if (first.statusCode !== 202) return { first, final: first, polls: 0 };
  const check = first.json().check as string;
  let polls = 0;
  let final = first;
  await until(
    async () => {
      polls += 1;
      final = await client.raw("GET", `${url}&check=${check}`, { headers });
      // 304: still rendering; 202: accepted again while the job retries (a blank first try). Both mean wait.
      return final.statusCode !== 304 && final.statusCode !== 202;
    },
    90_000,
    250,
  );
  return { first, final, polls };
}

const MAX_PDF_WIDGETS = 12;

describeEachDb(
  "PDF export through the print view in Chromium",
  (env) => {
    beforeAll(async () => {
      await env().ctx.jobs.start();
    });

    it("202 with a check, 304 while polling, then a vector PDF with the widgets' titles and numbers", async () => {
      const owner = await buildOwner(env());
      const dashboard = await buildDashboard(env(), {
        company: owner.company,
        name: "Acme Website Overview",
        template: "website-overview",
      });
      const range = JSON.stringify({ startDate: "2026-10-01", endDate: "2026-10-31" });
      const url = `/api/dashboards/${dashboard.permalink}/pdf?timezone=Europe%2FBerlin&date_range=${encodeURIComponent(range)}`;
      const { first, final, polls } = await downloadPdf(owner.client, url);
      expect(first.statusCode).toBe(202);
      expect(first.json().check).toMatch(/^[a-f0-9]{64}$/);
      expect(polls).toBeGreaterThan(1); // at least one 304 before the file
      expect(final.statusCode).toBe(200);
      expect(final.headers["content-type"]).toBe("application/pdf");
      expect(String(final.headers["content-disposition"])).toContain(
        'filename="Acme Website Overview 2026-10-01 to 2026-10-31.pdf"',
      );
      const bytes = final.rawPayload;
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      const text = pdfText(bytes);
      if (process.env.PDF_DUMP) fs.writeFileSync(process.env.PDF_DUMP, bytes);
      for (const title of ["Acme Website Overview", "Key figures", "Sessions and users", "Channels", "Top pages"]) {
        expect(text).toContain(title);
      }
      // The period and its comparison on the first page; figures as text (vector, not a picture).
      expect(text).toContain("Oct 01, 2026 - Oct 31, 2026");
      expect(text).toContain("vs Aug 31 – Sep 30"); // the default comparison: the 31 days before
      expect(text).toMatch(/\d{1,3}(,\d{3})+/);
      // Page numbers in every page's footer.
      expect(text).toMatch(new RegExp(`1 ?/ ?${pdfPages(bytes)}`));

      // The same request again is served from the finished export: no second render.
      const again = await owner.client.raw("GET", url);
      expect(again.statusCode).toBe(200);
      // The stored file is the company's data: only this route gives it out, never the public /files.
      const stored = await env()
        .ctx.db.selectFrom("pdf_exports")
        .select("file")
        .where("key", "=", first.json().check)
        .executeTakeFirst();
      expect(stored?.file).toMatch(/^\/files\/.+\.pdf$/);
      expect(
        (
          await env()
            .client()
            .raw("GET", stored?.file ?? "")
        ).statusCode,
      ).toBe(404);
      expect((await env().ctx.jobs.list("exports.pdf", "completed")).length).toBeGreaterThanOrEqual(1);
    });

    it("a warm page prints the next company's dashboard, with nothing of the last one", async () => {
      const first = await buildOwner(env());
      const second = await buildOwner(env());
      const one = await buildDashboard(env(), { company: first.company, name: "Globex Shop", template: "seo" });
      const two = await buildDashboard(env(), {
        company: second.company,
        name: "Initech Blog",
        template: "website-overview",
      });
      const url = (permalink: string) => `/api/dashboards/${permalink}/pdf?timezone=UTC`;
      const a = await downloadPdf(first.client, url(one.permalink));
      expect(a.final.statusCode).toBe(200);
      const opened = env().ctx.browser.pagesOpened();
      const b = await downloadPdf(second.client, url(two.permalink));
      expect(b.final.statusCode).toBe(200);
      // The second render reused the first one's page (no new page), routing inside the loaded app.
      expect(env().ctx.browser.pagesOpened()).toBe(opened);
      const text = pdfText(b.final.rawPayload);
      expect(text).toContain("Initech Blog");
      expect(text).toContain("Sessions and users");
      expect(text).not.toContain("Globex Shop");
      expect(text).not.toContain("Top queries");
      // And back: the first company's PDF again (another period, so another export) shows only its own.
      const again = await downloadPdf(first.client, `${url(one.permalink)}&format=Letter`);
      const back = pdfText(again.final.rawPayload);
      expect(back).toContain("Top queries");
      expect(back).not.toContain("Initech Blog");
    });

    it("identical requests while one is being made share it (one job, one check)", async () => {
      const owner = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company: owner.company, template: "seo" });
      const url = `/api/dashboards/${dashboard.permalink}/pdf?timezone=UTC&format=Letter&orientation=landscape`;
      const before = (await env().ctx.jobs.list("exports.pdf", "completed", 1000)).length;
      const answers = await Promise.all([1, 2, 3].map(() => owner.client.raw("GET", url)));
      const checks = new Set(answers.map((answer) => answer.json().check));
      expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202]);
      expect(checks.size).toBe(1);
      const { final } = await downloadPdf(owner.client, url);
      expect(final.statusCode).toBe(200);
      const after = (await env().ctx.jobs.list("exports.pdf", "completed", 1000)).length;
      expect(after - before).toBe(1);
      expect(pdfText(final.rawPayload)).toContain("Top queries");
    });

    it("emoji and CJK titles print as text, not boxes; a password dashboard needs its password", async () => {
      const owner = await buildOwner(env());
      const widgets: TWidget[] = [
        buildPassiveWidget({
          id: "cjk",
          order: 0,
          hash: "cjk",
          title: "売上レポート 🚀 Ventes",
          inputs: { description: "月次の概要 ✅" },
        }),
      ];
      const dashboard = await buildDashboard(env(), { company: owner.company, widgets, password: "client-pass" });
      const url = `/api/dashboards/${dashboard.permalink}/pdf?timezone=UTC`;
      const visitor = env().client();
      expect((await visitor.raw("GET", url)).statusCode).toBe(422);
      const { first, final } = await downloadPdf(visitor, url, { "x-authorization": "client-pass" });
      expect(final.statusCode).toBe(200);
      // Printed on the first try: the warm page had never shown a text card, whose sanitiser loads on
      // first use; the view waits for it instead of printing an empty card (then blank, then retried).
      const check = first.json().check as string;
      const jobs = await env().ctx.jobs.list("exports.pdf", "completed", 1000);
      expect(jobs.find((job) => job.key === `pdf:${check}`)?.attempts).toBe(1);
      const text = pdfText(final.rawPayload);
      expect(text).toContain("売上レポート");
      expect(text).toContain("月次の概要");
      expect(text).toContain("🚀");
    });

    it("refuses dashboards above the widget limit and empty ones with the spec's words", async () => {
      const owner = await buildOwner(env());
      const many = Array.from({ length: MAX_PDF_WIDGETS + 1 }, (_, index) =>
        buildPassiveWidget({ id: `n${index}`, order: index, hash: `n${index}`, title: `Note ${index}` }),
      );
      const big = await buildDashboard(env(), { company: owner.company, widgets: many });
      const refused = await owner.client.raw("GET", `/api/dashboards/${big.permalink}/pdf?timezone=UTC`);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.pdf).toEqual([AUTOMATIC_REPORT_REFUSALS.pdfAboveWidgetLimit(MAX_PDF_WIDGETS)]);
      const empty = await buildDashboard(env(), { company: owner.company });
      const none = await owner.client.raw("GET", `/api/dashboards/${empty.permalink}/pdf?timezone=UTC`);
      expect(none.statusCode).toBe(422);
      expect(none.json().errors.pdf).toEqual([PDF_MESSAGES.empty]);
      const badRange = await owner.client.raw(
        "GET",
        `/api/dashboards/${big.permalink}/pdf?timezone=UTC&date_range=${encodeURIComponent("{nope")}`,
      );
      expect(badRange.statusCode).toBe(422);
    });

    it("the warm-up at start loads the print view, and the first render takes that page", async () => {
      const owner = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company: owner.company, name: "Warm start", template: "seo" });
      // A pool of its own: a process that has just started, nothing launched yet.
      const browser = createBrowserPool({ executablePath: env().ctx.config.chromiumPath, maxPages: 2 });
      try {
        const renderer = createDashboardRenderer({ ...env().ctx, browser }, env().services.get("dashboards"));
        expect(browser.launched()).toBe(false);
        // Asked before the warm-up has finished, as a click right after a start would: it waits for it.
        const warming = renderer.warmUp();
        const pdf = renderer.pdf({
          companyId: owner.company.id,
          dashboardId: dashboard.id,
          timezone: "UTC",
          dateRange: null,
        });
        expect(await warming).toBe(true);
        const text = pdfText(await pdf);
        expect(text).toContain("Warm start");
        expect(text).toContain("Top queries");
        // One page: the one the warm-up loaded, routed to the dashboard inside the app.
        expect(browser.pagesOpened()).toBe(1);
      } finally {
        await browser.close();
      }
    });

    it("blank output is never delivered: retried once, then a visible failure", async () => {
      const owner = await buildOwner(env());
      // Its widgets' source is removed: every widget fails, so the page shows no widget content.
      const dashboard = await buildDashboard(env(), { company: owner.company, template: "paid-ads" });
      const sources = (await owner.client.api("GET", "/api/sources")).json().data as { id: string }[];
      for (const source of sources) await owner.client.api("DELETE", `/api/sources/${source.id}`);
      const url = `/api/dashboards/${dashboard.permalink}/pdf?timezone=UTC`;
      const { final } = await downloadPdf(owner.client, url);
      expect(final.statusCode).toBe(503);
      expect(final.json().message).toBe(PDF_MESSAGES.failed);
      const failed = await env().ctx.jobs.list("exports.pdf", "completed", 1000);
      const job = failed.find((record) => JSON.stringify(record.payload).includes(dashboard.id));
      expect(job?.attempts).toBe(2);
      // The next click starts afresh rather than repeating the old failure.
      expect((await owner.client.raw("GET", url)).statusCode).toBe(202);
    });
  },
  async () => ({
    PORT: String(await freePort()),
    MAX_PDF_WIDGETS: String(MAX_PDF_WIDGETS),
    PDF_WIDGET_TIMEOUT_MS: "4000",
  }),
  { listen: true },
);

it("the print address carries the page's height and, only when set, PRINT_SETTLE_MS", () => {
  const target = { permalink: "abc", renderToken: "r1.x" } as Parameters<typeof printUrl>[1];
  const request = { companyId: "c", dashboardId: "d", timezone: "UTC", dateRange: null };
  const plain = new URL(printUrl("http://127.0.0.1:1", target, request, 20_000));
  expect(plain.searchParams.get("settleMs")).toBeNull();
  expect(plain.searchParams.get("pageHeight")).toBe(String(printableHeight({ format: "A4", landscape: false })));
  // A4 portrait: 297 mm less the 10 and 14 mm margins, at 96 px per inch.
  expect(printableHeight({ format: "A4", landscape: false })).toBe(1031);
  const settled = new URL(printUrl("http://127.0.0.1:1", target, request, 20_000, 1500));
  expect(settled.searchParams.get("settleMs")).toBe("1500");
});
