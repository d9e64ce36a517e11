import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { createTemplateDashboard } from "./support-dashboard";

test("an anonymous visitor downloads the PDF of a public dashboard: loading, ready, then the file", async ({
  page,
  browser,
}) => {
  await signUp(page, "Paula Pdf");
  const { permalink } = await createTemplateDashboard(page, "Client PDF report");

  const visitor = await browser.newPage();
  await visitor.goto(`/dashboards/${permalink}`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Client PDF report" })).toBeVisible();
  // Public viewers get PDF and Copy URL, not the owner's sharing menu.
  await expect(visitor.getByRole("button", { name: "Sharing" })).toHaveCount(0);
  const pdf = visitor.locator("button.dash-pdf");
  await expect(pdf).toHaveText("PDF");
  await pdf.click();
  await expect(pdf).toHaveAttribute("data-state", "loading");
  await expect(pdf).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(pdf).toHaveText("Download PDF");
  const [download] = await Promise.all([visitor.waitForEvent("download"), pdf.click()]);
  expect(download.suggestedFilename()).toMatch(/^Client PDF report \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\.pdf$/);
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
  expect(text).toContain("Client PDF report");
  expect(text).toContain("Sessions and users");
  await expect(pdf).toHaveAttribute("data-state", "idle");
  await snap(visitor, "pdf-button-public");
  await visitor.close();
});

test("the print view: no chrome, every widget drawn, a ready signal, and 'Data unavailable' for a widget too slow", async ({
  page,
}) => {
  await signUp(page, "Priya Print");
  const { permalink } = await createTemplateDashboard(page, "Printable overview");
  // One widget's data never comes in time: the print view gives up on it alone.
  let held = false;
  // Members load widget data by query, public viewers by saved widget: either path.
  await page.route(/\/api\/(widgets\/data|dashboards\/[^/]+\/widgets\/[^/]+\/data)$/, async (route) => {
    if (!held) {
      held = true;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
    await route.continue().catch(() => {});
  });
  const started = Date.now();
  // The owner opens it as the renderer would (a member may open the print view directly).
  await page.goto(`/dashboards/${permalink}/print?widgetTimeoutMs=1500&startDate=2026-10-01&endDate=2026-10-31`);
  await expect(page.locator("html")).toHaveAttribute("data-print-ready", "true", { timeout: 30_000 });
  // Not before the slow widget gave up (1.5 s) and the 1.5 s settle time (docs/product.md §9).
  expect(Date.now() - started).toBeGreaterThan(2_900);
  await expect(page.getByTestId("print-period")).toHaveText("Oct 01, 2026 - Oct 31, 2026 · vs Aug 31 – Sep 30");
  await expect(page.getByText("Data unavailable")).toHaveCount(1);
  // No app chrome: no sidebar, picker, Copy URL, PDF or sharing controls.
  await expect(page.locator(".dash-sidebar")).toHaveCount(0);
  await expect(page.getByRole("button")).toHaveCount(0);
  const states = await page
    .locator("article.dash-card")
    .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-state")));
  expect(states.filter((state) => state === "ready").length).toBe(states.length - 1);
  // Charts are vector (SVG) in print, so their text survives into the PDF.
  expect(await page.locator("article.dash-card svg text").count()).toBeGreaterThan(5);
  // Every card fills its cell's rows (a chart keeps its height: not a 40 px strip under a blank space).
  const fills = await page.locator(".dash-cell").evaluateAll((cells) =>
    cells.map((cell) => ({
      rows: Number.parseFloat(getComputedStyle(cell).minHeight),
      card: cell.querySelector("article")?.getBoundingClientRect().height ?? 0,
      chart: cell.querySelector('article[data-format^="chart"] svg')?.getBoundingClientRect().height ?? null,
    })),
  );
  for (const { rows, card } of fills) expect(card).toBeGreaterThanOrEqual(rows - 1);
  const charts = fills.filter((fill) => fill.chart !== null);
  expect(charts.length).toBeGreaterThan(1);
  for (const { card, chart } of charts) expect(chart as number).toBeGreaterThan(card * 0.5);
  await snap(page, "print-view");
});
