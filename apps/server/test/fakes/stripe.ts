import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import Stripe from "stripe";
import type { FakeFault, FakePart } from "./app";
import { answerFault, pathOf } from "./kit";

/**
 * Stripe's API, for the calls the billing feature makes, as a part of the fakes app (./app.ts). Shapes
 * follow Stripe's API reference at the version the `stripe` package pins (2026-10-28):
 * - requests are form-encoded with bracketed keys (`line_items[0][price_data][unit_amount]=1000`) and
 *   carry `Authorization: Bearer sk_…`; a missing or wrong key is 401, every error is
 *   `{error: {type, message, param?, code?}}` (`invalid_request_error`, 400/404);
 * - `POST /v1/checkout/sessions` (mode `subscription`, ui_mode `embedded_page`: the old `embedded` is
 *   refused as the API does since 2026-03-25) → a session with its `client_secret`;
 * - `GET`/`POST`/`DELETE /v1/subscriptions/:id` → read, update (items, `cancel_at_period_end`), cancel;
 * - `POST /v1/billing_portal/sessions` (a customer the fake made) → `{url}` of the portal;
 * - `POST /v1/coupons` (`id` of the caller's choosing, `amount_off` + `currency` or `percent_off`,
 *   `duration`, `name` of at most 40 characters; an id taken is `resource_already_exists`), `GET
 *   /v1/coupons/:id`; `discounts: [{coupon}]` on a checkout session (its `amount_total` is after them,
 *   with `amount_subtotal` and `total_details.amount_discount`) and on a subscription update (the list
 *   replaces the subscription's discounts; `discounts=` empties it); every invoice of the subscription
 *   takes them off its subtotal (`total_discount_amounts`, each line's `discount_amounts`);
 * - `POST /v1/invoices/create_preview` (`subscription`) → the subscription's next invoice as it stands;
 * - an `Idempotency-Key` on the coupon and subscription POSTs replays the first answer for the same
 *   parameters, and is `idempotency_error` (400) for other parameters;
 * - `POST /v1/customers` (name, email, `address`, `tax_exempt`, `tax_id_data`) and `POST /v1/customers/:id`
 *   (update); `GET`/`POST /v1/customers/:id/tax_ids`, `DELETE /v1/customers/:id/tax_ids/:tax_id` (an
 *   `eu_vat` that is not a country prefix and its digits is `tax_id_invalid`); a subscription's customer
 *   that Checkout made is a customer too;
 * - tax: a rate a test adds (`addTaxRate`, `GET /v1/tax_rates/:id`) and sets as `chargeTax` is computed
 *   on every invoice after its discounts (exclusive: added to the total; `total_taxes` names the rate
 *   by id, as Stripe does), nothing for a customer that is `tax_exempt: reverse` (a `reverse_charge`
 *   entry of 0), and the checkout session's `total_details.amount_tax`;
 * - Stripe Tax: a checkout session with `automatic_tax[enabled]=true` (and the subscription it starts,
 *   and a subscription updated with it) is taxed at the VAT rate of its customer's country
 *   (`AUTOMATIC_TAX_RATES`, exclusive; none for a country not listed or a customer without an address,
 *   0 under `tax_exempt: reverse`), reported the same way (`total_taxes`, the rate readable by id); as the
 *   API does, `customer_update` needs a `customer`, and automatic tax for an existing customer without
 *   an address needs `customer_update[address]=auto`;
 * - `GET /v1/invoice_payments?invoice=…` → the paid invoice's payment (its PaymentIntent; since API
 *   2025-03 an invoice no longer names one itself); `POST /v1/refunds` (`payment_intent` or `charge`) →
 *   a succeeded refund of the whole payment, the same refund again for a repeated `Idempotency-Key`, and
 *   `charge_already_refunded` for a payment refunded before.
 * Tests play the customer with `pay`, `renew`, `failInvoice` and `deleteSubscription`, which return Stripe events
 * (shaped as Stripe sends them), and `signed(event)` signs one as Stripe's webhook does. The shapes and
 * the signer are exported (`stripeEvent`, `stripeInvoice`, `stripeSubscription`, `signStripeEvent`) for
 * tests that play Stripe without this fake's state (the browser tests).
 */

export interface FakeStripeSession {
  id: string;
  params: Record<string, unknown>;
  status: "open" | "complete";
  customer: string | null;
  subscription: string | null;
  invoice: string | null;
  /** The coupons of its `discounts`, redeemed on the subscription it starts. */
  coupons: FakeStripeCoupon[];
  /** The PaymentIntent that paid the first invoice, and what it took (set by `pay`). */
  paymentIntent?: string;
  amountPaid?: number;
}

/** A coupon made with `POST /v1/coupons`. */
export interface FakeStripeCoupon {
  id: string;
  amount_off: number | null;
  percent_off: number | null;
  currency: string | null;
  duration: "once" | "repeating" | "forever";
  name: string | null;
}

/** A coupon redeemed on a subscription: Stripe's Discount (`di_…`). */
export interface FakeStripeDiscount {
  id: string;
  coupon: FakeStripeCoupon;
}

/** A refund the fake made (tests assert what was given back, and that it was given back once). */
export interface FakeStripeRefund {
  id: string;
  payment_intent: string;
  amount: number;
  metadata: Record<string, string>;
  idempotencyKey: string | null;
}

export interface FakeStripeSubscription {
  id: string;
  customer: string;
  metadata: Record<string, string>;
  itemId: string;
  product: string;
  quantity: number;
  unitAmount: number;
  interval: "month" | "year";
  /** The product's name as the checkout gave it (Stripe writes it into each invoice line). */
  productName: string;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  status: "active" | "past_due" | "canceled";
  /** The coupons redeemed on it, taken off each of its invoices. */
  discounts: FakeStripeDiscount[];
  /** Every update's form, in order (tests assert the new count and price). */
  updates: Record<string, unknown>[];
  /** Stripe Tax computes its invoices' tax (`automatic_tax[enabled]`). */
  automaticTax: boolean;
}

/** A customer (a visitor's, one Checkout made for a subscription, or one made for billing details). */
export interface FakeStripeCustomer {
  id: string;
  email: unknown;
  name: unknown;
  address: Record<string, unknown> | null;
  tax_exempt: string;
  metadata: Record<string, unknown>;
  taxIds: Array<{ id: string; type: string; value: string }>;
  /** Every update's form, in order (tests assert what the server told Stripe). */
  updates: Record<string, unknown>[];
}

