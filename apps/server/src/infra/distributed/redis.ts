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
    // ioredis waits up to 2 s between reconnects; a request waits through maxRetriesPerRequest of them, so
    // in a long outage every cache read took ~4 s to become a miss. Capped at 300 ms it takes under 1 s,
    // and a Redis that comes back is found as quickly.
    retryStrategy: (times: number) => Math.min(times * 50, 300),
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
