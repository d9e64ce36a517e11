import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { RateLimitStore } from "./rate-limit-store";

/** The counters' namespace of a route's own limit ("http:POST/login:"), before the client's address. */
export function routeLimitPrefix(method: string, url: string): string {
  return `http:${method}${url}:`;
}

/**
 * Counts one attempt against another route's limit, as @fastify/rate-limit counts that route's requests
 * (by the client's address): for a route that shares a limit, such as the sign-in's second step sharing
 * the password's (features/two-factor). True while within `max`.
 */
export async function hitRouteLimit(
  store: RateLimitStore,
  route: { method: string; url: string },
  address: string,
  limit: { max: number; timeWindow: number },
): Promise<boolean> {
  const { count } = await store.hit(`${routeLimitPrefix(route.method, route.url)}${address}`, limit.timeWindow);
  return count <= limit.max;
}

/**
 * The counter a route's limit keeps for one client (`key`: the address, the plugin's default), so that
 * another route can count into the same window: a passkey sign-in spends the attempts of POST /login.
 */
export function routeLimitKey(method: string, url: string, key: string): string {
  return `${routeLimitPrefix(method, url)}${key}`;
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
      return new SharedStore(routeOptions, routeLimitPrefix(route.method ?? "", route.url ?? ""));
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
