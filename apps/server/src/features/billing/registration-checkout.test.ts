import { BILLING_MESSAGES, quote } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { newId } from "../../infra/security";
import { couponCatalogue } from "../coupons/catalogue";

const fakes = fakesForFile(afterAll, () => ({ stripe: stripeFake() }));
const fake = async () => (await fakes.current()).parts.stripe;

const fresh = (prefix: string) =>
  `${prefix}${newId(6)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "X")}`;

interface Secured {
  payload: string;
  key: string;
  order_ref: string;
  order_id: string;
  quote: { totalCents: number; unitCents: number };
}

/** The register page's checkout: POST /api/payment/secure as a visitor. */
async function secure(client: TestClient, body: Record<string, unknown>): Promise<Secured> {
  const answer = await client.api("POST", "/api/payment/secure", body);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data;
}

/** The visitor pays in the embedded checkout; Stripe's webhooks reach the server before the account exists. */
async function pay(env: TestEnv, sessionId: string) {
  const stripe = await fake();
  const { completed, invoicePaid } = stripe.pay(sessionId);
  for (const event of [completed, invoicePaid]) {
    const sent = await postStripeEvent(env.app, stripe.signed(event));
    expect(sent.statusCode, sent.body).toBe(200);
  }
}

const companyRow = (env: TestEnv, email: string) =>
  env.ctx.db
    .selectFrom("companies")
    .innerJoin("users", "users.company_id", "companies.id")
    .selectAll("companies")
    .where("users.email", "=", email.toLowerCase())
    .executeTakeFirst();

/** docs/product.md §4 "Registration": validate, take payment when payments are on, then create the account. */
describeEachDb(
  "billing: registration with payment claims the paid checkout",
  (env) => {
    it("pays 10 dashboards yearly with a coupon, then registers: active, Stripe's ids, the paid plan and its order", async () => {
      const code = await couponCatalogue(env().ctx.db).add({ code: fresh("YEAR"), type: "price.discount", value: 10 });
      const visitor = env().client();
      const email = `paid-${newId(6)}@agency.example`;
      const secured = await secure(visitor, {
        dashboards: 10,
        interval: 12,
        coupons: [code.code],
        email,
        first_name: "Jane",
        last_name: "van Cooper",
      });
      const expected = quote({
        dashboards: 10,
        interval: 12,
        coupons: [{ type: "price.discount", value: 10 }],
      });
      expect(secured.quote.totalCents).toBe(expected.totalCents);
      expect(secured.order_ref).toBe(secured.payload.split("_secret_")[0]);
      // The checkout opens pre-filled: a customer with the typed name and e-mail.
      const stripe = await fake();
      const customerId = String(stripe.sessions.get(secured.order_ref)?.params.customer);
      expect(stripe.customers.get(customerId)).toMatchObject({ email, name: "Jane van Cooper" });

      await pay(env(), secured.order_ref);
      const { response } = await visitor.register({
        email,
        dashboards: 10,
        interval: 12,
        coupons: JSON.stringify([code.code]),
        order_ref: secured.order_ref,
        order_id: secured.order_id,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ data: { redirect: "/intro" } });
      const page = await visitor.pageData();
      expect(page.company).toMatchObject({ state: "active", services: { dashboards: 10 }, hasSubscription: true });
      expect(page.company.subscription).toMatchObject({ interval: 12 });
      const row = await companyRow(env(), email);
      const subscription = stripe.sessions.get(secured.order_ref)?.subscription;
      expect(row).toMatchObject({ stripe_customer_id: customerId, subscription_id: subscription });
      const orders = await env()
        .ctx.db.selectFrom("orders")
        .selectAll()
        .where("company_id", "=", row?.id ?? "")
        .execute();
      expect(orders).toEqual([
        expect.objectContaining({ status: "paid", dashboards: 10, interval: 12, amount_cents: expected.totalCents }),
      ]);
      // Stripe's subscription now names its company, so every later webhook finds it.
      expect(subscription && stripe.subscriptions.get(subscription)?.metadata.company_id).toBe(row?.id);

      // A later renewal failing reaches the new company (found by its Stripe customer).
      const failed = stripe.signed(stripe.failInvoice(String(subscription)));
      const sent = await postStripeEvent(env().app, failed);
      expect(sent.statusCode).toBe(200);
      expect((await visitor.pageData()).company.state).toBe("overdue");
    });

    it("an unpaid, forged or already claimed order: 422 on order_ref with the reason, and no account", async () => {
      const visitor = env().client();
      const first = await secure(visitor, { dashboards: 3, interval: 1 });
      const attempts: Array<[string, Record<string, string>]> = [
        ["unpaid", { order_ref: first.order_ref, order_id: first.order_id }],
        ["forged id", { order_ref: first.order_ref, order_id: "not-the-signature" }],
        ["unknown session", { order_ref: "cs_test_999999", order_id: "x" }],
      ];
      for (const [label, order] of attempts) {
        const { response, email, password } = await env()
          .client()
          .register({ dashboards: 3, ...order });
        expect(response.statusCode, label).toBe(422);
        expect(response.json().errors, label).toEqual({ order_ref: [BILLING_MESSAGES.orderNotPaid] });
        expect((await env().client().login(email, password)).statusCode, label).toBe(422);
      }

      await pay(env(), first.order_ref);
      const claimed = await env()
        .client()
        .register({ dashboards: 3, order_ref: first.order_ref, order_id: first.order_id });
      expect(claimed.response.statusCode, claimed.response.body).toBe(200);
      const again = await env()
        .client()
        .register({ dashboards: 3, order_ref: first.order_ref, order_id: first.order_id });
      expect(again.response.statusCode).toBe(422);
      expect(again.response.json().errors).toEqual({ order_ref: [BILLING_MESSAGES.orderNotPaid] });
      expect(await companyRow(env(), again.email)).toBeUndefined();
    });

    it("two registrations racing for one paid session: one account, the other refused", async () => {
      const secured = await secure(env().client(), { dashboards: 2, interval: 1 });
      await pay(env(), secured.order_ref);
      const order = { order_ref: secured.order_ref, order_id: secured.order_id };
      const [a, b] = await Promise.all([
        env()
          .client()
          .register({ dashboards: 2, ...order }),
        env()
          .client()
          .register({ dashboards: 2, ...order }),
      ]);
      const codes = [a.response.statusCode, b.response.statusCode].sort();
      expect(codes).toEqual([200, 422]);
      const owners = await env()
        .ctx.db.selectFrom("companies")
        .select("id")
        .where("subscription_id", "=", String((await fake()).sessions.get(secured.order_ref)?.subscription))
        .execute();
      expect(owners).toHaveLength(1);
    });

    it("a checkout an existing company opened cannot be claimed by a new registration", async () => {
      const { client } = await buildOwner(env());
      const created = await client.api("POST", "/api/company/subscription", { dashboards: 4, interval: 1 });
      const sessionId: string = created.json().data.checkout.payload.split("_secret_")[0];
      await pay(env(), sessionId);
      const claims = env().services.get("billing").claims;
      const { response } = await env()
        .client()
        .register({ order_ref: sessionId, order_id: claims.orderIdOf(sessionId) });
      expect(response.statusCode).toBe(422);
    });
  },
  () => fakes.env(),
);