/** A tax rate (`txr_…`) a test adds; see `chargeTax`. */
export interface FakeStripeTaxRate {
  id: string;
  display_name: string;
  percentage: number;
  jurisdiction: string | null;
  country: string | null;
  inclusive: boolean;
}

export interface FakeStripe {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  sessions: Map<string, FakeStripeSession>;
  subscriptions: Map<string, FakeStripeSubscription>;
  /** Customers: a visitor's (name and e-mail the checkout is pre-filled with), Checkout's, a company's. */
  customers: Map<string, FakeStripeCustomer>;
  taxRates: Map<string, FakeStripeTaxRate>;
  /** The tax rate every invoice and checkout is taxed at (Stripe Tax or the account's rate); null: none. */
  chargeTax: string | null;
  addTaxRate(rate: Omit<FakeStripeTaxRate, "id">): FakeStripeTaxRate;
  coupons: Map<string, FakeStripeCoupon>;
  refunds: FakeStripeRefund[];
  failNext: FakeFault[];
  /** The customer pays the checkout: the session completes; returns checkout.session.completed and invoice.paid. */
  pay(sessionId: string): { completed: Stripe.Event; invoicePaid: Stripe.Event };
  /** The subscription renews and its card is charged: the next period's invoice.paid, at its price less its discounts. */
  renew(subscriptionId: string): Stripe.Event;
  /** The renewal charge of a subscription fails: invoice.payment_failed. */
  failInvoice(subscriptionId: string): Stripe.Event;
  /** Stripe gives up (or the period of a canceled subscription ends): customer.subscription.deleted. */
  deleteSubscription(subscriptionId: string): Stripe.Event;
  /**
   * The customer changes the subscription in Stripe's billing portal (cancels at the period's end, takes
   * the cancellation back, or picks another quantity or interval): customer.subscription.updated with
   * `previous_attributes`, as Stripe sends it.
   */
  portalUpdate(
    subscriptionId: string,
    change: { cancelAtPeriodEnd?: boolean; quantity?: number; interval?: "month" | "year" },
  ): Stripe.Event;
  /** The customer puts another card in the portal (the customer's new default): customer.updated. */
  portalChangeCard(customerId: string): Stripe.Event;
  /** The body and Stripe-Signature header Stripe would send for `event` (or with another secret: forged). */
  signed(event: Stripe.Event, secret?: string): { payload: string; header: string };
  /**
   * Where a payment in the Stripe.js shim sends its webhooks: `STRIPE_FAKE_WEBHOOK_URL` (the server's
   * `/api/payment/webhook`, for `npm run dev:fakes` and browser tests) unless a test sets its own.
   */
  deliver: ((payload: string, header: string) => Promise<void>) | null;
  /**
   * Webhooks lost on the way (a misconfigured endpoint, Stripe's outage): the shim's payments complete
   * and send nothing. Set over HTTP with `POST /_fake/stripe/webhooks {"deliver": false}` (true again to
   * deliver), for browser tests in the fakes' own process.
   */
  webhooksLost: boolean;
}

const API_VERSION = "2026-10-28.endive";

/** The secret key the fake accepts (servers pointed at it use it; browser tests ask the fake with it). */
export const STRIPE_FAKE_SECRET_KEY = "sk_test_fake_7Hc2kq9Vx3LmP0aZ";

/** The webhook secret the fake signs with (and that servers pointed at the fake trust). */
export const STRIPE_FAKE_WEBHOOK_SECRET = "whsec_fake_0123456789abcdef";

/** A webhook event as Stripe posts it: the envelope around one object. */
export function stripeEvent(
  id: string,
  type: string,
  object: unknown,
  created = Math.floor(Date.now() / 1000),
  previousAttributes?: Record<string, unknown>,
) {
  return {
    id,
    object: "event",
    api_version: API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object, ...(previousAttributes && { previous_attributes: previousAttributes }) },
  } as unknown as Stripe.Event;
}

/** The body and Stripe-Signature header Stripe's webhook would send for `event`, signed with `secret`. */
export function signStripeEvent(event: Stripe.Event, secret: string): { payload: string; header: string } {
  const payload = JSON.stringify(event, null, 2);
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** What an invoice or subscription of one plan is about (ids made by the caller). */
export interface StripePlanFacts {
  subscription: string;
  customer: string;
  metadata: Record<string, string>;
  quantity: number;
  unitAmount: number;
  interval: "month" | "year";
  productName?: string;
  /** `automatic_tax.enabled` of the subscription and its invoices. */
  automaticTax?: boolean;
  periodStart: number;
  periodEnd: number;
  /** The subscription's discounts (each coupon's share is worked out on the invoice's subtotal). */
  discounts?: FakeStripeDiscount[];
  /** The tax on the invoice, after its discounts; `reverse`: the customer is tax_exempt reverse (0). */
  tax?: { rate: FakeStripeTaxRate; reverse: boolean } | null;
}

/** The tax of `amount` at `tax`'s rate, as Stripe rounds it; 0 under the reverse charge. */
export function taxOf(amount: number, tax: StripePlanFacts["tax"]): number {
  if (!tax || tax.reverse) return 0;
  return tax.rate.inclusive
    ? amount - Math.round(amount / (1 + tax.rate.percentage / 100))
    : Math.round((amount * tax.rate.percentage) / 100);
}

/**
 * What each discount takes off a subtotal, in order, as Stripe does: a percent of what is left
 * (rounded to the cent), an amount off at most what is left.
 */
export function discountAmounts(subtotal: number, discounts: readonly FakeStripeDiscount[] = []) {
  let left = subtotal;
  return discounts.map(({ id, coupon }) => {
    const off =
      coupon.percent_off !== null
        ? Math.round((left * coupon.percent_off) / 100)
        : Math.min(left, coupon.amount_off ?? 0);
    left -= off;
    return { discount: id, amount: off };
  });
}

/** `$15.00`: Stripe's own way of writing a unit amount in an invoice line's description. */
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * A subscription's invoice (invoice.paid / invoice.payment_failed) as Stripe shapes it since the
 * 2025 "basil" API: the subscription under `parent.subscription_details`, one line for the plan
 * described as Stripe writes it ("5 × Product (at $15.00 / month)").
 */
export function stripeInvoice(id: string | null, lineId: string, plan: StripePlanFacts, paid: boolean) {
  const subtotal = plan.quantity * plan.unitAmount;
  const discounted = discountAmounts(subtotal, plan.discounts);
  const net = subtotal - discounted.reduce((sum, one) => sum + one.amount, 0);
  const taxAmount = taxOf(net, plan.tax);
  const added = plan.tax && !plan.tax.rate.inclusive ? taxAmount : 0;
  const amount = net + added;
  return {
    id,
    object: "invoice",
    customer: plan.customer,
    currency: "usd",
    status: paid ? "paid" : "open",
    amount_due: amount,
    amount_paid: paid ? amount : 0,
    subtotal,
    total: amount,
    total_excluding_tax: amount - added,
    automatic_tax: { enabled: plan.automaticTax ?? false, status: plan.automaticTax ? "complete" : null },
    total_taxes: plan.tax
      ? [
          {
            amount: taxAmount,
            tax_behavior: plan.tax.rate.inclusive ? "inclusive" : "exclusive",
            tax_rate_details: { tax_rate: plan.tax.rate.id },
            taxability_reason: plan.tax.reverse ? "reverse_charge" : "standard_rated",
            taxable_amount: plan.tax.rate.inclusive ? net - taxAmount : net,
            type: "tax_rate_details",
          },
        ]
      : [],
    discounts: discounted.map((one) => one.discount),
    total_discount_amounts: discounted,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { subscription: plan.subscription, metadata: plan.metadata },
    },
    lines: {
      object: "list",
      has_more: false,
      data: [
        {
          id: lineId,
          object: "line_item",
          // A line's amount is before the invoice's discounts; its share of them is listed beside it.
          amount: subtotal,
          discount_amounts: discounted,
          currency: "usd",
          description: `${plan.quantity} × ${plan.productName ?? "Dashboards"} (at ${usd(plan.unitAmount)} / ${plan.interval})`,
          quantity: plan.quantity,
          period: { start: plan.periodStart, end: plan.periodEnd },
        },
      ],
    },
  };
}

