import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./wait";

const SERVER = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];
// The server as `npm start` runs it: built (build.mjs) and run by plain Node. The README's first command
// promises a demo account ready to log in; this proves it of what that command runs.
beforeAll(() => {
  execFileSync(process.execPath, [path.join(SERVER, "build.mjs")], { stdio: "inherit" });
}, 60_000);
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the real server on an empty data folder (no DEMO_PASSWORD) until it prints the demo login. */
async function firstStart(): Promise<{ port: number; dataDir: string; password: string; file: string }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-demo-"));
  dirs.push(dataDir);
  const { DEMO_PASSWORD: _unset, ...env } = process.env;
  const child = spawn(process.execPath, ["--enable-source-maps", path.join(SERVER, "dist/main.mjs")], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "development" },
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  const deadline = Date.now() + 30_000;
  let printed: RegExpExecArray | null = null;
  while (Date.now() < deadline && !printed) {
    printed = /Demo login: demo@reportz\.local \/ (\S+) \(kept in ([^)]+)\)/.exec(out);
    if (!printed) await new Promise((r) => setTimeout(r, 200));
  }
  expect(printed, out).not.toBeNull();
  return { port, dataDir, password: String(printed?.[1]), file: String(printed?.[2]) };
}

describe("the demo account", () => {
  it("gets a random password on first start, printed and kept in DATA_DIR/demo-login.txt (0600), that logs in", async () => {
    const first = await firstStart();
    const second = await firstStart();
    expect(first.password).not.toBe(second.password);
    expect(first.password.length).toBeGreaterThanOrEqual(16);
    expect(first.password).not.toBe("demo-password");

    for (const start of [first, second]) {
      expect(start.file).toBe(path.join(start.dataDir, "demo-login.txt"));
      expect(fs.readFileSync(start.file, "utf8")).toBe(`e-mail: demo@reportz.local\npassword: ${start.password}\n`);
      expect(fs.statSync(start.file).mode & 0o777).toBe(0o600);
    }

    const login = (password: string) =>
      fetch(`http://127.0.0.1:${first.port}/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
        body: JSON.stringify({ email: "demo@reportz.local", password }),
      });
    expect((await login(first.password)).status).toBe(200);
    expect((await login(second.password)).status).toBe(422);
    expect((await login("demo-password")).status).toBe(422);
  });
});
