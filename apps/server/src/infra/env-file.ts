import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

/**
 * The repository's root, where `.env.example` lives and `.env` is looked for when run from elsewhere:
 * the first folder up from this module whose package.json declares the workspaces. Found, not counted
 * in `..`s, because this module runs both from its source (tests, `npm run dev`) and bundled into
 * apps/server/dist/main.mjs (`npm start`, build.mjs), at different depths.
 */
export const REPOSITORY_ROOT = repositoryRoot(path.dirname(fileURLToPath(import.meta.url)));

function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && "workspaces" in JSON.parse(fs.readFileSync(manifest, "utf8"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No workspace root above ${from}`);
  }
}

/**
 * Where `.env` is looked for, first found wins: the folder the user ran the command from (`npm start`
 * runs in the server's workspace folder; npm keeps the user's folder in INIT_CWD), then the repository.
 */
export function envFileCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [env.INIT_CWD, process.cwd(), REPOSITORY_ROOT].filter((dir): dir is string => Boolean(dir));
  return [...new Set(dirs.map((dir) => path.join(path.resolve(dir), ".env")))];
}

/**
 * Reads the first `.env` found into `env`, never overriding a variable the environment already sets
 * (real environment variables win). Returns the file read, or null.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env, candidates = envFileCandidates(env)): string | null {
  const file = candidates.find((candidate) => fs.existsSync(candidate));
  if (!file) return null;
  const values = parseEnv(fs.readFileSync(file, "utf8"));
  for (const [name, value] of Object.entries(values)) if (env[name] === undefined) env[name] = value;
  return file;
}
