import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { startRedis } from "./distributed/cluster";

/**
 * A real redis-server for the tests of the distributed pieces (scripts/ensure-services.sh installs it; started by the starter of the
 * multi-process proof). Without the binary these suites skip on a developer's machine but fail in CI:
 * there, a missing redis-server would otherwise silently turn every distributed test green.
 */

const binary = process.env.REDIS_SERVER_BIN ?? "redis-server";

export const redisInstalled: boolean = (() => {
  try {
    execFileSync(binary, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** True when suites needing Redis should be skipped (binary missing, not in CI). */
export const skipWithoutRedis: boolean = !redisInstalled && !process.env.CI;

export interface TestRedis {
  url: string;
  /** Stops the server and waits until it no longer answers (an outage, for tests that want one). */
  stop(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  if (!redisInstalled) throw new Error(`${binary} is not installed: the distributed tests need it (CI installs it)`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-redis-"));
  const server = await startRedis(workDir);
  // The starter waits for the port; wait until Redis itself answers (it accepts before it has loaded).
  await untilAnswers(server.url, true);
  let stopped = false;
  return {
    url: server.url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await untilAnswers(server.url, false);
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

async function untilAnswers(url: string, wanted: boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    const answered = await client
      .connect()
      .then(() => client.ping())
      .then(
        (reply) => reply === "PONG",
        () => false,
      );
    client.disconnect();
    if (answered === wanted) return;
    if (Date.now() > deadline) throw new Error(`redis at ${url} still ${wanted ? "silent" : "answering"}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
