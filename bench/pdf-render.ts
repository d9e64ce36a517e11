import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BenchClient, fmt, seedDashboard, startJobsServer } from "./lib";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * (e) PDF export of the 24-widget Demo dashboard with a warm page pool, through the product's own path
 * (GET …/pdf → job → print view → page.pdf(), polled every 25 ms), against `page.pdf()` of a blank page
 * on a warm page of the same pool in the same run. Goal: ≤ 2 s.
 */
export async function pdfRender(): Promise<{ pdfMs: number; blankMs: number }> {
  const webDist = path.join(os.tmpdir(), "reportz-bench-web-pdf");
  execFileSync("npx", ["vite", "build", "--outDir", webDist, "--emptyOutDir", "--logLevel", "error"], {
    cwd: path.resolve(import.meta.dirname, "../apps/web"),
    stdio: "inherit",
  });
  const server = await startJobsServer(webDist);
  const { ctx } = server;
  await ctx.jobs.start();
  try {
    const client = new BenchClient(server.url);
    await client.signUp();
    const { permalink, widgets } = await seedDashboard(client);
    const pdfOnce = async (day: number) => {
      const range = JSON.stringify({ startDate: `2026-10-${String(day).padStart(2, "0")}`, endDate: "2026-10-31" });
      const url = `${client.base}/api/dashboards/${permalink}/pdf?timezone=UTC&date_range=${encodeURIComponent(range)}`;
      const started = performance.now();
      let response = await fetch(url, { headers: client.headers() });
      if (response.status !== 202) throw new Error(`PDF answered ${response.status} ${await response.text()}`);
      const { check } = (await response.json()) as { check: string };
      for (;;) {
        response = await fetch(`${url}&check=${check}`, { headers: client.headers() });
        if (response.status !== 304) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      if (response.status !== 200) throw new Error(`PDF answered ${response.status} ${await response.text()}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      return { ms: performance.now() - started, bytes };
    };
    // The first one launches Chromium and warms the server's caches; the figure of record is warm.
    const first = await pdfOnce(1);
    const runs: number[] = [];
    let last = first.bytes;
    for (const day of [2, 3, 4]) {
      const run = await pdfOnce(day);
      runs.push(run.ms);
      last = run.bytes;
    }
    const blankRuns: number[] = [];
    // The baseline is page.pdf() itself on a warm page (a fresh context costs more than the print).
    for (let i = 0; i < 3; i++) {
      await ctx.browser.withWarmPage("bench-blank", async (page) => {
        await page.setContent("<p>blank</p>");
        const started = performance.now();
        await page.pdf({ format: "A4" });
        blankRuns.push(performance.now() - started);
      });
    }
    const pdfMs = median(runs);
    const blankMs = median(blankRuns);
    const file = path.join(os.tmpdir(), "reportz-bench-24-widgets.pdf");
    fs.writeFileSync(file, last);
    console.log(
      `(e) PDF of the ${widgets.length}-widget Demo dashboard, warm pool: ${fmt(pdfMs / 1000)} s median of 3 (goal ≤ 2 s; cold first ${fmt(first.ms / 1000)} s); blank page.pdf() ${fmt(blankMs)} ms; ratio ${fmt(pdfMs / blankMs, 1)}×`,
    );
    console.log(`    file: ${file} (${(last.length / 1024).toFixed(0)} KB)`);
    return { pdfMs, blankMs };
  } finally {
    await server.close();
  }
}
