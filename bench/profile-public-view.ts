import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { SourceMapConsumer } from "source-map-js";
import { CHROMIUM_LAUNCH_OPTIONS } from "../e2e/chromium";
import { BenchClient, freePort, REPO_ROOT, spawnServer } from "./lib";

/**
 * Where the public view's main-thread time goes: the 'website-overview' template's public view loaded in
 * Chromium at a phone's size with 4x CPU slowdown (as Lighthouse's mobile preset), a CPU profile from
 * navigation until every widget on the first screen is drawn, and the functions with the most self
 * time, grouped by script.
 * Run after `npm run build`: `npx tsx bench/profile-public-view.ts`.
 */
async function main() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-profile-view-"));
  const server = await spawnServer("npm", ["run", "start", "-w", "apps/server"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      RATE_LIMIT_AUTH_MAX: "100000",
    },
    port,
    readyPath: "/api/health",
    logFile: path.join(dataDir, "server.log"),
  });
  const base = server.url;
  try {
    const client = new BenchClient(base);
    await client.signUp();
    const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
      name: "Website overview",
      template: "website-overview",
    });
    const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
    const page = await browser.newPage({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 2 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(process.env.CPU_RATE ?? 4) });
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    const started = Date.now();
    await page.goto(`${base}/dashboards/${created.data.permalink}`);
    // Every widget on the first screen drawn (those below wait for the reader to scroll to them).
    await page.waitForFunction(
      () => {
        const cards = Array.from(document.querySelectorAll("article.dash-card")).filter(
          (card) => card.getBoundingClientRect().top < window.innerHeight,
        );
        return cards.length > 0 && cards.every((card) => card.getAttribute("data-ready") === "true");
      },
      undefined,
      { timeout: 120_000 },
    );
    const loaded = Date.now() - started;
    const { profile } = (await cdp.send("Profiler.stop")) as {
      profile: {
        nodes: Array<{
          id: number;
          callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
        }>;
        samples: number[];
        timeDeltas: number[];
      };
    };
    const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
    // Minified names mean nothing: each frame is named by its original file, line and name from the build's maps.
    const maps = new Map<string, SourceMapConsumer | null>();
    const original = (url: string, line: number, column: number): string | null => {
      const file = url.match(/\/assets\/[^/?#]+\.js$/)?.[0];
      if (!file) return null;
      if (!maps.has(file)) {
        const mapPath = path.join(REPO_ROOT, "apps/web/dist", `${file}.map`);
        maps.set(
          file,
          fs.existsSync(mapPath) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapPath, "utf8"))) : null,
        );
      }
      const found = maps.get(file)?.originalPositionFor({ line: line + 1, column });
      if (!found?.source) return null;
      const source = found.source.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, "");
      return `${found.name ?? "?"} ${source}:${found.line}`;
    };
    const selfUs = new Map<string, number>();
    const byScript = new Map<string, number>();
    profile.samples.forEach((id, index) => {
      const frame = byNode.get(id)?.callFrame;
      if (!frame) return;
      const script = frame.url.replace(/^https?:\/\/[^/]+/, "") || "(native)";
      const key =
        original(frame.url, frame.lineNumber, frame.columnNumber) ??
        `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber}`;
      const delta = profile.timeDeltas[index] ?? 0;
      selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
      byScript.set(script, (byScript.get(script) ?? 0) + delta);
    });
    const top = (map: Map<string, number>, n: number) =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([key, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`)
        .join("\n");
    console.log(`loaded in ${loaded} ms (CPU ${process.env.CPU_RATE ?? 4}x)\n\nby script:\n${top(byScript, 12)}`);
    console.log(`\nself time:\n${top(selfUs, Number(process.env.TOP ?? 40))}`);
    // The long tasks (what total blocking time counts): runs of busy samples between idle ones, with what
    // each spent its time on.
    let at = 0;
    let run: { start: number; us: number; self: Map<string, number> } | null = null;
    const runs: Array<{ start: number; us: number; self: Map<string, number> }> = [];
    profile.samples.forEach((id, index) => {
      const delta = profile.timeDeltas[index] ?? 0;
      at += delta;
      const frame = byNode.get(id)?.callFrame;
      const idle = !frame || frame.functionName === "(idle)";
      if (idle) {
        if (run) runs.push(run);
        run = null;
        return;
      }
      run ??= { start: at, us: 0, self: new Map() };
      run.us += delta;
      const key = original(frame.url, frame.lineNumber, frame.columnNumber) ?? `${frame.functionName || "(anonymous)"}`;
      run.self.set(key, (run.self.get(key) ?? 0) + delta);
    });
    for (const long of runs.filter((task) => task.us > 50_000)) {
      console.log(
        `\ntask at ${(long.start / 1000).toFixed(0)} ms, ${(long.us / 1000).toFixed(0)} ms:\n${top(long.self, 8)}`,
      );
    }
    await browser.close();
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
