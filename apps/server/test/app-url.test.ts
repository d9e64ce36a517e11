import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, until } from "./wait";

/**
 * APP_URL at start-up, as an operator sees it (the rules themselves: src/infra/config.test.ts): the
 * server itself, started as `npm start` starts it, refuses production without APP_URL and warns once
 * elsewhere. APP_URL is passed empty (empty means unset), so no .env file can supply one.
 */

const MAIN = path.resolve(import.meta.dirname, "../src/main.ts");
let child: ChildProcess | null = null;
let dataDir = "";
afterEach(() => {
  child?.kill("SIGKILL");
  child = null;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-app-url-"));
  // Node with tsx's loader rather than the tsx CLI, whose child process would outlive a SIGKILL of the CLI.
  const started = spawn(process.execPath, ["--import", "tsx", MAIN], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
    env: { ...process.env, APP_URL: "", HOST: "127.0.0.1", DATA_DIR: dataDir, SEED_DEMO: "false", ...env },
  });
  child = started;
  const output = { stdout: "", stderr: "" };
  started.stdout?.on("data", (d) => {
    output.stdout += d;
  });
  started.stderr?.on("data", (d) => {
    output.stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => started.on("exit", (code) => resolve(code)));
  return { output, exited };
}

describe("APP_URL at start-up", () => {
  it("NODE_ENV=production without APP_URL: exits non-zero with one line naming APP_URL", async () => {
    const port = await freePort();
    const { output, exited } = start({
      NODE_ENV: "production",
      APP_KEY: "a-long-enough-production-key",
      PORT: String(port),
    });
    expect(await exited).toBe(1);
    expect(output.stderr.trim()).toBe(
      "Invalid configuration: APP_URL is required in production (the address users open, such as https://reports.example.com; e-mail links and embed snippets are built from it)",
    );
    expect(output.stdout).not.toContain("is running");
  }, 30_000);

  it("elsewhere without APP_URL: starts, and warns once that links point to localhost", async () => {
    const port = await freePort();
    const { output } = start({ NODE_ENV: "development", PORT: String(port), LOG_LEVEL: "info" });
    await until(() => output.stdout.includes("Reportz is running"), 30_000);
    const warnings = output.stdout
      .split("\n")
      .filter((line) => line.includes("APP_URL is not set"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 40,
        msg: `APP_URL is not set: e-mail links and embed snippets point to http://localhost:${port}, which only this computer can open. Set APP_URL to the address users open.`,
      }),
    ]);
    expect(output.stderr).toBe("");
  }, 40_000);
});
