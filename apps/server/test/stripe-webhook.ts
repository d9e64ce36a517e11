import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { App } from "../src/infra/http";
import type { FakeStripe } from "./fakes/stripe";
import type { TestEnv } from "./harness";

/**
 * Posts a signed event (the Stripe fake's `signed(event)`) to the webhook route as Stripe does: no cookie,
 * no page header, the signature over the exact bytes.
 */
export function postStripeEvent(
  app: App,
  signed: { payload: string; header: string },
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: "/api/payment/webhook",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signed.header },
    payload: signed.payload,
  });
}

/**
 * The register page's checkout (POST /api/payment/secure) paid in the Stripe fake, with Stripe's webhooks
 * delivered: what a visitor holds when the page goes on to register (`order_ref`, `order_id`).
 */
export async function paidCheckout(
  env: TestEnv,
  stripe: FakeStripe,
  body: Record<string, unknown>,
): Promise<{ order_ref: string; order_id: string }> {
  const secured = await env.client().api("POST", "/api/payment/secure", body);
  expect(secured.statusCode, secured.body).toBe(200);
  const { order_ref, order_id } = secured.json().data as { order_ref: string; order_id: string };
  const { completed, invoicePaid } = stripe.pay(order_ref);
  for (const event of [completed, invoicePaid]) {
    const sent = await postStripeEvent(env.app, stripe.signed(event));
    expect(sent.statusCode, sent.body).toBe(200);
  }
  return { order_ref, order_id };
}
