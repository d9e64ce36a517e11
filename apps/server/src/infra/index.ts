import path from "node:path";
import type { Logger } from "pino";
import type { Infra } from "../context";
import { createBrowserPool } from "./browser";
import { memoryCacheFactory } from "./cache";
import { type Clock, systemClock } from "./clock";
import type { AppConfig } from "./config";
import { migrateToLatest, openDatabase } from "./db";
import { createErrorReporter } from "./error-reporting";
import { createLocalEventBus } from "./events";
import type { JobQueue } from "./jobs";
import { createMailer } from "./mail";
import { countingCacheFactory } from "./metrics";
import { createMemoryRateLimitStore } from "./rate-limit-store";
import { createDiskStorage } from "./storage";

export interface InfraOptions {
  logger: Logger;
  clock?: Clock;
  /** SQLite file name under DATA_DIR (tests use their own). */
  sqliteFile?: string;
  /** Skip migrations (a process that knows another one ran them). Default: migrate. */
  migrate?: boolean;
}

/**
 * Builds every piece of infrastructure from configuration, once, at start-up (docs/operations.md).
 * Embedded: SQLite, memory cache, local bus, memory rate limits, database-backed jobs, disk files.
 * Distributed (`REDIS_URL` set, PostgreSQL required): Redis cache, pub/sub bus and rate limits,
 * BullMQ jobs, S3 or a shared directory for files.
 */
export async function createInfra(config: AppConfig, options: InfraOptions): Promise<Infra> {
  const { logger } = options;
  const errors = await createErrorReporter({
    ...config.errorReporting,
    environment: config.env,
    logger,
    // Uncaught errors of a real process; tests leave them to the test runner.
    processHandlers: config.env !== "test",
  });
  const clock = options.clock ?? systemClock;
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: path.join(config.dataDir, options.sqliteFile ?? "reportz.sqlite"),
  });
  if (options.migrate !== false) await migrateToLatest(database.db);
  const events = createLocalEventBus((error, name) =>
    logger.error({ err: error, event: name }, "event handler failed"),
  );
  const jobs: JobQueue = unbuiltJobQueue();
  const rateLimits = createMemoryRateLimitStore(() => clock.now().getTime());
  const browser = createBrowserPool({ executablePath: config.chromiumPath });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  return {
    mode: "embedded",
    role: config.role,
    db: database.db,
    dialect: database.dialect,
    // Every cache counts its hits and misses per namespace (GET /metrics).
    cache: countingCacheFactory(memoryCacheFactory),
    storage: createDiskStorage(config.storageDir),
    jobs,
    events,
    rateLimits,
    mailer,
    browser,
    clock,
    logger,
    errors,
    async close() {
      await jobs.close();
      await browser.close();
      await events.close();
      await rateLimits.close();
      await database.close();
      await errors.close();
    },
  };
}

// TEMPORARY (replaced by the database-backed runner in this same change set): keeps the tree compiling.
function unbuiltJobQueue(): JobQueue {
  const fail = async (): Promise<never> => {
    throw new Error("job queue not built yet");
  };
  return {
    define() {},
    enqueue: fail,
    async start() {},
    list: fail,
    counts: fail,
    async close() {},
  };
}
