import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import type { AppContext } from "../src/context";
import { createInfra } from "../src/infra";
import { loadConfig } from "../src/infra/config";
import { buildCompany, buildDashboard, buildReport } from "./factories";
import { startSmtpSink } from "./smtp-sink";
import { freePort, until } from "./wait";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const REPORTS = 50;

/** The server as `npm start` runs it (embedded mode: SQLite, its own job runner), in its own process. */
function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "apps/server/src/main.ts")], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );

describe("automatic reports survive a crash (docs/decisions.md, report delivery)", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it(`${REPORTS} reports due in the same minute, the server killed with SIGKILL mid-run and restarted: each delivered exactly once`, async () => {
    // A slow mail server (150 ms a message), so the kill lands in the middle of the run.
    const sink = await startSmtpSink({ delayMs: 150 });
    cleanup.push(() => sink.close());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-crash-"));
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const env = {
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      APP_KEY: "crash-test-app-key-0123456789",
      SMTP_URL: sink.url,
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
    };

    // The data, written before the server starts: 50 weekly reports whose slot was a minute ago.
    const config = loadConfig(env);
    const infra = await createInfra(config, { logger: pino({ level: "silent" }) });
    const ctx: AppContext = { ...infra, config };
    const company = await buildCompany(ctx);
    // Five reports per dashboard at most (docs/product.md §5): ten dashboards.
    const dashboards = [];
    for (let index = 0; index < REPORTS / 5; index += 1) {
      dashboards.push(await buildDashboard(ctx, { company, name: `Crash board ${index}` }));
    }
    const slot = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    const ids: string[] = [];
    for (let index = 0; index < REPORTS; index += 1) {
      const report = await buildReport(ctx, {
        company,
        dashboard: dashboards[Math.floor(index / 5)],
        input: {
          recipients: `client${index}@example.com`,
          period: "WEEK",
          detail: slot.getUTCDay(),
          hour: slot.getUTCHours(),
          minute: slot.getUTCMinutes(),
          timezone: "UTC",
          with_preview: false,
        },
      });
      ids.push(report.id);
    }
    // Made an hour ago, so their slot a minute ago is due (not before their creation).
    await ctx.db
      .updateTable("automatic_reports")
      .set({ created_at: new Date(Date.now() - 3_600_000).toISOString() })
      .execute();
    await infra.close();

    const first = startServer(env);
    cleanup.push(() => void first.kill("SIGKILL"));
    await until(() => sink.received.length >= 8, 60_000, 20);
    // Half-way through the next message's 150 ms, not right after an acceptance.
    await new Promise((resolve) => setTimeout(resolve, 75));
    first.kill("SIGKILL");
    await exited(first);
    const beforeRestart = sink.received.length;
    expect(beforeRestart).toBeLessThan(REPORTS);

    const second = startServer(env);
    cleanup.push(async () => {
      second.kill("SIGTERM");
      await exited(second);
    });
    // A job whose worker died is taken again once its lease ends (30 s in the embedded runner).
    await until(() => new Set(sink.received.map((mail) => mail.parsed.messageId)).size >= REPORTS, 90_000, 200);
    // Nothing more arrives afterwards (a late duplicate would).
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const perReport = new Map<string, number>();
    for (const mail of sink.received) {
      // The Message-ID names the report and its slot: <report-<id>-<slot>@host>.
      const id = ids.find((candidate) => mail.parsed.messageId?.startsWith(`<report-${candidate}-`)) ?? "?";
      perReport.set(id, (perReport.get(id) ?? 0) + 1);
    }
    expect([...perReport.keys()].sort()).toEqual([...ids].sort());
    expect([...perReport.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    expect(sink.received).toHaveLength(REPORTS);
  }, 180_000);
});
