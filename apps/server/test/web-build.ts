import { execFileSync } from "node:child_process";
import path from "node:path";

const WEB_ROOT = path.resolve(import.meta.dirname, "../../web");

/**
 * The web build's server bundle (apps/web/src/ssr/server-entry.tsx: public views, a member's chart
 * drawings) built into `outDir`, as `npm run build` makes apps/web/dist-ssr. The server looks for it
 * beside the app's build (`<webDist>/../dist-ssr`). Used by tests and benchmarks that build their own.
 */
export function buildWebServerBundle(outDir: string): void {
  execFileSync(
    "npx",
    ["vite", "build", "--ssr", "src/ssr/server-entry.tsx", "--outDir", outDir, "--logLevel", "error"],
    {
      cwd: WEB_ROOT,
      stdio: "inherit",
      // Vitest sets NODE_ENV=test, which would build React's development copy.
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
}
