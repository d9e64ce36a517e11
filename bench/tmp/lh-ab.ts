import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../e2e/chromium";
import { BenchClient, startServer } from "../lib";
const builds = process.argv.slice(2).map((a) => a.split("="));
const urls: Array<[string, string]> = [];
const servers = [];
for (const [name, dir] of builds) {
  const server = await startServer(path.resolve(dir));
  servers.push(server);
  const client = new BenchClient(server.url);
  await client.signUp();
  const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", { name: "Website overview", template: "website-overview" });
  urls.push([name, `${server.url}/dashboards/${created.data.permalink}`]);
}
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_LAUNCH_OPTIONS.executablePath, chromeFlags: ["--headless=new", ...CHROMIUM_LAUNCH_OPTIONS.args] });
const res: Record<string, string[]> = {};
for (let i = 0; i < Number(process.env.RUNS ?? 4); i++) {
  for (const [name, url] of urls) {
    const r = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    const a = r!.lhr.audits;
    const line = `${r!.lhr.categories.performance.score} fcp ${Math.round(a["first-contentful-paint"].numericValue!)} tbt ${Math.round(a["total-blocking-time"].numericValue!)}`;
    (res[name] ??= []).push(line);
    console.log(name, line);
  }
}
await chrome.kill();
for (const s of servers) await s.close();
process.exit(0);
