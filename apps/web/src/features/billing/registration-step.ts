import type { TPageData } from "@app/core";
import { securePayment } from "./api";
import { openCheckout } from "./checkout";
import { splitName } from "./price";

/** The registration fields the checkout step reads, and the references it adds. */
export interface CheckoutRegistration {
  name: string;
  email: string;
  dashboards: number;
  interval: number;
  coupons: string;
  order_ref?: string;
  order_id?: string;
}

/**
 * docs/product.md §4 "Registration": with payments on, the plan is priced by the server and paid in
 * the embedded checkout before the form is posted; the paid session's references ride with the form so
 * the server claims it. Closing the checkout rejects with its reason (CheckoutFailed), which stops the
 * registration.
 */
export async function checkoutRegistrationStep(
  body: CheckoutRegistration,
  config: TPageData["config"],
): Promise<boolean> {
  if (!config.paymentEnabled) return true;
  const coupons: unknown = JSON.parse(body.coupons || "[]");
  const secured = await securePayment({
    dashboards: body.dashboards,
    interval: body.interval === 12 ? 12 : 1,
    coupons: Array.isArray(coupons) ? coupons.map(String) : [],
    email: body.email.trim() || undefined,
    ...splitName(body.name),
  });
  const order = await openCheckout(
    { payload: secured.payload, key: secured.key },
    { jsUrl: config.stripeJsUrl, order: { order_ref: secured.order_ref, order_id: secured.order_id } },
  );
  body.order_ref = order.order_ref;
  body.order_id = order.order_id;
  return true;
}
