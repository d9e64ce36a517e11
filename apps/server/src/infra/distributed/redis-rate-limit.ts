import { randomUUID } from "node:crypto";
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

// Leases are a sorted set of lease ids scored by when they lapse, on Redis' own clock (processes' clocks
// may disagree): lapsed ones are dropped, then a slot is taken only if one is free. Atomic, one trip.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** The distributed rate-limit store: fixed windows in Redis shared by every process. */
export function createRedisRateLimitStore(redis: Redis): RateLimitStore {
  const key = (name: string) => `ratelimit:${name}`;
  const leaseKey = (name: string) => `lease:${name}`;
  return {
    async acquire(name, limit, ttlMs) {
      const lease = randomUUID();
      const taken = await redis.eval(ACQUIRE, 1, leaseKey(name), String(limit), String(ttlMs), lease);
      return Number(taken) === 1 ? lease : null;
    },
    async release(name, lease) {
      await redis.zrem(leaseKey(name), lease);
    },
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
