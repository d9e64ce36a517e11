import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AppConfig, ConfigError, loadConfig } from "../infra/config";
import { loadEnvFile } from "../infra/env-file";

/** Where an operator's command writes: the terminal, or a test's lines. */
export interface CliOutput {
  out(line: string): void;
  error(line: string): void;
}

/** True when `moduleUrl` (a module's `import.meta.url`) is the file node was asked to run. */
export function isEntryPoint(moduleUrl: string): boolean {
  return Boolean(process.argv[1]) && fileURLToPath(moduleUrl) === path.resolve(process.argv[1]);
}

/**
 * An operator's `npm run …` command: the app's own settings (.env, then the environment; a setting that
 * is wrong is told in one line and exits 1), then `run` with the terminal, whose answer is the exit code.
 */
export async function runOperatorCommand(
  run: (config: AppConfig, io: CliOutput, args: string[]) => Promise<number>,
): Promise<void> {
  loadEnvFile();
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const io: CliOutput = { out: (line) => console.log(line), error: (line) => console.error(line) };
  process.exitCode = await run(config, io, process.argv.slice(2));
}
