import Stripe from "stripe";
import type { AppConfig } from "../../infra/config";

/**
 * The official Stripe client for this server's keys, or null when payments are off (no
 * STRIPE_SECRET_KEY). Host, port and protocol come from STRIPE_API_URL so tests and `npm run dev:fakes`
 * talk to the local fake. One retry: Stripe's idempotency keys (added by the client) make it safe.
 */
export function stripeClient(config: AppConfig["stripe"]): Stripe | null {
  if (!config) return null;
  return new Stripe(config.secretKey, {
    host: config.api.host,
    port: config.api.port,
    protocol: config.api.protocol,
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });
}

/** Whether an error is Stripe's (its API answered with an error, or could not be reached). */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}

export type { Stripe };
