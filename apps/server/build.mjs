// Builds the server for `npm start`: src/main.ts and everything it imports, @app/core included, into one
// ES module (dist/main.mjs) that plain Node runs. Installed packages stay outside, loaded from
// node_modules as usual (native ones such as better-sqlite3 and argon2 cannot be bundled).
//
// Why not run the TypeScript through tsx, as tests and `npm run dev` do (docs/decisions.md, "Repository and
// tooling"): tsx compiles with esbuild's keepNames, which wraps every function expression in a
// `__name(fn, "…")` call, an Object.defineProperty on each closure created, on every request; and its
// loader hooks live on a thread of their own for the whole life of the process.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const manifest = (file) => JSON.parse(readFileSync(path.join(here, file), "utf8"));
const installed = [
  ...Object.keys(manifest("package.json").dependencies),
  ...Object.keys(manifest("../../packages/core/package.json").dependencies),
];

const outfile = path.join(here, "dist/main.mjs");
const { outputFiles } = await build({
  entryPoints: [path.join(here, "src/main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // `pkg` and `pkg/sub/path` alike.
  external: installed.flatMap((name) => [name, `${name}/*`]),
  // Stack traces in logs and error reports point at the TypeScript (node --enable-source-maps).
  sourcemap: true,
  logLevel: "warning",
  write: false,
});
// Written aside, then renamed: two servers started at once (the browser tests start two) may both build,
// and neither may run the other's half-written file.
mkdirSync(path.dirname(outfile), { recursive: true });
for (const file of outputFiles) {
  const aside = `${file.path}.${process.pid}`;
  writeFileSync(aside, file.contents);
  renameSync(aside, file.path);
}
