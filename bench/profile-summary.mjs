// Summary of a V8 .cpuprofile (node --cpu-prof): the functions with the most self time and the most
// total (inclusive) time, as shares of the sampled time, leaving out the first `skip` seconds (start-up):
// `node bench/profile-summary.mjs file [top] [skip]`.
import fs from "node:fs";

const [file, topArg, skipArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const skipUs = Number(skipArg ?? 0) * 1e6;
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const hits = new Map();
let clock = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  clock += dt;
  if (clock >= skipUs) hits.set(id, (hits.get(id) ?? 0) + dt);
});
const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? `${url.replace(/^.*node_modules\//, "~/").replace(/^file:\/\/.*\/(apps|packages)\//, "$1/")}:${lineNumber + 1}`
    : "";
  return `${functionName || "(anonymous)"} ${where}`;
};
const self = new Map();
const total = new Map();
let all = 0;
for (const [id, dt] of hits) {
  all += dt;
  const node = byId.get(id);
  const key = label(node);
  self.set(key, (self.get(key) ?? 0) + dt);
  // Inclusive: each distinct function on the stack once.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const k = label(byId.get(at));
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + dt);
  }
}
const print = (title, map) => {
  console.log(`${title} (of ${(all / 1000).toFixed(0)} ms sampled)`);
  for (const [key, dt] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((dt / all) * 100).toFixed(1).padStart(6)} %  ${key}`);
  }
};
print("self time", self);
print("total time", total);
