import type { TPaymentSecure, TSubscriptionInput } from "@app/core";
import { call } from "../../lib/api";

/** POST /api/payment/secure: the registering visitor's checkout, priced by the server. */
export async function securePayment(body: TPaymentSecure) {
  return (await call("paymentSecure", { body })).data;
}

/** POST /api/company/subscription: a trial (or canceled) company subscribes; answers the checkout. */
export async function startSubscription(body: TSubscriptionInput) {
  return (await call("companySubscriptionCreate", { body })).data;
}

/** PUT /api/company/subscription: a new dashboards count or interval, prorated by the provider. */
export async function changeSubscription(body: TSubscriptionInput) {
  return (await call("companySubscriptionChange", { body })).data;
}

/** POST /api/company/subscription/confirm: whether the server has the payment of the checkout `orderRef`. */
export async function confirmSubscription(orderRef: string) {
  return (await call("companySubscriptionConfirm", { body: { order_ref: orderRef } })).data;
}