/** A subscription object (the answer of the subscriptions API, and customer.subscription.* events). */
export function stripeSubscription(
  plan: StripePlanFacts & { itemId: string; product: string; status: string; cancelAtPeriodEnd: boolean },
  endedAt: number | null,
) {
  return {
    id: plan.subscription,
    object: "subscription",
    customer: plan.customer,
    status: plan.status,
    metadata: plan.metadata,
    discounts: (plan.discounts ?? []).map((one) => one.id),
    cancel_at_period_end: plan.cancelAtPeriodEnd,
    ended_at: endedAt,
    automatic_tax: { enabled: plan.automaticTax ?? false, liability: null },
    items: {
      object: "list",
      has_more: false,
      data: [
        {
          id: plan.itemId,
          object: "subscription_item",
          quantity: plan.quantity,
          current_period_start: plan.periodStart,
          current_period_end: plan.periodEnd,
          price: {
            id: `price_for_${plan.itemId}`,
            object: "price",
            product: plan.product,
            unit_amount: plan.unitAmount,
            currency: "usd",
            recurring: { interval: plan.interval, interval_count: 1 },
          },
        },
      ],
    },
  };
}
/**
 * The standard VAT rate Stripe Tax charges a customer in these countries (percent), the fake's stand-in
 * for Stripe's own tables; other countries are charged none.
 */
export const AUTOMATIC_TAX_RATES: Readonly<Record<string, number>> = { IE: 23, DE: 19, FR: 20, NL: 21, ES: 21, IT: 22 };

/** Stripe's test card that is always declined. */
export const DECLINED_CARD = "4000000000000002";

/**
 * Stripe.js as far as the embedded checkout uses it (`Stripe(key).initEmbeddedCheckout({fetchClientSecret,
 * onComplete})` → `{mount, unmount, destroy}`), for browser tests that run offline: a card field
 * (4242… pays, 4000 0000 0000 0002 is declined) and a Pay button posting to the fake, which completes
 * the session and sends its webhooks before `onComplete` runs.
 */
export function stripeJsShim(origin: string): string {
  return `(function () {
  var origin = ${JSON.stringify(origin)};
  function Stripe(key) {
    if (!(this instanceof Stripe)) return new Stripe(key);
    this.key = key;
  }
  Stripe.prototype.initEmbeddedCheckout = function (options) {
    var key = this.key;
    var secret = options.fetchClientSecret ? options.fetchClientSecret() : options.clientSecret;
    return Promise.resolve(secret).then(function (clientSecret) {
      var root = null;
      function clear() { if (root) root.innerHTML = ""; }
      return {
        mount: function (target) {
          root = typeof target === "string" ? document.querySelector(target) : target;
          clear();
          var form = document.createElement("form");
          form.setAttribute("data-testid", "stripe-fake-checkout");
          form.innerHTML = '<label>Card number <input name="card" autocomplete="off" value="4242 4242 4242 4242"></label>' +
            '<button type="submit">Pay</button><p role="alert"></p>';
          form.addEventListener("submit", function (event) {
            event.preventDefault();
            var button = form.querySelector("button");
            button.disabled = true;
            fetch(origin + "/stripe-js/pay", {
              method: "POST",
              headers: { "content-type": "text/plain" },
              body: JSON.stringify({ client_secret: clientSecret, key: key, card: form.card.value })
            }).then(function (response) {
              return response.json().then(function (body) { return { ok: response.ok, body: body }; });
            }).then(function (result) {
              if (result.ok) { if (options.onComplete) options.onComplete(); return; }
              form.querySelector("[role=alert]").textContent = result.body.error.message;
              button.disabled = false;
            });
          });
          root.appendChild(form);
        },
        unmount: clear,
        destroy: function () { clear(); root = null; }
      };
    });
  };
  window.Stripe = Stripe;
})();
`;
}
const MONTH_SECONDS = 30 * 86_400;

