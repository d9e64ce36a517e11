import { Redis, type RedisOptions } from "ioredis";

/**
 * One Redis connection. BullMQ needs `maxRetriesPerRequest: null` (its blocking commands must wait
 * through a reconnect); the other pieces keep ioredis' default so a request fails instead of hanging
 * while Redis is away (a cache miss, not a stuck page).
 */
export function connectRedis(url: string, options: { blocking?: boolean; name: string }): Redis {
  const settings: RedisOptions = {
    connectionName: `reportz:${options.name}`,
    lazyConnect: false,
    enableReadyCheck: true,
    ...(options.blocking ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 2 }),
  };
  return new Redis(url, settings);
}

/** Closes politely, and gives up after a second (a dead Redis must not hold shutdown). */
export async function closeRedis(redis: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    redis.quit().catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, 1000);
    }),
  ]);
  // Left pending, the timer would hold an exiting process for its second.
  clearTimeout(timer);
  redis.disconnect();
}
