import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { probeJob } from "../src/features/ops/jobs";
import { systemClock } from "../src/infra/clock";
import { migrateToLatest, openDatabase } from "../src/infra/db";
import { createDatabaseJobQueue, type DatabaseJobQueue } from "../src/infra/db-jobs";
import { DEMO_EMAIL, seedDemoAccount } from "../src/seed/demo";
import { dbTargets, startTestEnv } from "./harness";
import { freePort, until } from "./wait";

let child: ChildProcess | null = null;
afterEach(() => {
  child?.kill("SIGKILL");
  child = null;
});

describe("ROLE=worker", () => {
  it("runs jobs enqueued by another process, answers only a health check, and lets a running job finish on SIGTERM", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-worker-"));
    const handle = openDatabase({ databaseUrl: null, sqlitePath: path.join(dataDir, "reportz.sqlite") });
    await migrateToLatest(handle.db);
    // The enqueueing side: a process that only enqueues (as a web process does), on the same database.
    const logger = pino({ level: "silent" });
    const jobs = createDatabaseJobQueue({ db: handle.db, clock: systemClock, logger });
    jobs.define(probeJob({ logger, db: handle.db, clock: systemClock }));

    const port = await freePort();
    const main = path.resolve(import.meta.dirname, "../src/main.ts");
    // Node with tsx's loader rather than the tsx CLI, whose child process would outlive a SIGKILL of the CLI.
    child = spawn(process.execPath, ["--import", "tsx", main], {
      cwd: path.resolve(import.meta.dirname, "../../.."),
      env: {
        ...process.env,
        ROLE: "worker",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
      },
    });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    const health = () =>
      fetch(`http://127.0.0.1:${port}/api/health`).then(
        async (r) => (r.ok ? r.json() : null),
        () => null,
      );
    await until(async () => (await health()) !== null);
    expect(await health()).toMatchObject({ status: "ok", role: "worker", jobs: { failed: 0 } });
    expect((await fetch(`http://127.0.0.1:${port}/api/company`)).status).toBe(404);
    expect(out).not.toContain("demo@reportz.local"); // a worker does not seed or serve

    await jobs.enqueue("ops.probe", { key: "quick" });
    await until(async () => (await jobs.list("ops.probe", "completed")).length === 1);

    await jobs.enqueue("ops.probe", { key: "held", sleepMs: 2_000 });
    await until(() => /"key":"held".*ops\.probe started/.test(out));
    const exited = new Promise((resolve) => child?.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out).toMatch(/"key":"held".*ops\.probe finished/);
    expect((await jobs.list("ops.probe", "completed")).map((j) => j.key).sort()).toEqual(["held", "quick"]);
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});

describe("jobs in the test environment", () => {
  it("every feature's jobs are defined as in a real process, so a test can enqueue and run them", async () => {
    const env = await startTestEnv("sqlite");
    try {
      const queued = await env.ctx.jobs.enqueue("ops.probe", { key: "in-tests" });
      expect(queued.duplicate).toBe(false);
      await expect(env.ctx.jobs.enqueue("ops.probe", { key: "" })).rejects.toThrow();
      await (env.ctx.jobs as DatabaseJobQueue).runDue();
      expect((await env.ctx.jobs.list("ops.probe", "completed")).map((j) => j.key)).toEqual(["in-tests"]);
    } finally {
      await env.close();
    }
  });
});

describe("several processes starting together", () => {
  for (const target of dbTargets()) {
    it(`seed one demo account between them [${target}]`, async () => {
      const env = await startTestEnv(target);
      try {
        const seeded = await Promise.all([1, 2, 3].map(() => seedDemoAccount(env.ctx)));
        expect(seeded.filter((s) => s !== null)).toHaveLength(1);
        expect(await env.ctx.db.selectFrom("companies").select("id").execute()).toHaveLength(1);
        expect(await env.ctx.db.selectFrom("users").select("email").execute()).toEqual([{ email: DEMO_EMAIL }]);
      } finally {
        await env.close();
      }
    });
  }
});
