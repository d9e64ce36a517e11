import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import { AppError } from "./errors";
import type { RateLimitStore } from "./rate-limit-store";

/** The counters' namespace of a route's own limit ("http:POST/login:"), before the client's address. */
export function routeLimitPrefix(method: string, url: string): string {
  return `http:${method}${url}:`;
}

/**
 * An onRequest hook that counts the request as an attempt of POST /login, in that route's own per-address
 * window, and refuses it (429) past `authMax`: for what is guessed like a password (the sign-in's second
 * step with a code or a passkey, a passwordless passkey sign-in). Counted before the body is read.
 */
export function countAsLoginAttempt(ctx: {
  rateLimits: RateLimitStore;
  config: { rateLimit: { authMax: number; windowMs: number } };
}): (request: FastifyRequest) => Promise<void> {
  const { authMax, windowMs } = ctx.config.rateLimit;
  return async (request) => {
    const { count } = await ctx.rateLimits.hit(`${routeLimitPrefix("POST", "/login")}${request.ip}`, windowMs);
    if (count > authMax) throw new AppError("too_many_requests");
  };
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