/** `a[b][0][c]=1` form keys into nested objects and lists, as Stripe reads them. */
export function unflattenForm(form: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

const stripeError = (reply: FastifyReply, status: number, message: string, param?: string, code?: string) =>
  reply.code(status).send({
    error: { type: "invalid_request_error", message, ...(param && { param }), ...(code && { code }) },
  });

/**
 * Stripe's check of a tax id's format (a type it does not know is refused too); the message is
 * Stripe's. An `eu_vat` is a member state's prefix and 2 to 13 letters or digits.
 */
export function taxIdProblem(type: string, value: string): string | null {
  const formats: Record<string, RegExp> = {
    eu_vat: /^(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK)[0-9A-Z+*]{2,13}$/,
    gb_vat: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
    ch_vat: /^CHE-?\d{3}\.?\d{3}\.?\d{3} ?(MWST|TVA|IVA)$/,
    no_vat: /^\d{9}MVA$/,
    is_vat: /^\d{5,6}$/,
    au_abn: /^\d{11}$/,
    nz_gst: /^\d{8,9}$/,
    ca_bn: /^\d{9}$/,
    us_ein: /^\d{2}-\d{7}$/,
    in_gst: /^\d{2}[A-Z]{5}\d{4}[A-Z]\d[A-Z\d]{2}$/,
  };
  const format = formats[type];
  if (!format) return `Invalid value for type: ${type}`;
  return format.test(value) ? null : `Invalid value for ${type}.`;
}

const at = (path: Record<string, unknown>, ...keys: string[]): unknown =>
  keys.reduce<unknown>(
    (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
    path,
  );

/**
 * Where `npm run dev:fakes` sends the Stripe fake's webhooks (docs/operations.md "Billing and payments"):
 * `STRIPE_FAKE_WEBHOOK_URL` when set ("off" sends none), else the webhook route of the server the same
 * settings start: its `appUrl` (`APP_URL`, else `http://localhost:PORT`, as apps/server/src/infra/config.ts
 * derives it) followed by `/api/payment/webhook`.
 */
export function fakeWebhookUrl(env: NodeJS.ProcessEnv, appUrl: string): string | null {
  const explicit = env.STRIPE_FAKE_WEBHOOK_URL?.trim();
  if (explicit === "off") return null;
  if (explicit) return explicit;
  return `${appUrl.replace(/\/+$/, "")}/api/payment/webhook`;
}

export interface StripeFakeOptions {
  /** Where the Stripe.js shim's payments post their webhooks; default `STRIPE_FAKE_WEBHOOK_URL` (none when unset). */
  webhookUrl?: string | null;
}

export function stripeFake(options: StripeFakeOptions = {}): FakePart<FakeStripe> {
  const webhookUrl =
    options.webhookUrl !== undefined ? options.webhookUrl : process.env.STRIPE_FAKE_WEBHOOK_URL || null;
  // Ids unique to this run (Stripe's own never repeat): a server that already recorded a session, an
  // event or a claim from an earlier run of the fakes must not meet the same id again.
  const run = randomBytes(5).toString("hex");
  let counter = 0;
  const id = (prefix: string) => `${prefix}_test_${run}${(++counter).toString().padStart(6, "0")}`;
  const now = () => Math.floor(Date.now() / 1000);
  const event = (type: string, object: unknown): Stripe.Event => stripeEvent(id("evt"), type, object, now());
  /** The VAT rate Stripe Tax keeps for a country (one per country, readable with GET /v1/tax_rates/:id). */
  const automaticRates = new Map<string, FakeStripeTaxRate>();
  const automaticRate = (country: string): FakeStripeTaxRate | undefined => {
    const percentage = AUTOMATIC_TAX_RATES[country];
    if (percentage === undefined) return undefined;
    const known = automaticRates.get(country);
    if (known) return known;
    const made = state.addTaxRate({
      display_name: "VAT",
      percentage,
      jurisdiction: country,
      country,
      inclusive: false,
    });
    automaticRates.set(country, made);
    return made;
  };
  /**
   * The tax Stripe would charge a customer now: with `automatic`, Stripe Tax's rate for the customer's
   * country; otherwise the rate set in `chargeTax`; none (a 0 entry) for a reverse-charge customer.
   */
  const taxFor = (customer: string | null, automatic = false): StripePlanFacts["tax"] => {
    const known = customer ? state.customers.get(customer) : undefined;
    const country = String(known?.address?.country ?? "").toUpperCase();
    const rate = automatic ? automaticRate(country) : state.chargeTax ? state.taxRates.get(state.chargeTax) : undefined;
    if (!rate) return null;
    return { rate, reverse: known?.tax_exempt === "reverse" };
  };
  const automaticOf = (params: Record<string, unknown>) => String(at(params, "automatic_tax", "enabled")) === "true";
  const planOf = (sub: FakeStripeSubscription) => ({
    ...sub,
    subscription: sub.id,
    tax: taxFor(sub.customer, sub.automaticTax),
  });
  const subscriptionObject = (sub: FakeStripeSubscription) =>
    stripeSubscription(planOf(sub), sub.status === "canceled" ? now() : null);
  const invoiceObject = (sub: FakeStripeSubscription, paid: boolean) =>
    stripeInvoice(id("in"), id("il"), planOf(sub), paid);
  const redeem = (coupon: FakeStripeCoupon): FakeStripeDiscount => ({ id: id("di"), coupon });
  const advance = (sub: FakeStripeSubscription) => {
    sub.periodStart = sub.periodEnd;
    sub.periodEnd += sub.interval === "year" ? 12 * MONTH_SECONDS : MONTH_SECONDS;
  };
  /** A checkout session as the API answers it: its total after its discounts. */
  const sessionObject = (session: FakeStripeSession) => {
    const quantity = Number(at(session.params, "line_items", "0", "quantity"));
    const amount = Number(at(session.params, "line_items", "0", "price_data", "unit_amount"));
    const subtotal = quantity * amount;
    const off = discountAmounts(
      subtotal,
      session.coupons.map((coupon) => ({ id: "", coupon })),
    ).reduce((sum, one) => sum + one.amount, 0);
    const automatic = automaticOf(session.params);
    const tax = taxFor(String(session.customer ?? session.params.customer ?? "") || null, automatic);
    const taxAmount = taxOf(subtotal - off, tax);
    const added = tax && !tax.rate.inclusive ? taxAmount : 0;
    return {
      id: session.id,
      object: "checkout.session",
      mode: session.params.mode,
      ui_mode: session.params.ui_mode,
      status: session.status,
      payment_status: session.status === "complete" ? "paid" : "unpaid",
      customer: session.customer ?? session.params.customer ?? null,
      subscription: session.subscription,
      invoice: session.invoice,
      client_reference_id: session.params.client_reference_id ?? null,
      metadata: session.params.metadata ?? {},
      discounts: session.coupons.map((coupon) => ({ coupon: coupon.id, promotion_code: null })),
      amount_subtotal: subtotal,
      amount_total: subtotal - off + added,
      total_details: { amount_discount: off, amount_shipping: 0, amount_tax: taxAmount },
      automatic_tax: { enabled: automatic, status: automatic ? "complete" : null, liability: null },
      currency: String(at(session.params, "line_items", "0", "price_data", "currency") ?? "usd"),
    };
  };

  const state: FakeStripe = {
    secretKey: STRIPE_FAKE_SECRET_KEY,
    publishableKey: "pk_test_fake_7Hc2kq9Vx3LmP0aZ",
    webhookSecret: STRIPE_FAKE_WEBHOOK_SECRET,
    sessions: new Map(),
    subscriptions: new Map(),
    customers: new Map(),
    taxRates: new Map(),
    chargeTax: null,
    addTaxRate(rate) {
      const made = { ...rate, id: id("txr") };
      state.taxRates.set(made.id, made);
      return made;
    },
    coupons: new Map(),
    refunds: [],
    failNext: [],
    pay(sessionId) {
      const session = state.sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const line = at(session.params, "line_items", "0") as Record<string, unknown>;
      const recurring = String(at(line, "price_data", "recurring", "interval")) === "year" ? "year" : "month";
      const metadata = (at(session.params, "subscription_data", "metadata") ?? {}) as Record<string, string>;
      const start = now();
      // Checkout makes the customer when the session names none.
      const customerId = String(session.params.customer ?? newCustomer({}).id);
      const sub: FakeStripeSubscription = {
        id: id("sub"),
        customer: customerId,
        metadata,
        itemId: id("si"),
        product: id("prod"),
        quantity: Number(line.quantity),
        unitAmount: Number(at(line, "price_data", "unit_amount")),
        interval: recurring,
        productName: String(at(line, "price_data", "product_data", "name") ?? "Dashboards"),
        periodStart: start,
        periodEnd: start + (recurring === "year" ? 12 : 1) * MONTH_SECONDS,
        cancelAtPeriodEnd: false,
        status: "active",
        discounts: session.coupons.map(redeem),
        updates: [],
        automaticTax: automaticOf(session.params),
      };
      state.subscriptions.set(sub.id, sub);
      const invoice = invoiceObject(sub, true);
      Object.assign(session, {
        status: "complete",
        customer: sub.customer,
        subscription: sub.id,
        invoice: invoice.id,
        paymentIntent: id("pi"),
        amountPaid: invoice.amount_paid,
      });
      const completed = event("checkout.session.completed", sessionObject(session));
      return { completed, invoicePaid: event("invoice.paid", invoice) };
    },
    renew(subscriptionId) {
      const sub = state.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      sub.status = "active";
      advance(sub);
      return event("invoice.paid", invoiceObject(sub, true));
    },
    failInvoice(subscriptionId) {
      const sub = state.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      sub.status = "past_due";
      advance(sub);
      return event("invoice.payment_failed", invoiceObject(sub, false));
    },
    deleteSubscription(subscriptionId) {
      const sub = state.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      sub.status = "canceled";
      return event("customer.subscription.deleted", subscriptionObject(sub));
    },
    portalUpdate(subscriptionId, change) {
      const sub = state.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      const before = subscriptionObject(sub);
      const previous: Record<string, unknown> = {};
      if (change.cancelAtPeriodEnd !== undefined && change.cancelAtPeriodEnd !== sub.cancelAtPeriodEnd) {
        previous.cancel_at_period_end = sub.cancelAtPeriodEnd;
        sub.cancelAtPeriodEnd = change.cancelAtPeriodEnd;
      }
      if (change.quantity !== undefined || change.interval !== undefined) {
        previous.items = before.items;
        sub.quantity = change.quantity ?? sub.quantity;
        sub.interval = change.interval ?? sub.interval;
      }
      return stripeEvent(id("evt"), "customer.subscription.updated", subscriptionObject(sub), now(), previous);
    },
    portalChangeCard(customerId) {
      const card = id("pm");
      const previous = { invoice_settings: { default_payment_method: null } };
      const customer = {
        id: customerId,
        object: "customer",
        invoice_settings: { default_payment_method: card, custom_fields: null, footer: null },
        metadata: state.customers.get(customerId)?.metadata ?? {},
      };
      return stripeEvent(id("evt"), "customer.updated", customer, now(), previous);
    },
    deliver: null,
    webhooksLost: false,
    signed: (evt, secret = state.webhookSecret) => signStripeEvent(evt, secret),
  };

  const authorized = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1];
    if (key !== state.secretKey) {
      return reply.code(401).send({
        error: {
          type: "invalid_request_error",
          message: key ? `Invalid API Key provided: ${key.slice(0, 8)}***` : "You did not provide an API key.",
        },
      });
    }
    const fault = answerFault(state.failNext, reply, pathOf(request));
    if (fault) return fault;
  };
  const formOf = (request: FastifyRequest) => unflattenForm((request.body ?? {}) as Record<string, string>);
  const couponObject = (coupon: FakeStripeCoupon) => ({
    ...coupon,
    object: "coupon",
    duration_in_months: null,
    metadata: {},
    valid: true,
    times_redeemed: 0,
    livemode: false,
  });
  /**
   * `discounts` as the API reads it: `[{coupon}]` of known coupons (else 400 resource_missing and null
   * is returned), or "" (none).
   */
  const couponsOf = (value: unknown, reply: FastifyReply): FakeStripeCoupon[] | null => {
    if (value === undefined || value === "") return [];
    const list = Object.values((value ?? {}) as Record<string, { coupon?: string }>);
    const found: FakeStripeCoupon[] = [];
    for (const [index, entry] of list.entries()) {
      const coupon = state.coupons.get(String(entry?.coupon ?? ""));
      if (!coupon) {
        stripeError(
          reply,
          400,
          `No such coupon: '${String(entry?.coupon)}'`,
          `discounts[${index}][coupon]`,
          "resource_missing",
        );
        return null;
      }
      found.push(coupon);
    }
    return found;
  };
  /** The first answer for an Idempotency-Key, replayed for the same parameters (Stripe keeps keys 24 hours). */
  const answered = new Map<string, { body: string; payload: unknown }>();
  const idempotent = async (request: FastifyRequest, reply: FastifyReply, handle: () => unknown) => {
    const key = String(request.headers["idempotency-key"] ?? "");
    const body = `${request.url}\n${JSON.stringify(request.body ?? {})}`;
    const seen = key ? answered.get(key) : undefined;
    if (seen && seen.body !== body) {
      return reply.code(400).send({
        error: {
          type: "idempotency_error",
          message: "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        },
      });
    }
    if (seen) return reply.header("idempotent-replayed", "true").send(seen.payload);
    const result = await handle();
    // A refusal (the handler sent an error) is not kept: Stripe keeps no result for a request it refused
    // before acting on it, so the same key may be tried again.
    if (result === reply) return reply;
    if (key) answered.set(key, { body, payload: result });
    return result;
  };
  const subscriptionOr404 = (request: FastifyRequest, reply: FastifyReply) => {
    const subId = (request.params as { id: string }).id;
    const sub = state.subscriptions.get(subId);
    if (!sub) stripeError(reply, 404, `No such subscription: '${subId}'`, "id", "resource_missing");
    return sub ?? null;
  };

  function newCustomer(params: Record<string, unknown>): FakeStripeCustomer {
    const customer: FakeStripeCustomer = {
      id: id("cus"),
      email: params.email ?? null,
      name: params.name ?? null,
      address: (params.address as Record<string, unknown> | undefined) ?? null,
      tax_exempt: String(params.tax_exempt ?? "none"),
      metadata: (params.metadata ?? {}) as Record<string, unknown>,
      taxIds: [],
      updates: [],
    };
    state.customers.set(customer.id, customer);
    return customer;
  }
  const customerObject = (customer: FakeStripeCustomer) => ({
    id: customer.id,
    object: "customer",
    email: customer.email,
    name: customer.name,
    address: customer.address,
    tax_exempt: customer.tax_exempt,
    metadata: customer.metadata,
    livemode: false,
  });
  const taxIdObject = (customer: FakeStripeCustomer, taxId: FakeStripeCustomer["taxIds"][number]) => ({
    ...taxId,
    object: "tax_id",
    country: taxId.type === "eu_vat" ? taxId.value.slice(0, 2).replace("EL", "GR") : null,
    customer: customer.id,
    livemode: false,
    verification: { status: "pending", verified_address: null, verified_name: null },
  });
  const customerOr404 = (request: FastifyRequest, reply: FastifyReply) => {
    const customerId = (request.params as { id: string }).id;
    const customer = state.customers.get(customerId);
    if (!customer) stripeError(reply, 404, `No such customer: '${customerId}'`, "id", "resource_missing");
    return customer ?? null;
  };

  return {
    state,
    env: (origin) => ({
      STRIPE_SECRET_KEY: state.secretKey,
      STRIPE_PUBLISHABLE_KEY: state.publishableKey,
      STRIPE_WEBHOOK_SECRET: state.webhookSecret,
      STRIPE_API_URL: origin,
      // A Stripe.js shim for offline browser tests (see stripeJsShim).
      STRIPE_JS_URL: `${origin}/stripe-js/stripe.js`,
    }),
    register(app, shared) {
      app.get("/stripe-js/stripe.js", async (_request, reply) =>
        reply.type("application/javascript; charset=utf-8").send(stripeJsShim(shared.origin())),
      );
      // The shim's "Pay": text/plain so the browser sends it cross-origin without a preflight.
      app.post("/stripe-js/pay", async (request, reply) => {
        reply.header("access-control-allow-origin", "*");
        let body: { client_secret?: string; key?: string; card?: string } = {};
        try {
          body = typeof request.body === "string" ? JSON.parse(request.body) : ((request.body ?? {}) as typeof body);
        } catch {
          return stripeError(reply, 400, "Invalid JSON.");
        }
        if (body.key !== state.publishableKey) return stripeError(reply, 401, "Invalid API Key provided.");
        const sessionId = String(body.client_secret ?? "").split("_secret_")[0];
        const session = state.sessions.get(sessionId);
        if (session?.status !== "open") {
          return stripeError(reply, 400, "This Checkout Session is no longer active.", "client_secret");
        }
        if (String(body.card ?? "").replace(/\s/g, "") === DECLINED_CARD) {
          return reply.code(402).send({
            error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
          });
        }
        const { completed, invoicePaid } = state.pay(sessionId);
        const target = webhookUrl;
        const deliver =
          state.deliver ??
          (target
            ? async (payload: string, header: string) => {
                // Stripe takes the payment whatever the endpoint answers; a server not running (or
                // refusing the event) is told on the fakes' console, not to the paying browser.
                try {
                  const answer = await fetch(target, {
                    method: "POST",
                    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": header },
                    body: payload,
                  });
                  if (!answer.ok) console.error(`stripe fake: ${target} answered ${answer.status} to a webhook`);
                } catch (error) {
                  console.error(`stripe fake: could not deliver a webhook to ${target}: ${String(error)}`);
                }
              }
            : null);
        // Delivered before answering, so the app is up to date when the checkout reports completion.
        const sending = state.webhooksLost ? null : deliver;
        for (const evt of [completed, invoicePaid]) {
          const { payload, header } = state.signed(evt);
          await sending?.(payload, header);
        }
        return { id: sessionId, status: "complete", delivered: sending !== null };
      });
      app.post("/_fake/stripe/webhooks", async (request, reply) => {
        const body = (request.body ?? {}) as { deliver?: unknown };
        if (typeof body.deliver !== "boolean") return reply.code(400).send({ error: 'body: {"deliver": boolean}' });
        state.webhooksLost = !body.deliver;
        return { deliver: body.deliver };
      });
      app.post("/v1/checkout/sessions", { preHandler: authorized }, async (request, reply) => {
        const params = formOf(request);
        if (params.mode !== "subscription" && params.mode !== "payment" && params.mode !== "setup") {
          return stripeError(reply, 400, "Missing required param: mode.", "mode");
        }
        if (params.ui_mode !== "embedded_page") {
          return stripeError(
            reply,
            400,
            `Invalid ui_mode: must be one of hosted_page, embedded_page, elements or form`,
            "ui_mode",
          );
        }
        const line = at(params, "line_items", "0");
        const quantity = Number(at(params, "line_items", "0", "quantity"));
        const amount = Number(at(params, "line_items", "0", "price_data", "unit_amount"));
        if (!line || !Number.isInteger(quantity) || quantity < 1) {
          return stripeError(reply, 400, "Invalid integer: quantity", "line_items[0][quantity]");
        }
        if (!Number.isInteger(amount) || amount < 0) {
          return stripeError(reply, 400, "Invalid integer: unit_amount", "line_items[0][price_data][unit_amount]");
        }
        const coupons = couponsOf(params.discounts, reply);
        if (!coupons) return reply;
        if (params.customer_update !== undefined && !params.customer) {
          return stripeError(reply, 400, "`customer_update` can only be used with `customer`.", "customer_update");
        }
        const existing = params.customer ? state.customers.get(String(params.customer)) : undefined;
        if (
          automaticOf(params) &&
          existing &&
          !existing.address?.country &&
          at(params, "customer_update", "address") !== "auto"
        ) {
          return stripeError(
            reply,
            400,
            "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or `customer_update[shipping]` to 'auto' to save the address entered in Checkout to the Customer.",
            "automatic_tax[enabled]",
          );
        }
        const session: FakeStripeSession = {
          id: id("cs"),
          params,
          status: "open",
          customer: null,
          subscription: null,
          invoice: null,
          coupons,
        };
        state.sessions.set(session.id, session);
        return {
          ...sessionObject(session),
          client_secret: `${session.id}_secret_${Math.random().toString(36).slice(2, 12)}`,
          url: null,
        };
      });
      // A registration reads back the session it paid (status, customer, subscription) before claiming it.
      app.get("/v1/checkout/sessions/:id", { preHandler: authorized }, async (request, reply) => {
        const sessionId = (request.params as { id: string }).id;
        const session = state.sessions.get(sessionId);
        if (!session)
          return stripeError(reply, 404, `No such checkout.session: '${sessionId}'`, "id", "resource_missing");
        return sessionObject(session);
      });
      app.post("/v1/coupons", { preHandler: authorized }, async (request, reply) =>
        idempotent(request, reply, () => {
          const params = formOf(request);
          const couponId = typeof params.id === "string" && params.id ? params.id : id("co");
          if (state.coupons.has(couponId)) {
            return stripeError(reply, 400, "Coupon already exists.", "id", "resource_already_exists");
          }
          const amountOff = params.amount_off === undefined ? null : Number(params.amount_off);
          const percentOff = params.percent_off === undefined ? null : Number(params.percent_off);
          if ((amountOff === null) === (percentOff === null)) {
            return stripeError(reply, 400, "You must pass exactly one of amount_off or percent_off.", "amount_off");
          }
          if (amountOff !== null && (!Number.isInteger(amountOff) || amountOff < 1)) {
            return stripeError(reply, 400, "Invalid positive integer", "amount_off");
          }
          if (amountOff !== null && !params.currency) {
            return stripeError(reply, 400, "You must pass currency when passing amount_off.", "currency");
          }
          if (percentOff !== null && !(percentOff > 0 && percentOff <= 100)) {
            return stripeError(
              reply,
              400,
              "Invalid percent_off: must be greater than 0 and at most 100",
              "percent_off",
            );
          }
          const duration = String(params.duration ?? "once");
          if (duration !== "once" && duration !== "repeating" && duration !== "forever") {
            return stripeError(reply, 400, `Invalid duration: ${duration}`, "duration");
          }
          const name = params.name === undefined ? null : String(params.name);
          if (name !== null && name.length > 40) {
            return stripeError(reply, 400, "Invalid string: must be at most 40 characters", "name");
          }
          const coupon: FakeStripeCoupon = {
            id: couponId,
            amount_off: amountOff,
            percent_off: percentOff,
            currency: amountOff === null ? null : String(params.currency).toLowerCase(),
            duration,
            name,
          };
          state.coupons.set(coupon.id, coupon);
          return couponObject(coupon);
        }),
      );
      app.get("/v1/coupons/:id", { preHandler: authorized }, async (request, reply) => {
        const coupon = state.coupons.get((request.params as { id: string }).id);
        if (!coupon) {
          return stripeError(
            reply,
            404,
            `No such coupon: '${(request.params as { id: string }).id}'`,
            "id",
            "resource_missing",
          );
        }
        return couponObject(coupon);
      });
      // The next invoice of a subscription, as it would be made now (Stripe's "upcoming invoice").
      app.post("/v1/invoices/create_preview", { preHandler: authorized }, async (request, reply) => {
        const params = formOf(request);
        const sub = state.subscriptions.get(String(params.subscription ?? ""));
        if (!sub) {
          return stripeError(
            reply,
            400,
            `No such subscription: '${String(params.subscription)}'`,
            "subscription",
            "resource_missing",
          );
        }
        const length = sub.periodEnd - sub.periodStart;
        const next = { ...planOf(sub), periodStart: sub.periodEnd, periodEnd: sub.periodEnd + length };
        return { ...stripeInvoice(null, id("il"), next, false), status: "draft" };
      });
      // The visitor's customer, so the checkout opens with their name and e-mail.
      app.post("/v1/customers", { preHandler: authorized }, async (request, reply) => {
        const params = formOf(request);
        const taxIds = Object.values((params.tax_id_data ?? {}) as Record<string, { type?: string; value?: string }>);
        for (const [index, taxId] of taxIds.entries()) {
          const problem = taxIdProblem(String(taxId.type ?? ""), String(taxId.value ?? ""));
          if (problem) return stripeError(reply, 400, problem, `tax_id_data[${index}][value]`, "tax_id_invalid");
        }
        const customer = newCustomer(params);
        for (const taxId of taxIds) {
          customer.taxIds.push({ id: id("txi"), type: String(taxId.type), value: String(taxId.value) });
        }
        return customerObject(customer);
      });
      app.post("/v1/customers/:id", { preHandler: authorized }, async (request, reply) => {
        const customer = customerOr404(request, reply);
        if (!customer) return reply;
        const params = formOf(request);
        customer.updates.push(params);
        if (params.name !== undefined) customer.name = params.name;
        if (params.email !== undefined) customer.email = params.email;
        // `address=` (empty) removes it.
        if (params.address !== undefined) {
          customer.address = params.address === "" ? null : (params.address as Record<string, unknown>);
        }
        if (params.tax_exempt !== undefined) customer.tax_exempt = String(params.tax_exempt || "none");
        return customerObject(customer);
      });
      app.get("/v1/customers/:id/tax_ids", { preHandler: authorized }, async (request, reply) => {
        const customer = customerOr404(request, reply);
        if (!customer) return reply;
        return {
          object: "list",
          data: customer.taxIds.map((taxId) => taxIdObject(customer, taxId)),
          has_more: false,
          url: `/v1/customers/${customer.id}/tax_ids`,
        };
      });
      app.post("/v1/customers/:id/tax_ids", { preHandler: authorized }, async (request, reply) => {
        const customer = customerOr404(request, reply);
        if (!customer) return reply;
        const params = formOf(request);
        const problem = taxIdProblem(String(params.type ?? ""), String(params.value ?? ""));
        if (problem) return stripeError(reply, 400, problem, "value", "tax_id_invalid");
        const taxId = { id: id("txi"), type: String(params.type), value: String(params.value) };
        customer.taxIds.push(taxId);
        return taxIdObject(customer, taxId);
      });
      app.delete("/v1/customers/:id/tax_ids/:taxId", { preHandler: authorized }, async (request, reply) => {
        const customer = customerOr404(request, reply);
        if (!customer) return reply;
        const taxIdId = (request.params as { taxId: string }).taxId;
        const before = customer.taxIds.length;
        customer.taxIds = customer.taxIds.filter((one) => one.id !== taxIdId);
        if (customer.taxIds.length === before) {
          return stripeError(reply, 404, `No such tax_id: '${taxIdId}'`, "id", "resource_missing");
        }
        return { id: taxIdId, object: "tax_id", deleted: true };
      });
      app.get("/v1/tax_rates/:id", { preHandler: authorized }, async (request, reply) => {
        const rateId = (request.params as { id: string }).id;
        const rate = state.taxRates.get(rateId);
        if (!rate) return stripeError(reply, 404, `No such tax_rate: '${rateId}'`, "id", "resource_missing");
        return {
          ...rate,
          object: "tax_rate",
          active: true,
          effective_percentage: rate.percentage,
          rate_type: "percentage",
          tax_type: "vat",
          livemode: false,
        };
      });
      app.post("/v1/billing_portal/sessions", { preHandler: authorized }, async (request, reply) => {
        const params = formOf(request);
        const known =
          state.customers.has(String(params.customer)) ||
          [...state.subscriptions.values()].some((sub) => sub.customer === params.customer);
        if (!known)
          return stripeError(
            reply,
            400,
            `No such customer: '${String(params.customer)}'`,
            "customer",
            "resource_missing",
          );
        const sessionId = id("bps");
        return {
          id: sessionId,
          object: "billing_portal.session",
          customer: params.customer,
          return_url: params.return_url ?? null,
          url: `${shared.origin()}/stripe-portal/${sessionId}`,
        };
      });
      app.get("/v1/subscriptions/:id", { preHandler: authorized }, async (request, reply) => {
        const sub = subscriptionOr404(request, reply);
        return sub ? subscriptionObject(sub) : reply;
      });
      app.post("/v1/subscriptions/:id", { preHandler: authorized }, async (request, reply) =>
        idempotent(request, reply, () => updateSubscription(request, reply)),
      );
      const updateSubscription = (request: FastifyRequest, reply: FastifyReply) => {
        const sub = subscriptionOr404(request, reply);
        if (!sub) return reply;
        const params = formOf(request);
        // The list replaces the subscription's discounts; an empty `discounts=` removes them all.
        const coupons = params.discounts === undefined ? null : couponsOf(params.discounts, reply);
        if (params.discounts !== undefined && !coupons) return reply;
        sub.updates.push(params);
        if (params.cancel_at_period_end !== undefined) sub.cancelAtPeriodEnd = params.cancel_at_period_end === "true";
        const item = at(params, "items", "0") as Record<string, unknown> | undefined;
        if (item) {
          if (item.id !== sub.itemId) return stripeError(reply, 400, "No such subscription item", "items[0][id]");
          if (item.quantity !== undefined) sub.quantity = Number(item.quantity);
          const amount = at(item, "price_data", "unit_amount");
          if (amount !== undefined) sub.unitAmount = Number(amount);
          const interval = at(item, "price_data", "recurring", "interval");
          if (interval === "month" || interval === "year") sub.interval = interval;
        }
        if (params.metadata) Object.assign(sub.metadata, params.metadata);
        if (at(params, "automatic_tax", "enabled") !== undefined) sub.automaticTax = automaticOf(params);
        if (coupons) {
          // A coupon already on the subscription keeps its discount; only new ones are redeemed.
          sub.discounts = coupons.map(
            (coupon) => sub.discounts.find((one) => one.coupon.id === coupon.id) ?? redeem(coupon),
          );
        }
        return subscriptionObject(sub);
      };
      app.delete("/v1/subscriptions/:id", { preHandler: authorized }, async (request, reply) => {
        const sub = subscriptionOr404(request, reply);
        if (!sub) return reply;
        sub.status = "canceled";
        return subscriptionObject(sub);
      });
      app.get("/v1/invoice_payments", { preHandler: authorized }, async (request) => {
        const query = request.query as Record<string, string>;
        const paid = [...state.sessions.values()].filter(
          (session) => session.invoice === query.invoice && session.paymentIntent,
        );
        const data = paid
          .filter(() => !query.status || query.status === "paid")
          .map((session) => ({
            id: `inpay_${session.paymentIntent}`,
            object: "invoice_payment",
            amount_paid: session.amountPaid,
            amount_requested: session.amountPaid,
            created: now(),
            currency: "usd",
            invoice: session.invoice,
            is_default: true,
            livemode: false,
            payment: { type: "payment_intent", payment_intent: session.paymentIntent },
            status: "paid",
            status_transitions: { canceled_at: null, paid_at: now() },
          }));
        return { object: "list", data, has_more: false, url: "/v1/invoice_payments" };
      });
      app.post("/v1/refunds", { preHandler: authorized }, async (request, reply) => {
        const params = formOf(request);
        const key = String(request.headers["idempotency-key"] ?? "") || null;
        const refundObject = (refund: FakeStripeRefund) => ({
          id: refund.id,
          object: "refund",
          amount: refund.amount,
          currency: "usd",
          payment_intent: refund.payment_intent,
          charge: `ch_${refund.payment_intent}`,
          metadata: refund.metadata,
          reason: params.reason ?? null,
          status: "succeeded",
          created: now(),
        });
        const repeated = key ? state.refunds.find((refund) => refund.idempotencyKey === key) : undefined;
        if (repeated) return refundObject(repeated);
        const intent = String(params.payment_intent ?? "");
        const session = [...state.sessions.values()].find((one) => one.paymentIntent && one.paymentIntent === intent);
        if (!session)
          return stripeError(reply, 404, `No such payment_intent: '${intent}'`, "payment_intent", "resource_missing");
        if (state.refunds.some((refund) => refund.payment_intent === intent)) {
          return stripeError(
            reply,
            400,
            `Charge ch_${intent} has already been refunded.`,
            undefined,
            "charge_already_refunded",
          );
        }
        const refund: FakeStripeRefund = {
          id: id("re"),
          payment_intent: intent,
          amount: session.amountPaid ?? 0,
          metadata: (params.metadata ?? {}) as Record<string, string>,
          idempotencyKey: key,
        };
        state.refunds.push(refund);
        return refundObject(refund);
      });
    },
  };
}
