import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../e2e/chromium";
import { BenchClient, type BenchServer, fmt, REPO_ROOT, startServer } from "./lib";

/**
 * Lighthouse's mobile total blocking time, estimated from CPU time instead of wall time, to compare
 * builds of the web app on a machine other work shares (Lighthouse's own figures move by seconds with
 * the load average there). The public view of a 'website-overview' template dashboard is loaded in
 * Chromium at a phone's size with a trace; for each main-thread task after first contentful paint its
 * thread (CPU) time is multiplied by 4 (Lighthouse's mobile CPU slowdown) and what exceeds 50 ms counts.
 * Builds load in turn (A, B, A, B…) so both meet the same conditions; prints each run and the median.
 *
 * `npx tsx bench/blocking-time.ts before=/tmp/dist-before after=apps/web/dist` (each a `vite build`
 * output; default: `apps/web/dist`). `RUNS` (default 5), `DETAIL=1` lists each long task.
 */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

/** What a task's time went to, for DETAIL: its largest script, layout and timer events. */
const PARTS = new Set([
  "FunctionCall",
  "EvaluateScript",
  "v8.evaluateModule",
  "TimerFire",
  "FireAnimationFrame",
  "Layout",
]);

function blockingTime(events: TraceEvent[]): {
  blockingMs: number;
  longTasks: number;
  cpuMs: number;
  detail: string[];
} {
  const fcp = events.find((event) => event.name === "firstContentfulPaint");
  const main = events.find(
    (event) => event.name === "thread_name" && event.args?.name === "CrRendererMain" && event.pid === fcp?.pid,
  );
  if (!fcp || !main) throw new Error("no first contentful paint in the trace");
  const tasks = events
    .filter(
      (event) =>
        event.ph === "X" &&
        event.pid === main.pid &&
        event.tid === main.tid &&
        (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask") &&
        event.ts >= fcp.ts,
    )
    .sort((a, b) => a.ts - b.ts);
  let blockingMs = 0;
  let longTasks = 0;
  let cpuMs = 0;
  const detail: string[] = [];
  let end = 0;
  for (const task of tasks) {
    // RunTask nests inside ThreadControllerImpl::RunTask: the outer one counts.
    if (task.ts < end) continue;
    end = task.ts + (task.dur ?? 0);
    const ms = (task.tdur ?? task.dur ?? 0) / 1000;
    cpuMs += ms;
    if (ms * 4 <= 50) continue;
    blockingMs += ms * 4 - 50;
    longTasks++;
    const parts = events
      .filter((e) => e.pid === task.pid && e.tid === task.tid && e.ph === "X" && e.ts >= task.ts && e.ts < end)
      .filter((e) => PARTS.has(e.name))
      .sort((a, b) => (b.tdur ?? b.dur ?? 0) - (a.tdur ?? a.dur ?? 0))
      .slice(0, 3)
      .map((e) => `${e.name} ${path.basename(e.args?.data?.url ?? "")} ${fmt((e.tdur ?? e.dur ?? 0) / 1000, 0)} ms`);
    detail.push(`  at ${fmt((task.ts - fcp.ts) / 1000, 0)} ms, CPU ${fmt(ms, 1)} ms: ${parts.join(" | ")}`);
  }
  return { blockingMs, longTasks, cpuMs, detail };
}

async function main() {
  const runs = Number(process.env.RUNS ?? 5);
  const builds = (process.argv.length > 2 ? process.argv.slice(2) : ["current=apps/web/dist"]).map((arg) => {
    const [name, dir] = arg.includes("=") ? arg.split("=") : [arg, arg];
    return { name, dir: path.resolve(REPO_ROOT, dir) };
  });
  const servers: Array<{ name: string; server: BenchServer; page: string }> = [];
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    for (const build of builds) {
      const server = await startServer(build.dir);
      servers.push({ name: build.name, server, page: "" });
      const client = new BenchClient(server.url);
      await client.signUp();
      const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
        name: "Website overview",
        template: "website-overview",
      });
      servers[servers.length - 1].page = `${server.url}/dashboards/${created.data.permalink}`;
    }
    const results = new Map<string, number[]>();
    for (let run = 0; run < runs; run++) {
      for (const { name, page: url } of servers) {
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
          hasTouch: true,
        });
        const page = await context.newPage();
        await browser.startTracing(page, {
          categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "loading"],
        });
        await page.goto(url);
        // Every card of the first screen drawn (the rest wait for the reader to scroll), then 3 s of quiet.
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
        await page.waitForTimeout(3000);
        const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
        await context.close();
        const figures = blockingTime(trace.traceEvents);
        results.set(name, [...(results.get(name) ?? []), figures.blockingMs]);
        console.log(
          `${name} #${run + 1}: estimated TBT ${fmt(figures.blockingMs, 0)} ms in ${figures.longTasks} long tasks, ` +
            `main-thread CPU after FCP ${fmt(figures.cpuMs, 0)} ms`,
        );
        if (process.env.DETAIL) console.log(figures.detail.join("\n"));
      }
    }
    for (const [name, values] of results) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(
        `${name}: median estimated TBT ${fmt(sorted[Math.floor(sorted.length / 2)], 0)} ms (${values.map((v) => fmt(v, 0)).join(", ")})`,
      );
    }
  } finally {
    await browser.close();
    for (const { server } of servers) await server.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
