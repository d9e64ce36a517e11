import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { CHROMIUM_LAUNCH_OPTIONS } from "../e2e/chromium";
import { BenchClient, type BenchServer, fmt, REPO_ROOT, startServer } from "./lib";
import { audit, type LighthouseFigures, medianFigures } from "./lighthouse";

/**
 * Lighthouse mobile on two or more builds of the web app, in turn (A, B, A, B…), each served by its own
 * server on the public view of a 'website-overview' template dashboard: on a machine whose load moves
 * Lighthouse's figures from run to run, builds measured alternately meet the same conditions.
 * `npx tsx bench/lighthouse-compare.ts before=/tmp/dist-before after=apps/web/dist` (each a `vite build`
 * output); `RUNS` (default 5) rounds. Prints each run, then each build's medians.
 */
async function main() {
  const runs = Number(process.env.RUNS ?? 5);
  const builds = process.argv.slice(2).map((arg) => {
    const [name, dir] = arg.includes("=") ? arg.split("=") : [arg, arg];
    return { name, dir: path.resolve(REPO_ROOT, dir) };
  });
  if (builds.length < 2) throw new Error("give two builds or more: name=dist-dir …");
  const servers: BenchServer[] = [];
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  try {
    const pages: Array<{ name: string; url: string }> = [];
    for (const build of builds) {
      const server = await startServer(build.dir);
      servers.push(server);
      const client = new BenchClient(server.url);
      await client.signUp();
      const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
        name: "Website overview",
        template: "website-overview",
      });
      pages.push({ name: build.name, url: `${server.url}/dashboards/${created.data.permalink}` });
    }
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_LAUNCH_OPTIONS.executablePath,
      chromeFlags: ["--headless=new", ...CHROMIUM_LAUNCH_OPTIONS.args],
    });
    const results = new Map<string, LighthouseFigures[]>();
    const line = (f: LighthouseFigures) =>
      `performance ${fmt(f.score)}, FCP ${fmt(f.fcpMs / 1000)} s, LCP ${fmt(f.lcpMs / 1000)} s, TBT ${fmt(f.tbtMs, 0)} ms`;
    for (let run = 0; run < runs; run++) {
      for (const { name, url } of pages) {
        const figures = await audit(url, chrome.port, undefined);
        results.set(name, [...(results.get(name) ?? []), figures]);
        console.log(`${name} #${run + 1}: ${line(figures)}`);
      }
    }
    for (const { name } of pages) {
      const all = results.get(name) ?? [];
      console.log(`${name}: median of ${all.length}: ${line(medianFigures(all))}`);
    }
  } finally {
    await chrome?.kill();
    for (const server of servers) await server.close();
  }
}

await main();
