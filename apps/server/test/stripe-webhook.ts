import type { LightMyRequestResponse } from "fastify";
import type { App } from "../src/infra/http";

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
