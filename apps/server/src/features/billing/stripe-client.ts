import { createRequire } from "node:module";
import type Stripe from "stripe";
import type { AppConfig } from "../../infra/config";

/**
 * Stripe's SDK, loaded only by a server that takes payments (docs/decisions.md, "Libraries a few requests
 * need load on first use"): it is ~0.2 s of imports (475 files) that every server without payments, and
 * every server test file, paid for. Synchronously, through Node's own loader, as the services that hold
 * the client are built synchronously.
 */
let sdk: typeof Stripe | null = null;
function loadSdk(): typeof Stripe {
  sdk ??= createRequire(import.meta.url)("stripe") as typeof Stripe;
  return sdk;
}

/**
 * The official Stripe client for this server's keys, or null when payments are off (no
 * STRIPE_SECRET_KEY). Host, port and protocol come from STRIPE_API_URL so tests and `npm run dev:fakes`
 * talk to the local fake. One retry: Stripe's idempotency keys (added by the client) make it safe.
 */
export function stripeClient(config: AppConfig["stripe"]): Stripe | null {
  if (!config) return null;
  const StripeSdk = loadSdk();
  return new StripeSdk(config.secretKey, {
    host: config.api.host,
    port: config.api.port,
    protocol: config.api.protocol,
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });
}

/**
 * Whether an error is Stripe's (its API answered with an error, or could not be reached). Only a client
 * made by `stripeClient` throws one, and making it loaded the SDK.
 */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return sdk !== null && error instanceof sdk.errors.StripeError;
}

export type { Stripe };
