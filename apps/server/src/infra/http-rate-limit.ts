import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { RateLimitStore } from "./rate-limit-store";

/**
 * The counter a route's limit keeps for one client (`key`: the address, the plugin's default), so that
 * another route can count into the same window: a passkey sign-in spends the attempts of POST /login.
 */
export function routeLimitKey(method: string, url: string, key: string): string {
  return `http:${method}${url}:${key}`;
}

/**
 * @fastify/rate-limit counting in the context's rate-limit store instead of its own per-process
 * memory, so N web processes enforce one limit, not N times it. Each route with its own limit gets
 * its own namespace (as the plugin's Redis store does).
 */
export function sharedRateLimitStore(store: RateLimitStore): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = "http:",
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      store.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ count, resetInMs }) => callback(null, { current: count, ttl: resetInMs }),
        (error: Error) => callback(error),
      );
    }

    // The plugin passes the route's merged limit settings, whose `routeInfo` names the route (its types say otherwise).
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new SharedStore(routeOptions, routeLimitKey(route.method ?? "", route.url ?? "", ""));
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
