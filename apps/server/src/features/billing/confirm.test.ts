import { BILLING_MESSAGES } from "@app/core";
import { afterAll, beforeEach, expect, it } from "vitest";
import { buildOwner, buildUser, signIn } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { type FakeStripe, stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { confirmEvent } from "./confirm";

const fakes = fakesForFile(afterAll, () => ({ stripe: stripeFake() }));
const fake = async () => (await fakes.current()).parts.stripe;

async function sendEvent(env: TestEnv, stripe: FakeStripe, event: Parameters<FakeStripe["signed"]>[0]) {
  const answer = await postStripeEvent(env.app, stripe.signed(event));
  expect(answer.statusCode, answer.body).toBe(200);
}

/** POST /api/company/subscription: the checkout's session (`order_ref`), not paid yet. */
async function startCheckout(client: TestClient, dashboards = 5): Promise<string> {
  const created = await client.api("POST", "/api/company/subscription", { dashboards, interval: 1 });
  expect(created.statusCode, created.body).toBe(200);
  const { checkout } = created.json().data;
  expect(checkout.payload.startsWith(`${checkout.order_ref}_secret_`)).toBe(true);
  return checkout.order_ref;
}

const confirm = (client: TestClient, orderRef: string) =>
  client.api("POST", "/api/company/subscription/confirm", { order_ref: orderRef });

const ordersOf = (env: TestEnv, companyId: string) =>
  env.ctx.db.selectFrom("orders").select(["status", "dashboards"]).where("company_id", "=", companyId).execute();

/** A company that paid, then whose subscription Stripe ended: canceled, as on the subscription page. */
async function canceledCompany(env: TestEnv) {
  const owner = await buildOwner(env);
  const stripe = await fake();
  const first = await startCheckout(owner.client, 3);
  const { completed, invoicePaid } = stripe.pay(first);
  for (const event of [completed, invoicePaid]) await sendEvent(env, stripe, event);
  const sub = String(stripe.sessions.get(first)?.subscription);
  await sendEvent(env, stripe, stripe.deleteSubscription(sub));
  expect((await owner.client.api("GET", "/api/company")).json().data.state).toBe("canceled");
  return { ...owner, stripe };
}

/** docs/decisions.md "Payment received only once confirmed": the page's check of its checkout. */
describeEachDb(
  "billing: the subscription page's payment confirmation",
  (env) => {
    beforeEach(async () => {
      (await fake()).failNext.splice(0);
    });

    it("a canceled company subscribes again and the webhook never comes: not confirmed until Stripe says the session is paid, then active with its order, once", async () => {
      const { client, company, stripe } = await canceledCompany(env());
      const orderRef = await startCheckout(client, 7);
      // Not paid yet: not confirmed, still canceled.
      const before = await confirm(client, orderRef);
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json().data).toMatchObject({ confirmed: false, company: { state: "canceled" } });

      // Paid at Stripe; its webhooks are lost. The check reads the session and applies it.
      const { completed, invoicePaid } = stripe.pay(orderRef);
      const after = await confirm(client, orderRef);
      expect(after.json().data).toMatchObject({
        confirmed: true,
        company: { state: "active", isCanceled: false, services: { dashboards: 7 } },
      });
      const subscription = String(stripe.sessions.get(orderRef)?.subscription);
      expect((await client.api("GET", "/api/company")).json().data.subscription.id).toBe(subscription);
      expect(await ordersOf(env(), company.id)).toHaveLength(2);

      // Asked again, and Stripe's webhooks arriving late: still one order for that payment.
      expect((await confirm(client, orderRef)).json().data.confirmed).toBe(true);
      for (const event of [completed, invoicePaid]) await sendEvent(env(), stripe, event);
      expect((await client.api("GET", "/api/company")).json().data.state).toBe("active");
      expect(await ordersOf(env(), company.id)).toEqual([
        { status: "paid", dashboards: 3 },
        { status: "paid", dashboards: 7 },
      ]);
    });

    it("the webhook came first: confirmed from the company as it is, nothing applied twice", async () => {
      const { client, company } = await buildOwner(env());
      const stripe = await fake();
      const orderRef = await startCheckout(client);
      const { completed } = stripe.pay(orderRef);
      await sendEvent(env(), stripe, completed);
      const answer = await confirm(client, orderRef);
      expect(answer.json().data).toMatchObject({ confirmed: true, company: { state: "active" } });
      const marker = await env()
        .ctx.db.selectFrom("payment_events")
        .select("event_id")
        .where("event_id", "=", confirmEvent(orderRef))
        .execute();
      expect(marker).toEqual([]);
      expect(await ordersOf(env(), company.id)).toHaveLength(1);
    });

    it("refuses another company's session and an unknown one (422 on order_ref), members (403), and says Stripe is down (503)", async () => {
      const stripe = await fake();
      const mine = await buildOwner(env());
      const theirs = await buildOwner(env());
      const theirRef = await startCheckout(theirs.client);
      stripe.pay(theirRef);
      for (const ref of [theirRef, "cs_test_unknown"]) {
        const refused = await confirm(mine.client, ref);
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors.order_ref).toEqual([BILLING_MESSAGES.orderNotPaid]);
      }
      expect((await mine.client.api("GET", "/api/company")).json().data.state).toBe("trial");
      const empty = await mine.client.api("POST", "/api/company/subscription/confirm", { order_ref: " " });
      expect(empty.statusCode).toBe(422);
      expect(Object.keys(empty.json().errors)).toEqual(["order_ref"]);
      const member = await signIn(env(), await buildUser(env(), { company: theirs.company, role: "user" }));
      expect((await confirm(member, theirRef)).statusCode).toBe(403);

      const fault = {
        status: 500,
        body: { error: { type: "api_error", message: "Something went wrong" } },
        pathIncludes: "/v1/checkout/sessions/",
      };
      stripe.failNext.push(fault, { ...fault });
      const down = await confirm(theirs.client, theirRef);
      expect(down.statusCode).toBe(503);
      expect(down.json().message).toBe(BILLING_MESSAGES.providerFailed);
      expect((await confirm(theirs.client, theirRef)).json().data.confirmed).toBe(true);
    });
  },
  () => fakes.env(),
);
