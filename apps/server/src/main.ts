import fs from "node:fs";
import type http from "node:http";
import pino from "pino";
import { buildApp } from "./app";
import type { AppContext } from "./context";
import { buildFeatureServices, defineJobs, jobsStarted } from "./features";
import { createInfra } from "./infra";
import { closeInTurn } from "./infra/close-in-turn";
import { ConfigError, loadConfig } from "./infra/config";
import { loadEnvFile } from "./infra/env-file";
import { startWorkerHealth } from "./infra/worker-health";
import { demoLoginFile, seedDemoAccount } from "./seed/demo";

/**
 * Starts one process in its ROLE: `all` (the embedded default) serves the SPA and the API and runs
 * jobs; `web` serves HTTP and only enqueues; `worker` runs jobs and schedules and answers only a
 * health check on PORT. Migrations run at start in every role: concurrent starts are serialised by
 * the migrator's lock (PostgreSQL advisory lock).
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  const envFile = loadEnvFile();
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Log lines are written asynchronously, 4 KB at a time (a write per ~10 requests under load instead of
  // a blocking write per line, pino's default), and never later than half a second; pino writes out
  // what is left when the process exits.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // The destination was ended: the process is exiting.
    }
  }, 500).unref();
  const logger = pino(
    {
      level: config.logLevel,
      redact: ["req.headers.cookie", "req.headers.authorization", "req.headers['x-authorization']"],
      // JSON in production; readable single lines otherwise.
      ...(config.env === "production" ? {} : { transport: undefined }),
    },
    destination,
  );
  if (envFile) logger.info(`Settings read from ${envFile} (environment variables win)`);
  for (const warning of config.warnings) logger.warn(warning);

  const infra = await createInfra(config, { logger }).catch((error: unknown) => {
    // A configuration that only shows itself when the pieces are built (REDIS_URL without PostgreSQL).
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
  const ctx: AppContext = { ...infra, config };
  const services = buildFeatureServices(ctx);
  defineJobs(ctx, services);
  const serves = config.role !== "worker";
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let health: http.Server | null = null;
  if (serves) {
    const demo = config.seedDemo ? await seedDemoAccount(ctx) : null;
    app = await buildApp(ctx, { services });
    await app.listen({ port: config.port, host: config.host });
    logger.info(
      `Reportz is running at ${config.appUrl} (database: ${infra.dialect}, ${infra.mode} mode, role ${config.role})`,
    );
    if (demo) logger.info(`Demo login: ${demo.email} / ${demo.password} (kept in ${demo.file})`);
    else if (config.seedDemo && fs.existsSync(demoLoginFile(config.dataDir)))
      logger.info(`Demo login: see ${demoLoginFile(config.dataDir)}`);
  } else {
    health = await startWorkerHealth(ctx, config.port, config.host);
    logger.info(
      `Reportz worker is running (database: ${infra.dialect}, ${infra.mode} mode, health on port ${config.port})`,
    );
  }
  // Graceful shutdown: stop accepting, let in-flight requests finish, let running jobs finish (or abort
  // and release them after the queue's grace period), then close the database. Installed as soon as
  // requests may arrive, before the jobs start: their start-up (the PDF renderer's browser warming in the
  // background) leaves a window in which a SIGTERM would otherwise kill the process with its requests.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    const timer = setTimeout(() => process.exit(1), 10_000);
    // Each part is closed even when one before it fails (closeInTurn): the database last of all.
    const closed = await closeInTurn(
      [
        ["HTTP server", async () => app?.close()],
        ["worker health", () => new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()))],
        ["features", () => services.close()],
        ["infrastructure", () => infra.close()],
      ],
      logger,
    );
    clearTimeout(timer);
    destination.flushSync();
    process.exit(closed ? 0 : 1);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  if (config.role !== "web" && !closing) {
    try {
      await infra.jobs.start();
      if (!closing) await jobsStarted(ctx, services);
    } catch (error) {
      // A signal during start-up closes the queue and the database under the jobs' start and catch-up;
      // what they then fail with is the shutdown's doing, not an error.
      if (!closing) throw error;
      logger.debug({ err: error }, "job start-up cut short by the shutdown");
    }
  }
  destination.flushSync(); // the start-up lines, at once
}

void main();
