import path from "node:path";
import type { Logger } from "pino";
import type { Infra } from "../context";
import { createBrowserPool } from "./browser";
import { memoryCacheFactory } from "./cache";
import { type Clock, systemClock } from "./clock";
import { type AppConfig, ConfigError } from "./config";
import { type Db, migrateToLatest, openDatabase } from "./db";
import { createDatabaseJobQueue } from "./db-jobs";
import { createErrorReporter } from "./error-reporting";
import { createLocalEventBus } from "./events";
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
    onIdleError: (error) => logger.warn({ err: error }, "an idle database connection broke; the pool replaces it"),
  });
  if (options.migrate !== false) await migrateToLatest(database.db);
  if (config.redisUrl && database.dialect !== "postgres") {
    await database.close();
    throw new ConfigError(
      "Invalid configuration:\n  REDIS_URL: the distributed mode needs PostgreSQL (DATABASE_URL=postgres://…)",
    );
  }
  const pieces = config.redisUrl
    ? // Imported only in this mode: Redis, BullMQ, the Socket.IO Redis adapter and the AWS SDK cost each
      // server test file and `npm run dev` their import time for nothing. (`npm start`'s bundle still loads
      // them: docs/decisions.md, "The embedded mode loads none of the distributed mode's packages".)
      {
        mode: "distributed" as const,
        ...(await (await import("./distributed")).createDistributedPieces(config, logger)),
      }
    : { mode: "embedded" as const, ...embeddedPieces(config, logger, clock, database.db) };
  const browser = createBrowserPool({ executablePath: config.chromiumPath, maxPages: config.browserPages });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  return {
    mode: pieces.mode,
    role: config.role,
    db: database.db,
    dialect: database.dialect,
    // Every cache counts its hits and misses per namespace (GET /metrics).
    cache: countingCacheFactory(pieces.cache),
    storage: pieces.storage,
    jobs: pieces.jobs,
    events: pieces.events,
    rateLimits: pieces.rateLimits,
    socketAdapter: pieces.socketAdapter,
    mailer,
    browser,
    clock,
    logger,
    errors,
    async close() {
      await browser.close();
      await pieces.close();
      await database.close();
      await errors.close();
    },
  };
}

/** The embedded mode's pieces: everything in this process (jobs in the database). */
function embeddedPieces(config: AppConfig, logger: Logger, clock: Clock, db: Db) {
  const events = createLocalEventBus((error, name) =>
    logger.error({ err: error, event: name }, "event handler failed"),
  );
  const jobs = createDatabaseJobQueue({ db, clock, logger, concurrency: config.jobsConcurrency });
  const rateLimits = createMemoryRateLimitStore(() => clock.now().getTime());
  return {
    cache: memoryCacheFactory,
    storage: createDiskStorage(config.storageDir),
    jobs,
    events,
    rateLimits,
    socketAdapter: undefined,
    async close() {
      await jobs.close();
      await events.close();
      await rateLimits.close();
    },
  };
}
