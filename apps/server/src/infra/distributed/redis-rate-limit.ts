import type { Redis } from "ioredis";
import type { RateLimitStore } from "../rate-limit-store";

// One round trip, atomic: count the hit, start the window on the first one, report what is left of it.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`;

/** The distributed rate-limit store: fixed windows in Redis shared by every process. */
export function createRedisRateLimitStore(redis: Redis): RateLimitStore {
  const key = (name: string) => `ratelimit:${name}`;
  return {
    async hit(name, windowMs) {
      const [count, ttl] = (await redis.eval(HIT, 1, key(name), String(windowMs))) as [number, number];
      return { count: Number(count), resetInMs: Math.max(0, Number(ttl)) };
    },
    async peek(name) {
      return Number((await redis.get(key(name))) ?? 0);
    },
    async reset(name) {
      await redis.del(key(name));
    },
    async close() {},
  };
}
