import { afterAll, beforeEach, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { type FakeStripe, stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { newId } from "../../infra/security";
import { couponCatalogue } from "../coupons/catalogue";
import { LIFETIME_CANCEL_JOB, type TLifetimeCancel } from "./lifetime";

const fakes = fakesForFile(afterAll, () => ({ stripe: stripeFake() }));
const fake = async () => (await fakes.current()).parts.stripe;

const fresh = (prefix: string) =>
  `${prefix}${newId(6)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "X")}`;

async function sendEvent(env: TestEnv, stripe: FakeStripe, event: Parameters<FakeStripe["signed"]>[0]) {
  const answer = await postStripeEvent(env.app, stripe.signed(event));
  expect(answer.statusCode, answer.body).toBe(200);
}

/** The admin subscribes and pays by card: the Stripe subscription now charging the company. */
async function payingCompany(env: TestEnv) {
  const owner = await buildOwner(env);
  const stripe = await fake();
  const created = await owner.client.api("POST", "/api/company/subscription", { dashboards: 8, interval: 1 });
  expect(created.statusCode, created.body).toBe(200);
  const { completed, invoicePaid } = stripe.pay(created.json().data.checkout.payload.split("_secret_")[0]);
  for (const event of [completed, invoicePaid]) await sendEvent(env, stripe, event);
  const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === owner.company.id);
  if (!sub) throw new Error("no subscription");
  expect((await owner.client.api("GET", "/api/company")).json().data).toMatchObject({ state: "active" });
  return { ...owner, stripe, sub };
}

const lifetimeCode = async (env: TestEnv, dashboards: number) =>
  (await couponCatalogue(env.ctx.db).add({ code: fresh("SUMO"), type: "ltd.appsumo", value: dashboards })).code;

const company = async (client: TestClient) => (await client.api("GET", "/api/company")).json().data;

/** The company served for life: active, no end date, no card subscription, the lifetime dashboards. */
const LIFETIME = (dashboards: number) => ({
  state: "active",
  expiresAt: null,
  hasSubscription: false,
  isCanceled: false,
  services: { dashboards },
});

/** A lifetime (AppSumo) code replaces a card subscription: Stripe stops charging (docs/decisions.md). */
describeEachDb(
  "billing: a lifetime deal ends the card subscription",
  (env) => {
    beforeEach(async () => {
      (await fake()).failNext.splice(0);
    });

    it("applying the code cancels the Stripe subscription; Stripe's deleted and late invoice events leave the company served for life", async () => {
      const { client, company: owned, stripe, sub } = await payingCompany(env());
      const code = await lifetimeCode(env(), 20);
      const applied = await client.api("POST", "/api/company/coupon", { coupon: code });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json().data).toMatchObject(LIFETIME(20));
      expect(stripe.subscriptions.get(sub.id)?.status).toBe("canceled");

      // What Stripe sends next: the subscription ended now, and a renewal that raced the cancellation.
      await sendEvent(env(), stripe, stripe.deleteSubscription(sub.id));
      await sendEvent(env(), stripe, stripe.failInvoice(sub.id));
      const after = await company(client);
      expect(after).toMatchObject(LIFETIME(20));
      const page = (await client.api("GET", "/api/page-data")).json();
      expect(page.company.canCreateDashboard).toBe(true);
      expect(page.messages.map((m: { code: number }) => m.code)).not.toContain(126);
      expect(page.messages.map((m: { code: number }) => m.code)).not.toContain(128);
      // Both events were handled (recorded), not refused.
      const events = await env()
        .ctx.db.selectFrom("payment_events")
        .select("type")
        .where("company_id", "=", owned.id)
        .execute();
      expect(events.map((e) => e.type)).toEqual(
        expect.arrayContaining(["customer.subscription.deleted", "invoice.payment_failed"]),
      );
    });

    it("Stripe unreachable: the code still holds, the failure is queued and the job cancels once Stripe answers", async () => {
      const { client, company: owned, stripe, sub } = await payingCompany(env());
      const code = await lifetimeCode(env(), 10);
      // Twice: the client retries a 500 once.
      const fault = {
        status: 500,
        body: { error: { type: "api_error", message: "Something went wrong" } },
        pathIncludes: `/v1/subscriptions/${sub.id}`,
      };
      stripe.failNext.push(fault, { ...fault });
      const applied = await client.api("POST", "/api/company/coupon", { coupon: code });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json().applied).toEqual([code]);
      expect(await company(client)).toMatchObject(LIFETIME(10));
      expect(stripe.subscriptions.get(sub.id)?.status).toBe("active");

      const queued = (await env().ctx.jobs.list(LIFETIME_CANCEL_JOB, "waiting", 1000)).filter(
        (job) => (job.payload as TLifetimeCancel).companyId === owned.id,
      );
      expect(queued.map((job) => job.payload)).toEqual([{ companyId: owned.id, subscriptionId: sub.id }]);
      const lifetime = env().services.get("billing").lifetime;
      // Still down: the attempt fails, so the queue tries again later.
      stripe.failNext.push(fault, { ...fault });
      await expect(lifetime.retry(queued[0]?.payload as TLifetimeCancel)).rejects.toThrow();
      expect(stripe.subscriptions.get(sub.id)?.status).toBe("active");
      await lifetime.retry(queued[0]?.payload as TLifetimeCancel);
      expect(stripe.subscriptions.get(sub.id)?.status).toBe("canceled");
      // The job's own handler does the same work (a subscription already gone is done, too).
      const definition = lifetime.job;
      await definition.handle(queued[0]?.payload as TLifetimeCancel, {
        jobId: "x",
        attempt: 2,
        signal: new AbortController().signal,
      });
      await sendEvent(env(), stripe, stripe.deleteSubscription(sub.id));
      expect(await company(client)).toMatchObject(LIFETIME(10));
    });

    it("a canceled subscription running out its period is left alone; its end changes nothing", async () => {
      const { client, stripe, sub } = await payingCompany(env());
      const canceled = await client.api("DELETE", "/api/company", { cancellation: { reason: "budget" } });
      expect(canceled.statusCode, canceled.body).toBe(200);
      const updatesBefore = stripe.subscriptions.get(sub.id)?.updates.length;
      const applied = await client.api("POST", "/api/company/coupon", { coupon: await lifetimeCode(env(), 5) });
      expect(applied.statusCode, applied.body).toBe(200);
      // Stripe already ends it with the period: no second call.
      expect(stripe.subscriptions.get(sub.id)).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
      expect(stripe.subscriptions.get(sub.id)?.updates.length).toBe(updatesBefore);
      await sendEvent(env(), stripe, stripe.deleteSubscription(sub.id));
      expect(await company(client)).toMatchObject(LIFETIME(5));
    });

    it("a registration paying by card and bringing a lifetime code: the paid subscription is canceled, the order kept", async () => {
      const stripe = await fake();
      const code = await lifetimeCode(env(), 15);
      const visitor = env().client();
      const email = `sumo-${newId(6)}@agency.example`;
      const secured = await visitor.api("POST", "/api/payment/secure", {
        dashboards: 3,
        interval: 1,
        coupons: [],
        email,
      });
      expect(secured.statusCode, secured.body).toBe(200);
      const { order_ref: orderRef, order_id: orderId } = secured.json().data;
      const { completed, invoicePaid } = stripe.pay(orderRef);
      for (const event of [completed, invoicePaid]) await sendEvent(env(), stripe, event);
      const { response } = await visitor.register({
        email,
        dashboards: 3,
        interval: 1,
        coupons: JSON.stringify([code]),
        order_ref: orderRef,
        order_id: orderId,
      });
      expect(response.statusCode, response.body).toBe(200);
      const subscriptionId = String(stripe.sessions.get(orderRef)?.subscription);
      expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("canceled");
      const page = await visitor.pageData();
      expect(page.company).toMatchObject(LIFETIME(15));
      // Stripe's later events about that subscription find the company by its customer and change nothing.
      await sendEvent(env(), stripe, stripe.deleteSubscription(subscriptionId));
      expect((await visitor.pageData()).company).toMatchObject(LIFETIME(15));
      const orders = await env()
        .ctx.db.selectFrom("orders")
        .select(["status", "dashboards"])
        .where("company_id", "=", page.company.id)
        .execute();
      expect(orders).toEqual([{ status: "paid", dashboards: 3 }]);
    });
  },
  () => fakes.env(),
);
