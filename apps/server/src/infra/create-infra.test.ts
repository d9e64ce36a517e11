import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { freePort } from "../../test/distributed/cluster";
import { createDatabase } from "../../test/postgres";
import { skipWithoutRedis, startTestRedis, type TestRedis } from "../../test/redis";
import { startTestS3, type TestS3 } from "../../test/s3";
import type { Infra } from "../context";
import { createInfra } from ".";
import { ConfigError, loadConfig } from "./config";

const logger = pino({ level: "silent" });
const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER_ROOT = path.resolve(here, "../..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await sleep(25);
  }
}

describe("createInfra", () => {
  it("refuses REDIS_URL without PostgreSQL, before connecting to anything", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-infra-"));
    try {
      // A closed port: the refusal must come from the configuration, not from a failed connection.
      const config = loadConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      });
      const error = await createInfra(config, { logger, sqliteFile: "t.sqlite" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/REDIS_URL: the distributed mode needs PostgreSQL/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("is embedded without REDIS_URL", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-infra-"));
    const infra = await createInfra(loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" }), {
      logger,
      sqliteFile: "t.sqlite",
    });
    try {
      expect(infra.mode).toBe("embedded");
      expect(infra.dialect).toBe("sqlite");
      expect(infra.socketAdapter).toBeUndefined();
    } finally {
      await infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL || skipWithoutRedis)(
  "createInfra: distributed (PostgreSQL + Redis)",
  () => {
    let redis: TestRedis;
    let s3: TestS3;
    let database: Awaited<ReturnType<typeof createDatabase>>;
    let dataDir: string;
    let env: Record<string, string>;
    beforeAll(async () => {
      redis = await startTestRedis();
      s3 = await startTestS3();
      database = await createDatabase(process.env.TEST_DATABASE_URL as string, "t_infra_");
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-infra-"));
      env = {
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: "reportz-infra",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      };
    });
    afterAll(async () => {
      await database?.drop();
      await s3?.stop();
      await redis?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("builds the distributed pieces, and they work across two processes' infrastructures", async () => {
      const config = loadConfig(env);
      const one: Infra = await createInfra(config, { logger });
      const two: Infra = await createInfra(config, { logger, migrate: false });
      try {
        expect(one.mode).toBe("distributed");
        expect(one.dialect).toBe("postgres");
        expect(one.socketAdapter).toBeDefined();
        expect(one.storage.root).toBe("s3://reportz-infra");

        // The bus: a publish through one reaches a subscriber of the other (retried until the
        // subscription is in effect: subscribing is a round trip to Redis).
        const heard: string[] = [];
        two.events.subscribe("dashboard.saved", (payload) => void heard.push(payload.dashboardId));
        await until(async () => {
          await one.events.publish("dashboard.saved", { companyId: "c1", dashboardId: "d1" });
          await sleep(50);
          return heard.length > 0;
        });
        expect(heard.every((id) => id === "d1")).toBe(true);

        // The cache and the rate limits are shared.
        await one.cache<{ n: number }>("infra", { maxSize: 10, ttlMs: 60_000 }).set("k", { n: 7 });
        expect(await two.cache<{ n: number }>("infra", { maxSize: 10, ttlMs: 60_000 }).get("k")).toEqual({ n: 7 });
        await one.rateLimits.hit("infra-login", 60_000);
        expect((await two.rateLimits.hit("infra-login", 60_000)).count).toBe(2);

        // Files put by one are read by the other.
        const file = await one.storage.put("c1", "png", Buffer.from("bytes"));
        expect((await two.storage.read(file))?.toString()).toBe("bytes");

        // A job enqueued by one (a web) is run by the other (a worker).
        const ran: number[] = [];
        const job = {
          name: "infra.check",
          payload: z.object({ n: z.number() }),
          handle: async (p: { n: number }) => void ran.push(p.n),
        };
        one.jobs.define(job);
        two.jobs.define(job);
        await one.jobs.enqueue("infra.check", { n: 1 });
        await two.jobs.start();
        await until(() => ran.length === 1);
      } finally {
        await one.close();
        await two.close();
      }
    });

    it("close() releases everything: a process that built and closed it exits on its own", async () => {
      const child = spawn(path.join(SERVER_ROOT, "../../node_modules/.bin/tsx"), ["test/infra-exit.ts"], {
        cwd: SERVER_ROOT,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      let closedAt = 0;
      child.stdout.on("data", (chunk) => {
        output += chunk;
        if (!closedAt && output.includes("closed")) closedAt = Date.now();
      });
      child.stderr.on("data", (chunk) => {
        output += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const code = await Promise.race([exited, sleep(20_000).then(() => "still running" as const)]);
      const exitedAt = Date.now();
      if (code === "still running") child.kill("SIGKILL");
      expect({ code, output }).toMatchObject({ code: 0 });
      expect(output).toContain("closed");
      // Promptly: a timer left pending by close() (a grace period, a quit timeout) would hold it for seconds.
      expect(exitedAt - closedAt).toBeLessThan(1500);
    });
  },
);
