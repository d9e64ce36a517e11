import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "./wait";

let child: ChildProcess | null = null;
afterEach(() => {
  child?.kill("SIGKILL");
  child = null;
});

describe("the server process", () => {
  it("starts with the demo account, refuses a wrong setting by name, and stops cleanly on SIGTERM", async () => {
    const main = path.resolve(import.meta.dirname, "../src/main.ts");
    // Node itself with tsx's loader, as the other process tests: the tsx CLI would run the server in a
    // child and relay the signal, and SIGKILLs that child when it does not acknowledge within 30 ms, which
    // a busy server on a loaded machine does not (exit 143, the in-flight request reset).
    const node = [process.execPath, "--import", "tsx", main] as const;
    const bad = spawn(node[0], node.slice(1), { env: { ...process.env, PORT: "not-a-port" } });
    let badOut = "";
    bad.stderr.on("data", (d) => {
      badOut += d;
    });
    const badCode = await new Promise((resolve) => bad.on("exit", resolve));
    expect(badCode).toBe(1);
    expect(badOut).toContain("PORT");

    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-proc-"));
    child = spawn(node[0], node.slice(1), {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        NODE_ENV: "development",
        DEMO_PASSWORD: "known-demo-pass",
      },
    });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    // What the process said on its way out, shown when it did not exit cleanly.
    let errors = "";
    child.stderr?.on("data", (d) => {
      errors += d;
    });
    const deadline = Date.now() + 20_000;
    let healthy = false;
    while (Date.now() < deadline && !healthy) {
      healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 200));
    }
    expect(healthy).toBe(true);
    expect(out).toContain("demo@reportz.local");
    expect(fs.existsSync(path.join(dataDir, "reportz.sqlite"))).toBe(true);
    // An in-flight request finishes although SIGTERM arrives while it runs: its body is still being
    // sent when the signal comes, so the server has surely accepted it.
    const body = JSON.stringify({ email: "demo@reportz.local", password: "known-demo-pass" });
    const inFlight = new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/login",
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "x-requested-with": "XMLHttpRequest",
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.write(body.slice(0, 10));
      setTimeout(() => {
        child?.kill("SIGTERM");
        setTimeout(() => request.end(body.slice(10)), 300);
      }, 500);
    });
    const exited = new Promise((resolve) => child?.on("exit", resolve));
    expect(await inFlight).toBe(200);
    expect(await exited, `stderr: ${errors}\nlast log lines: ${out.slice(-2000)}`).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
