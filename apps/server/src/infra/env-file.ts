import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

/** The repository's root, where `.env.example` lives and `.env` is looked for when run from elsewhere. */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

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
