import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import { CHROMIUM_LAUNCH_OPTIONS } from "../e2e/chromium";
import { BenchClient, fmt, REPO_ROOT, serveFrozen, startServer } from "./lib";
import { audit, type LighthouseFigures, medianFigures } from "./lighthouse";

/**
 * What the public view would score with no script on its critical path: Lighthouse mobile on the live
 * public view of a 'website-overview' template dashboard and, in turn, on the same view frozen as HTML
 * (drawn by the app in Chromium at a phone's size, charts as their SVG snapshots, every script and
 * module preload removed, the built stylesheets served brotli-compressed). The frozen page is the
 * ceiling of a server-rendered public view whose app loads on the viewer's first interaction
 * (docs/decisions.md "Public view: what stands between 0.7 and 0.9"): the difference between the two
 * is what the app's start costs, not the page's content, styles or size.
 *
 * `npx tsx bench/static-ceiling.ts [dist-dir]` (default `apps/web/dist`); `RUNS` rounds (default 3);
 * `STATIC_HTML=file` keeps the frozen page.
 */
const dist = path.resolve(REPO_ROOT, process.argv[2] ?? "apps/web/dist");
const runs = Number(process.env.RUNS ?? 3);

/** The public view as the app draws it at a phone's size, without its scripts. */
async function frozenView(url: string): Promise<string> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    const page = await browser.newPage({ viewport: { width: 412, height: 823 }, isMobile: true });
    await page.goto(url);
    // Every card settled and every chart drawn (as a snapshot: nothing points at the page).
    await page.waitForLoadState("networkidle");
    // Charts below the fold are drawn when scrolled to: a server-rendered page would carry them all.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForFunction(() => {
      const charts = Array.from(document.querySelectorAll('.dash-cell [role="img"][aria-label$=" chart"]'));
      return charts.length > 0 && charts.every((chart) => chart.querySelector(".echart-snapshot svg"));
    });
    await page.waitForTimeout(1000);
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    return `<!doctype html>${html
      .replace(/<script\b[\s\S]*?<\/script>/g, "")
      .replace(/<link[^>]*rel="modulepreload"[^>]*>/g, "")}`;
  } finally {
    await browser.close();
  }
}

async function main() {
  const server = await startServer(dist);
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  let frozen: { url: string; close: () => void } | null = null;
  try {
    const client = new BenchClient(server.url);
    await client.signUp();
    const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
      name: "Website overview",
      template: "website-overview",
    });
    const live = `${server.url}/dashboards/${created.data.permalink}`;
    const html = await frozenView(live);
    if (process.env.STATIC_HTML) fs.writeFileSync(process.env.STATIC_HTML, html);
    console.log(
      `frozen public view: ${fmt(html.length / 1024, 1)} KB of HTML, ${(html.match(/<svg/g) ?? []).length} SVG elements`,
    );
    frozen = await serveFrozen(html, dist);
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_LAUNCH_OPTIONS.executablePath,
      chromeFlags: ["--headless=new", ...CHROMIUM_LAUNCH_OPTIONS.args],
    });
    const pages = [
      { name: "live public view", url: live },
      { name: "frozen, no script", url: frozen.url },
    ];
    const results = new Map<string, LighthouseFigures[]>();
    const line = (f: LighthouseFigures) =>
      `performance ${fmt(f.score)}, FCP ${fmt(f.fcpMs / 1000)} s, LCP ${fmt(f.lcpMs / 1000)} s, TBT ${fmt(f.tbtMs, 0)} ms, ${f.scriptCount} scripts`;
    for (let run = 0; run < runs; run++) {
      for (const { name, url } of pages) {
        const figures = await audit(url, chrome.port, undefined);
        results.set(name, [...(results.get(name) ?? []), figures]);
        console.log(`${name} #${run + 1}: ${line(figures)}`);
      }
    }
    for (const { name } of pages)
      console.log(`${name}: median of ${runs}: ${line(medianFigures(results.get(name) ?? []))}`);
  } finally {
    await chrome?.kill();
    frozen?.close();
    await server.close();
  }
}

await main();
