import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { BenchClient, fmt, freePort, REPO_ROOT, spawnServer, startJobsServer } from "./lib";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A 5-widget 'website-overview' template dashboard of a new company; its permalink. */
async function templateDashboard(client: BenchClient): Promise<string> {
  await client.signUp();
  const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
    name: "Website overview",
    template: "website-overview",
  });
  return created.data.permalink;
}

/** GET …/pdf, then the check every `pollMs` until the file: its time and bytes. */
async function pdfOverApi(client: BenchClient, permalink: string, day: number, pollMs: number) {
  const range = JSON.stringify({ startDate: `2026-10-${String(day).padStart(2, "0")}`, endDate: "2026-10-31" });
  const url = `${client.base}/api/dashboards/${permalink}/pdf?timezone=UTC&date_range=${encodeURIComponent(range)}`;
  const started = performance.now();
  let response = await fetch(url, { headers: client.headers() });
  if (response.status !== 202) throw new Error(`PDF answered ${response.status} ${await response.text()}`);
  const { check } = (await response.json()) as { check: string };
  for (;;) {
    response = await fetch(`${url}&check=${check}`, { headers: client.headers() });
    if (response.status !== 304) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  if (response.status !== 200) throw new Error(`PDF answered ${response.status} ${await response.text()}`);
  return { ms: performance.now() - started, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * (e') The first PDF after a start: the server as `npm start` runs it (its own process), stopped once a
 * company and its 5-widget template dashboard exist, started again on the same data; as soon as
 * /api/health answers, the PDF is asked for (polled every 25 ms). The renderer warms its browser and print
 * view in the background once the server is up; /api/health is asked every 100 ms meanwhile, to show that
 * the warm-up does not hold it up. Goal: ≤ 5 s.
 */
export async function pdfAfterStart(): Promise<{ firstMs: number }> {
  execFileSync("npm", ["run", "build"], { cwd: REPO_ROOT, stdio: "inherit" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-bench-pdf-start-"));
  const port = await freePort();
  const start = (log: string) =>
    spawnServer("npm", ["run", "start", "-w", "apps/server"], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", RATE_LIMIT_AUTH_MAX: "1000" },
      port,
      readyPath: "/api/health",
      logFile: path.join(dataDir, log),
    });
  try {
    let server = await start("first.log");
    const client = new BenchClient(server.url);
    const permalink = await templateDashboard(client);
    await server.close();
    const spawned = performance.now();
    server = await start("second.log");
    const upMs = performance.now() - spawned;
    const health: number[] = [];
    let asking = true;
    const healthLoop = (async () => {
      while (asking) {
        const at = performance.now();
        await fetch(`${server.url}/api/health`);
        health.push(performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const first = await pdfOverApi(client, permalink, 1, 25);
    asking = false;
    await healthLoop;
    const second = await pdfOverApi(client, permalink, 2, 25);
    await server.close();
    console.log(
      `(e') first PDF after a start (5-widget template, asked as soon as /api/health answered): ${fmt(first.ms / 1000)} s (goal ≤ 5 s); the next one ${fmt(second.ms / 1000)} s`,
    );
    console.log(
      `     spawn → /api/health 200 ${fmt(upMs / 1000)} s (npm start's build step included); /api/health during the first PDF: median ${fmt(median(health))} ms, max ${fmt(Math.max(...health))} ms over ${health.length} requests`,
    );
    return { firstMs: first.ms };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * (e'') The share menu's PDF button, in Chromium, on the 5-widget template dashboard of a signed-in
 * owner: from the click that asks for the PDF to the browser's download (the button's own polling, then
 * the second click that downloads, made as soon as the button says 'Download PDF'). A new period each
 * time (Copy URL parameters), so each click makes a new PDF; the first one warms the server's renderer.
 * Median of 5 warm runs; also the same PDF over the API, polled every 25 ms. Goal: ≤ 2.5 s.
 */
export async function pdfClickToDownload(): Promise<{ clickMs: number; apiMs: number }> {
  const webDist = path.join(os.tmpdir(), "reportz-bench-web-pdf-ui");
  execFileSync("npx", ["vite", "build", "--outDir", webDist, "--emptyOutDir", "--logLevel", "error"], {
    cwd: path.resolve(import.meta.dirname, "../apps/web"),
    stdio: "inherit",
  });
  const server = await startJobsServer(webDist);
  await server.ctx.jobs.start();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const client = new BenchClient(server.url);
    const permalink = await templateDashboard(client);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const [name, value] = client.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const clickOnce = async (day: number) => {
      await page.goto(
        `${server.url}/dashboards/${permalink}?startDate=2026-09-${String(day).padStart(2, "0")}&endDate=2026-09-30`,
      );
      const button = page.locator("button.dash-pdf");
      await button.waitFor();
      await page.locator('article.dash-card[data-ready="true"]').first().waitFor();
      const started = performance.now();
      await button.click();
      await page.locator('button.dash-pdf[data-state="ready"]').waitFor({ timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
      await download.path();
      return performance.now() - started;
    };
    await clickOnce(1); // launches the server's Chromium and loads its print view
    const clicks: number[] = [];
    for (const day of [2, 3, 4, 5, 6]) clicks.push(await clickOnce(day));
    const api: number[] = [];
    for (const day of [7, 8, 9, 10, 11]) api.push((await pdfOverApi(client, permalink, day, 25)).ms);
    const clickMs = median(clicks);
    const apiMs = median(api);
    console.log(
      `(e'') PDF button, click → download, 5-widget template, warm: ${fmt(clickMs / 1000)} s median of 5 (goal ≤ 2.5 s; runs ${clicks.map((ms) => fmt(ms / 1000)).join(", ")} s)`,
    );
    console.log(
      `      the same over the API (polled every 25 ms): ${fmt(apiMs / 1000)} s median of 5 (${api.map((ms) => fmt(ms / 1000)).join(", ")} s)`,
    );
    return { clickMs, apiMs };
  } finally {
    await browser.close();
    await server.close();
  }
}
