import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { SourceMapConsumer } from "source-map-js";
import { CHROMIUM_LAUNCH_OPTIONS } from "../e2e/chromium";
import { BenchClient, REPO_ROOT, seedDashboard, startServer } from "./lib";

/**
 * Where the owner's dashboard spends its time before all 24 widgets are ready, the page of bench (b):
 * the request waterfall (each request's start and end from navigation, the widget-data requests
 * grouped), the page's main-thread CPU (Chromium's own counters: script, layout, style, all tasks)
 * from navigation to the last widget ready, and the long tasks. A shared machine stretches wall time;
 * the CPU and request counts are steadier. Run after `npm run build` (it serves apps/web/dist, or
 * `WEB_DIST`): `npx tsx bench/profile-dashboard.ts [runs]`; the CPU profile is of the first reload, or of the
 * load `PROFILE_LOAD` names (`cold`).
 */
async function warmServer(browser: Browser, url: string) {
  const client = new BenchClient(url);
  await client.signUp();
  const { permalink, widgets } = await seedDashboard(client);
  const context = await browser.newContext({ viewport: { width: 1280, height: 8000 } });
  const [name, value] = client.cookie.split("=");
  await context.addCookies([{ name, value, url }]);
  const page = await context.newPage();
  await page.goto(`${url}/dashboards/${permalink}`);
  await page.waitForFunction(
    (count) => document.querySelectorAll('[data-ready="true"]').length >= count,
    widgets.length,
    { timeout: 60_000 },
  );
  await context.close();
}

