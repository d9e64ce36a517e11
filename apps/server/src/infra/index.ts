import path from "node:path";
import type { Logger } from "pino";
import type { Infra } from "../context";
import { createBrowserPool } from "./browser";
import { memoryCacheFactory } from "./cache";
import { type Clock, systemClock } from "./clock";
import type { AppConfig } from "./config";
import { migrateToLatest, openDatabase } from "./db";
import { createDatabaseJobQueue } from "./db-jobs";
import { createLocalEventBus } from "./events";
import { createMailer } from "./mail";
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
 * Builds every piece of infrastructure from configuration, once, at start-up (architecture §1).
 * Embedded: SQLite, memory cache, local bus, memory rate limits, database-backed jobs, disk files.
 * Distributed (`REDIS_URL` set, PostgreSQL required): Redis cache, pub/sub bus and rate limits,
 * BullMQ jobs, S3 or a shared directory for files.
 */
export async function createInfra(config: AppConfig, options: InfraOptions): Promise<Infra> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: path.join(config.dataDir, options.sqliteFile ?? "reportz.sqlite"),
  });
  if (options.migrate !== false) await migrateToLatest(database.db);
  const events = createLocalEventBus((error, name) =>
    logger.error({ err: error, event: name }, "event handler failed"),
  );
  const jobs = createDatabaseJobQueue({ db: database.db, clock, logger });
  const rateLimits = createMemoryRateLimitStore(() => clock.now().getTime());
  const browser = createBrowserPool({ executablePath: config.chromiumPath });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  return {
    mode: "embedded",
    role: config.role,
    db: database.db,
    dialect: database.dialect,
    cache: memoryCacheFactory,
    storage: createDiskStorage(config.storageDir),
    jobs,
    events,
    rateLimits,
    mailer,
    browser,
    clock,
    logger,
    // Distributed (lead): `const realtime = createRedisSocketAdapter(redisUrl, logError)` (infra/realtime-adapter),
    // `socketAdapter: realtime.adapter`, and `await realtime.close()` in close() before the bus.
    socketAdapter: undefined,
    async close() {
      await jobs.close();
      await browser.close();
      await events.close();
      await rateLimits.close();
      await database.close();
    },
  };
}
