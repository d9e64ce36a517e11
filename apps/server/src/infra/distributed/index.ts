import type { Logger } from "pino";
import type { AppConfig } from "../config";
import { createRedisSocketAdapter } from "../realtime-adapter";
import { createDiskStorage } from "../storage";
import { createBullJobQueue } from "./bullmq-jobs";
import { closeRedis, connectRedis } from "./redis";
import { redisCacheFactory } from "./redis-cache";
import { createRedisEventBus } from "./redis-events";
import { createRedisRateLimitStore } from "./redis-rate-limit";

/**
 * The distributed mode's pieces (REDIS_URL set): the one place that knows Redis, BullMQ and S3.
 * Features see only the interfaces.
 */
export async function createDistributedPieces(config: AppConfig, logger: Logger) {
  const redisUrl = config.redisUrl as string;
  const logError = (what: string) => (error: unknown) => logger.error({ err: error }, what);
  const commands = connectRedis(redisUrl, { name: "commands" });
  const publisher = connectRedis(redisUrl, { name: "events-pub" });
  const subscriber = connectRedis(redisUrl, { name: "events-sub" });
  for (const connection of [commands, publisher, subscriber])
    connection.on("error", logError("redis connection error"));
  const events = createRedisEventBus(publisher, subscriber, (error, name) =>
    logger.error({ err: error, event: name }, "event handler failed"),
  );
  const jobs = createBullJobQueue({ redisUrl, logger, concurrency: config.jobsConcurrency });
  // The AWS SDK is loaded only when files go to S3.
  const storage = config.s3
    ? await (await import("./s3-storage")).createS3Storage(config.s3)
    : createDiskStorage(config.storageDir);
  const realtime = createRedisSocketAdapter(redisUrl, logError("realtime adapter error"));
  return {
    cache: redisCacheFactory(commands, logError("cache error")),
    events,
    rateLimits: createRedisRateLimitStore(commands),
    jobs,
    storage,
    socketAdapter: realtime.adapter,
    async close() {
      await jobs.close();
      await realtime.close();
      await events.close();
      if ("close" in storage && typeof storage.close === "function") storage.close();
      await Promise.all([commands, publisher, subscriber].map(closeRedis));
    },
  };
}