async function main() {
  const runs = Number(process.argv[2] ?? 3);
  const webDist = process.env.WEB_DIST ?? path.join(REPO_ROOT, "apps/web/dist");
  if (!fs.existsSync(path.join(webDist, "index.html"))) throw new Error(`no build in ${webDist}: npm run build`);
  const server = await startServer(webDist);
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    // `WARM_SERVER=1`: another company's dashboard is loaded once first, in a browser context of its own
    // (the same Chromium), so the measured cold load is a new context's on a running server (its code warm,
    // its caches empty for this company) rather than on a process started a moment before.
    if (process.env.WARM_SERVER === "1") await warmServer(browser, server.url);
    const client = new BenchClient(server.url);
    await client.signUp();
    const { permalink, widgets } = await seedDashboard(client);
    const context = await browser.newContext({ viewport: { width: 1280, height: 8000 } });
    const [name, value] = client.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    if (process.env.DETAIL === "1") {
      // When each card became ready and each chart's snapshot went in, from the page's own clock.
      // A string, not a function: tsx's compiled functions call a helper (`__name`) the page does not have.
      await page.addInitScript(`
        const marks = [];
        window.__marks = marks;
        // React's commits, through the hook React calls for its developer tools (production builds too).
        window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
          supportsFiber: true,
          renderers: new Map(),
          inject() { return 1; },
          checkDCE() {},
          onCommitFiberRoot() { marks.push(["commit", performance.now()]); },
          onCommitFiberUnmount() {},
          onPostCommitFiberRoot() {},
          onScheduleFiberRoot() {},
        };
        // Each chart snapshot asked of the worker (a chart drawn twice, e.g. before and after its card is measured, shows here).
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (message, ...rest) {
          if (message && message.input) marks.push(["snapshot asked", performance.now()]);
          return post.call(this, message, ...rest);
        };
        // Each kept snapshot looked up (its key hashed) and its answer from Cache Storage (snapshot-store.ts).
        const digest = SubtleCrypto.prototype.digest;
        SubtleCrypto.prototype.digest = function (...args) {
          marks.push(["lookup asked", performance.now()]);
          return digest.apply(this, args);
        };
        const match = Cache.prototype.match;
        Cache.prototype.match = function (...args) {
          return match.apply(this, args).then((found) => {
            if (String(args[0]).includes("/chart-snapshot/") && !String(args[0]).includes("/opened/"))
              marks.push(["lookup answered", performance.now()]);
            return found;
          });
        };
        // Each widget's answer read by the page (its body's text in hand, before React sees it).
        const text = Response.prototype.text;
        Response.prototype.text = function (...args) {
          const url = this.url;
          return text.apply(this, args).then((body) => {
            if (url.includes("/api/widgets/data")) marks.push(["answer read", performance.now()]);
            return body;
          });
        };
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === "attributes" && record.target.getAttribute("data-ready") === "true")
              marks.push(["ready", performance.now()]);
            for (const node of record.addedNodes)
              if (node instanceof Element && node.classList.contains("echart-snapshot"))
                marks.push(["snapshot layer", performance.now()]);
          }
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"] });
      `);
    }
    // `CORES=n`: the page believes it has n cores (the chart snapshots' worker pool is sized by it).
    if (process.env.CORES) {
      await page.addInitScript(
        `Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => ${Number(process.env.CORES)} });`,
      );
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Performance.enable");
    type Req = { url: string; method: string; start: number; end?: number };
    let requests = new Map<string, Req>();
    cdp.on("Network.requestWillBeSent", (event) => {
      requests.set(event.requestId, {
        url: event.request.url.replace(server.url, ""),
        method: event.request.method,
        start: event.timestamp,
      });
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = requests.get(event.requestId);
      if (request) request.end = event.timestamp;
    });
    const metrics = async () => {
      const { metrics: list } = (await cdp.send("Performance.getMetrics")) as {
        metrics: Array<{ name: string; value: number }>;
      };
      return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
    };
    const measure = async (label: string, go: () => Promise<unknown>) => {
      requests = new Map();
      const profiling = label === (process.env.PROFILE_LOAD ?? "warm 1") && process.env.PROFILE !== "0";
      if (profiling) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
        await cdp.send("Profiler.start");
      }
      await browser.startTracing(page, {
        categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel"],
      });
      const serverCpu = process.cpuUsage();
      const started = Date.now();
      await go();
      await page.waitForFunction(
        (count) => document.querySelectorAll('[data-ready="true"]').length >= count,
        widgets.length,
        { timeout: 60_000, polling: 16 },
      );
      const wall = Date.now() - started;
      // Stopped at once: what the page does after every widget is ready (charts going live) is not this load's.
      const profile = profiling ? ((await cdp.send("Profiler.stop")).profile as unknown as Profile) : null;
      const server = process.cpuUsage(serverCpu);
      const trace = mainThread(JSON.parse((await browser.stopTracing()).toString("utf8")));
      // Chromium's counters start again with each document: what they say is this load's.
      const after = await metrics();
      const cpu = (key: string) => `${(after[key] * 1000).toFixed(0)} ms`;
      if (profile) summarise(profile, webDist);
      if (process.env.DETAIL === "1") {
        const marks = await page.evaluate(() => (window as unknown as { __marks: Array<[string, number]> }).__marks);
        const of = (kind: string) => marks.filter(([name]) => name === kind).map(([, at]) => at.toFixed(0));
        const readyAt = Math.max(...marks.filter(([name]) => name === "ready").map(([, at]) => at));
        const commits = marks.filter(([name, at]) => name === "commit" && at <= readyAt).map(([, at]) => at.toFixed(0));
        console.log(
          `  widget answers read at ${of("answer read").join(" ")}\n  kept snapshots looked up at ${of("lookup asked").join(" ")}\n  answered at ${of("lookup answered").join(" ")}\n  snapshots asked at ${of("snapshot asked").join(" ")}\n  snapshot layers at ${of("snapshot layer").join(" ")}\n  cards ready at ${of("ready").join(" ")}\n  ${commits.length} React commits until then, at ${commits.join(" ")}`,
        );
      }
      const all = [...requests.values()].sort((a, b) => a.start - b.start);
      const t0 = all[0]?.start ?? 0;
      const ms = (t: number | undefined) => (t === undefined ? "  …" : `${((t - t0) * 1000).toFixed(0).padStart(5)}`);
      console.log(
        `\n${label}: ${wall} ms wall; main thread: tasks ${cpu("TaskDuration")}, script ${cpu("ScriptDuration")}, layout ${cpu("LayoutDuration")}, style ${cpu("RecalcStyleDuration")}; ${all.length} requests`,
      );
      console.log(
        `  CPU (thread time): page main thread ${trace.cpuMs.toFixed(0)} ms in ${trace.tasks} tasks (${trace.long} over 50 ms), its workers ${trace.workerMs.toFixed(0)} ms, server process ${((server.user + server.system) / 1000).toFixed(0)} ms`,
      );
      const widgetData = all.filter((request) => /widgets\/data|\/data$/.test(request.url));
      // Static files in waves (a wave starts 20 ms or more after the previous file was asked for): each
      // wave after the first is a chunk waterfall's step.
      let wave: Req[] = [];
      const flush = () => {
        if (wave.length === 0) return;
        const names = wave
          .map((request) => request.url.replace(/^\/assets\//, "").replace(/-[\w-]{8}\./, "."))
          .slice(0, process.env.FILES === "1" ? undefined : 6);
        const end = Math.max(...wave.map((request) => request.end ?? request.start));
        console.log(
          `  ${ms(wave[0].start)} → ${ms(end)}  ${wave.length} files: ${names.join(" ")}${wave.length > names.length ? " …" : ""}`,
        );
        wave = [];
      };
      for (const request of all.filter((request) => !widgetData.includes(request))) {
        const asset = request.url.startsWith("/assets/");
        if (!asset || (wave.length > 0 && request.start - wave[wave.length - 1].start > 0.02)) flush();
        if (asset) wave.push(request);
        else console.log(`  ${ms(request.start)} → ${ms(request.end)}  ${request.method} ${request.url.slice(0, 90)}`);
      }
      flush();
      if (widgetData.length > 0) {
        const first = widgetData[0];
        const lastEnd = Math.max(...widgetData.map((request) => request.end ?? 0));
        console.log(
          `  ${ms(first.start)} → ${ms(lastEnd)}  ${widgetData.length} widget-data requests (${first.method} ${first.url.slice(0, 50)}…)`,
        );
      }
    };
    await measure("cold", () => page.goto(`${server.url}/dashboards/${permalink}`));
    for (let i = 0; i < runs; i++) await measure(`warm ${i + 1}`, () => page.reload());
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The page's main thread from a trace: the thread time (CPU, not wall time: a busy machine does not
 * lengthen it much) of its top-level tasks, and how many there were.
 */
function mainThread(trace: { traceEvents: Array<Record<string, unknown>> }) {
  const events = trace.traceEvents;
  const main = events.filter(
    (event) => event.name === "thread_name" && (event.args as { name?: string })?.name === "CrRendererMain",
  );
  // The renderer that ran the page: the main thread with the most task time.
  let best: { cpuMs: number; tasks: number; long: number; pid?: unknown; tid?: unknown } = {
    cpuMs: 0,
    tasks: 0,
    long: 0,
  };
  for (const thread of main) {
    const tasks = events.filter(
      (event) =>
        event.pid === thread.pid &&
        event.tid === thread.tid &&
        (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask") &&
        event.ph === "X",
    );
    const cpuMs = tasks.reduce((sum, event) => sum + Number(event.tdur ?? 0), 0) / 1000;
    const long = tasks.filter((event) => Number(event.dur ?? 0) > 50_000).length;
    if (cpuMs > best.cpuMs) best = { cpuMs, tasks: tasks.length, long, pid: thread.pid, tid: thread.tid };
  }
  if (process.env.DETAIL === "1") breakdown(events, best.pid, best.tid);
  // The page's workers (the chart snapshots' thread): CPU off the main thread, on the same machine.
  const workers = events.filter(
    (event) =>
      event.name === "thread_name" &&
      event.pid === best.pid &&
      /Worker/.test(String((event.args as { name?: string })?.name ?? "")),
  );
  let workerMs = 0;
  for (const thread of workers) {
    workerMs +=
      events
        .filter(
          (event) =>
            event.pid === thread.pid &&
            event.tid === thread.tid &&
            (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask") &&
            event.ph === "X",
        )
        .reduce((sum, event) => sum + Number(event.tdur ?? 0), 0) / 1000;
  }
  return { ...best, workerMs };
}

/**
 * `DETAIL=1`: the main thread's thread time by trace event (self time: a nested event's time is its own,
 * not its parent's) and its busy time per 100 ms of the load, to see what kind of work is left.
 */
function breakdown(events: Array<Record<string, unknown>>, pid: unknown, tid: unknown) {
  const mine = events
    .filter((event) => event.pid === pid && event.tid === tid && event.ph === "X" && event.tdur !== undefined)
    .map((event) => ({
      name: String(event.name),
      ts: Number(event.ts),
      end: Number(event.ts) + Number(event.dur ?? 0),
      tdur: Number(event.tdur),
    }))
    .sort((a, b) => a.ts - b.ts || b.end - a.end);
  const self = new Map<string, number>();
  const stack: Array<{ name: string; end: number; tdur: number; children: number }> = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1].end <= until) {
      const done = stack.pop();
      if (!done) break;
      self.set(done.name, (self.get(done.name) ?? 0) + Math.max(0, done.tdur - done.children));
      if (stack.length > 0) stack[stack.length - 1].children += done.tdur;
    }
  };
  for (const event of mine) {
    close(event.ts);
    stack.push({ name: event.name, end: event.end, tdur: event.tdur, children: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`  main thread by trace event (self thread time):`);
  for (const [name, us] of rows) console.log(`    ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  const tasks = mine.filter((event) => event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask");
  const start = Math.min(...tasks.map((event) => event.ts));
  const buckets = new Map<number, number>();
  for (const task of tasks) {
    const bucket = Math.floor((task.ts - start) / 100_000);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + task.tdur);
  }
  console.log(
    `  main thread busy per 100 ms: ${[...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([bucket, us]) => `${bucket * 100}:${(us / 1000).toFixed(0)}`)
      .join(" ")}`,
  );
}

interface Profile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** CPU by script and the functions with the most self time, named from the build's source maps. */
function summarise(profile: Profile, webDist: string) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const maps = new Map<string, SourceMapConsumer | null>();
  const original = (url: string, line: number, column: number): string | null => {
    const file = url.match(/\/assets\/[^/?#]+\.js$/)?.[0];
    if (!file || line < 0) return null;
    if (!maps.has(file)) {
      const mapPath = path.join(webDist, `${file}.map`);
      maps.set(
        file,
        fs.existsSync(mapPath) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapPath, "utf8"))) : null,
      );
    }
    const found = maps.get(file)?.originalPositionFor({ line: line + 1, column });
    if (!found?.source) return null;
    return `${found.name ?? "?"} ${found.source.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, "")}:${found.line}`;
  };
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const byScript = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byNode.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") return;
    const script = frame.url.replace(/^https?:\/\/[^/]+/, "") || `(${frame.functionName || "native"})`;
    const key =
      original(frame.url, frame.lineNumber, frame.columnNumber) ?? `${frame.functionName || "(anonymous)"} ${script}`;
    const delta = profile.timeDeltas[index] ?? 0;
    self.set(key, (self.get(key) ?? 0) + delta);
    const source = key.split(" ")[1] ?? "";
    const pack =
      source.startsWith("src/") || source.startsWith("packages/")
        ? source.replace(/:\d+$/, "")
        : (source.match(/^(@[^/]+\/[^/]+|[^/:]+)/)?.[1] ?? key);
    byPackage.set(pack, (byPackage.get(pack) ?? 0) + delta);
    byScript.set(script, (byScript.get(script) ?? 0) + delta);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `    ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`)
      .join("\n");
  console.log(
    `  CPU profile (busy samples) by script:\n${top(byScript, 15)}\n  self time:\n${top(self, Number(process.env.TOP ?? 30))}`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
