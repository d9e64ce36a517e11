import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { screenPreloads } from "./routes";

const dist = fs.mkdtempSync(path.join(os.tmpdir(), "screen-preloads-"));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

// A Vite manifest shaped like the web build's: the insights' lazy part imports the dashboard screen's
// chunk, which imports React's (the build's chunking decides that, not the code).
const MANIFEST = {
  "index.html": { file: "assets/index.js", imports: ["_runtime.js"], css: ["assets/index.css"] },
  "_runtime.js": { file: "assets/runtime.js" },
  "_react-dom.js": { file: "assets/react-dom.js" },
  "_DashboardScreen.js": { file: "assets/DashboardScreen.js", imports: ["_react-dom.js"], css: ["assets/screen.css"] },
  "src/ssr/boot.ts": { file: "assets/boot.js", imports: ["_runtime.js"] },
  "src/ssr/chart-placeholders.ts": { file: "assets/chart-placeholders.js", imports: ["_snapshots.js"] },
  "_snapshots.js": { file: "assets/snapshots.js" },
  "src/features/insights/lazy.ts": {
    file: "assets/insights.js",
    imports: ["_DashboardScreen.js"],
    css: ["assets/insights.css"],
  },
  "src/routes/dashboard-show.tsx": { file: "assets/dashboard-show.js", imports: ["_DashboardScreen.js"] },
  "src/app/layouts/BareLayout.tsx": { file: "assets/BareLayout.js" },
};

it("a server-rendered public view preloads only what draws its charts, with the insights' styles but not the app", () => {
  fs.mkdirSync(path.join(dist, ".vite"), { recursive: true });
  fs.writeFileSync(path.join(dist, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
  const preloads = screenPreloads(dist);

  const served = preloads.get("server-rendered");
  const files = (links = "") => [...links.matchAll(/href="\/([^"]+)"/g)].map((match) => match[1]).sort();
  expect(files(served?.modules)).toEqual(["assets/boot.js", "assets/chart-placeholders.js", "assets/snapshots.js"]);
  // The server draws the insights' part and the dashboard's cards: their stylesheets, not their code.
  expect(files(served?.styles)).toEqual(["assets/insights.css", "assets/screen.css"]);

  // The app's own dashboard page still preloads its screen and React (the entry's files excluded).
  const app = preloads.get("dashboard.show");
  expect(files(app?.modules)).toEqual([
    "assets/BareLayout.js",
    "assets/DashboardScreen.js",
    "assets/dashboard-show.js",
    "assets/react-dom.js",
  ]);
});
