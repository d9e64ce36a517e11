import { BILLING_MESSAGES, quote, REALTIME_EVENTS } from "@app/core";
import { afterAll, beforeEach, expect, it } from "vitest";
import { buildDashboard, buildOwner, buildUser, signIn } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { until } from "../../../test/wait";
import { NO_SERVICE_CREATE, NO_SERVICE_VIEW } from "../dashboards/service";

const fakes = fakesForFile(afterAll, () => ({ stripe: stripeFake() }));
const fake = async () => (await fakes.current()).parts.stripe;

/** What members' browsers hear: CompanySubscriptionUpdated broadcasts, from now on. */
function listen(env: TestEnv) {
  const seen: Array<{ channel: string; data: unknown }> = [];
  const stop = env.ctx.events.subscribe("realtime.broadcast", (message) => {
    if (message.event === REALTIME_EVENTS.subscriptionUpdated)
      seen.push({ channel: message.channel, data: message.data });
  });
  return { seen, stop };
}

function sendWebhook(env: TestEnv, payload: string, header: string) {
  return postStripeEvent(env.app, { payload, header });
}

const ordersOf = (env: TestEnv, companyId: string) =>
  env.ctx.db.selectFrom("orders").selectAll().where("company_id", "=", companyId).orderBy("sequence").execute();

/** An admin starts a subscription and pays it in the (fake) embedded checkout: the session's id. */
async function subscribe(client: TestClient, dashboards: number, interval: 1 | 12) {
  const created = await client.api("POST", "/api/company/subscription", { dashboards, interval });
  expect(created.statusCode, created.body).toBe(200);
  const secret: string = created.json().data.checkout.payload;
  return { sessionId: secret.split("_secret_")[0], answer: created.json().data };
}

describeEachDb(
  "billing: subscriptions and Stripe webhooks",
  (env) => {
    beforeEach(async () => {
      (await fake()).failNext.splice(0);
    });

    it("page data says payments are on; the subscription's price is core quote's, and the checkout is Stripe's embedded session", async () => {
      const { client, company } = await buildOwner(env());
      const { config } = (await client.api("GET", "/api/page-data")).json();
      expect(config).toMatchObject({ paymentEnabled: true, stripeJsUrl: (await fakes.current()).env.STRIPE_JS_URL });
      const { sessionId, answer } = await subscribe(client, 30, 12);
      const expected = quote({ dashboards: 30, interval: 12 });
      expect(answer.quote).toMatchObject({
        unitCents: expected.unitCents,
        totalCents: expected.totalCents,
        total: expected.total,
      });
      expect(answer.checkout.key).toBe((await fake()).publishableKey);
      const session = (await fake()).sessions.get(sessionId);
      expect(session?.params).toMatchObject({
        mode: "subscription",
        ui_mode: "embedded_page",
        client_reference_id: company.id,
        metadata: { company_id: company.id, dashboards: "30", interval: "12" },
        line_items: {
          0: {
            quantity: "30",
            price_data: { unit_amount: String(expected.unitCents), recurring: { interval: "year" } },
          },
        },
      });
      // Nothing changes before Stripe says the card was charged.
      expect((await client.api("GET", "/api/company")).json().data.state).toBe("trial");
    });

    it("refuses bad input per field, and non-admins with 403", async () => {
      const { client, company } = await buildOwner(env());
      const bad = await client.api("POST", "/api/company/subscription", { dashboards: 0, interval: 3, coupons: "X" });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(["coupons", "dashboards", "interval"]);
      expect(bad.json().errors.interval).toEqual(["The interval must be 1 or 12."]);
      const member = await signIn(env(), await buildUser(env(), { company, role: "user" }));
      for (const method of ["POST", "PUT"] as const) {
        const refused = await member.api(method, "/api/company/subscription", { dashboards: 5, interval: 1 });
        expect(refused.statusCode).toBe(403);
      }
      expect((await member.api("POST", "/api/payment/secure", { dashboards: 5, interval: 1 })).statusCode).toBe(403);
      // A PUT without a subscription has nothing to change.
      const change = await client.api("PUT", "/api/company/subscription", { dashboards: 5, interval: 1 });
      expect(change.statusCode).toBe(422);
      expect(change.json().errors.general).toEqual([BILLING_MESSAGES.noSubscription]);
    });

    it("a registering visitor gets an embedded checkout for the priced plan, with their e-mail", async () => {
      const visitor = env().client();
      const answer = await visitor.api("POST", "/api/payment/secure", {
        dashboards: 10,
        interval: 1,
        email: "new@agency.example",
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const { payload, key, quote: priced } = answer.json().data;
      expect(key).toBe((await fake()).publishableKey);
      expect(priced.totalCents).toBe(quote({ dashboards: 10, interval: 1 }).totalCents);
      const session = (await fake()).sessions.get(payload.split("_secret_")[0]);
      expect(session?.params).toMatchObject({ customer_email: "new@agency.example", metadata: { company_id: "" } });
    });

    it("trial → paid → active with an order; a replay changes nothing; failed → overdue (banner 128, live); deleted → canceled (402, no new dashboards, Mission Control stays)", async () => {
      const { client, company, user } = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company, user, name: "Client report" });
      const live = listen(env());
      const stripe = await fake();
      const { sessionId } = await subscribe(client, 12, 1);
      const { completed, invoicePaid } = stripe.pay(sessionId);

      for (const event of [completed, invoicePaid]) {
        const { payload, header } = stripe.signed(event);
        const answer = await sendWebhook(env(), payload, header);
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toEqual({ received: true, duplicate: false });
      }
      const active = (await client.api("GET", "/api/company")).json().data;
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      expect(active).toMatchObject({
        state: "active",
        hasSubscription: true,
        subscription: { id: sub?.id, interval: 1 },
      });
      expect(active.services.dashboards).toBe(12);
      expect(active.expiresAt).toBe(new Date((sub?.periodEnd ?? 0) * 1000).toISOString());
      let orders = await ordersOf(env(), company.id);
      // checkout.session.completed and invoice.paid speak of one invoice: one order.
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({
        status: "paid",
        amount_cents: 12 * quote({ dashboards: 12, interval: 1 }).unitCents,
        dashboards: 12,
      });
      expect(orders[0].number).toMatch(/^INV-\d{4}-\d{6}$/);
      await until(() => live.seen.some((m) => (m.data as { state: string }).state === "active"));

      // Stripe delivers the same event again: 200, nothing new.
      const replay = stripe.signed(invoicePaid);
      const again = await sendWebhook(env(), replay.payload, replay.header);
      expect(again.statusCode).toBe(200);
      expect(again.json().duplicate).toBe(true);
      expect(await ordersOf(env(), company.id)).toHaveLength(1);

      // The renewal fails: overdue, banner 128 (linking to the card page), pushed live, a failed order.
      const failed = stripe.signed(stripe.failInvoice(sub?.id ?? ""));
      expect((await sendWebhook(env(), failed.payload, failed.header)).statusCode).toBe(200);
      await until(() => live.seen.some((m) => (m.data as { state: string }).state === "overdue"));
      const overduePage = (await client.api("GET", "/api/page-data")).json();
      expect(overduePage.company.isOverdue).toBe(true);
      const banner = overduePage.messages.find((m: { code: number }) => m.code === 128);
      expect(banner.body).toContain("/company/manage-payment");
      orders = await ordersOf(env(), company.id);
      expect(orders.map((o) => o.status)).toEqual(["paid", "failed"]);

      // Stripe gives up: canceled, service ends now.
      const deleted = stripe.signed(stripe.deleteSubscription(sub?.id ?? ""));
      expect((await sendWebhook(env(), deleted.payload, deleted.header)).statusCode).toBe(200);
      await until(() => live.seen.some((m) => (m.data as { state: string }).state === "canceled"));
      live.stop();
      const canceledPage = (await client.api("GET", "/api/page-data")).json();
      expect(canceledPage.company).toMatchObject({ state: "canceled", isCanceled: true, canCreateDashboard: false });
      expect(canceledPage.messages.map((m: { code: number }) => m.code)).toContain(126);
      const shared = await env().client().raw("GET", `/api/dashboards/${dashboard.permalink}`);
      expect(shared.statusCode).toBe(402);
      expect(shared.json().message).toBe(NO_SERVICE_VIEW);
      const create = await client.api("POST", "/api/dashboards", { name: "Another" });
      expect(create.statusCode).toBe(422);
      expect(create.json().errors.general).toEqual([NO_SERVICE_CREATE]);
      expect((await client.api("GET", `/api/dashboards/${dashboard.permalink}`)).statusCode).toBe(200);
      expect((await client.api("GET", "/api/campaigns")).statusCode).toBe(200);
    });

    it("a forged signature is a 400 and changes nothing", async () => {
      const { client, company } = await buildOwner(env());
      const stripe = await fake();
      const { sessionId } = await subscribe(client, 5, 1);
      const { completed } = stripe.pay(sessionId);
      const forged = stripe.signed(completed, "whsec_somebody_else");
      const answer = await sendWebhook(env(), forged.payload, forged.header);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(BILLING_MESSAGES.badSignature);
      // A body changed after signing fails too.
      const genuine = stripe.signed(completed);
      const tampered = await sendWebhook(env(), genuine.payload.replace('"paid"', '"paid" '), genuine.header);
      expect(tampered.statusCode).toBe(400);
      expect((await sendWebhook(env(), genuine.payload, "")).statusCode).toBe(400);
      expect((await client.api("GET", "/api/company")).json().data.state).toBe("trial");
      expect(await ordersOf(env(), company.id)).toHaveLength(0);
      const events = await env()
        .ctx.db.selectFrom("payment_events")
        .selectAll()
        .where("event_id", "=", completed.id)
        .execute();
      expect(events).toHaveLength(0);
    });

    it("changing the plan updates Stripe's subscription at the server's price, then the company (live)", async () => {
      const { client, company } = await buildOwner(env());
      const stripe = await fake();
      const { sessionId } = await subscribe(client, 5, 1);
      const { completed } = stripe.pay(sessionId);
      const signed = stripe.signed(completed);
      expect((await sendWebhook(env(), signed.payload, signed.header)).statusCode).toBe(200);
      const live = listen(env());
      const changed = await client.api("PUT", "/api/company/subscription", { dashboards: 40, interval: 12 });
      expect(changed.statusCode, changed.body).toBe(200);
      const expected = quote({ dashboards: 40, interval: 12 });
      expect(changed.json().data.quote.totalCents).toBe(expected.totalCents);
      expect(changed.json().data.company.services.dashboards).toBe(40);
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      expect(sub).toMatchObject({ quantity: 40, unitAmount: expected.unitCents, interval: "year" });
      await until(() => live.seen.length > 0);
      live.stop();
      expect(live.seen[0].data).toMatchObject({ state: "active", services: { dashboards: 40 } });
    });

    it("canceling a paid subscription asks Stripe to end it with the period; service stays until then", async () => {
      const { client, company } = await buildOwner(env());
      const stripe = await fake();
      const { sessionId } = await subscribe(client, 5, 1);
      const { completed, invoicePaid } = stripe.pay(sessionId);
      for (const event of [completed, invoicePaid]) {
        const signed = stripe.signed(event);
        await sendWebhook(env(), signed.payload, signed.header);
      }
      const paid = (await client.api("GET", "/api/company")).json().data;
      const canceled = await client.api("DELETE", "/api/company", { cancellation: { reason: "budget" } });
      expect(canceled.statusCode).toBe(200);
      expect(canceled.json().data).toMatchObject({
        state: "canceled",
        expiresAt: paid.expiresAt,
        canCreateDashboard: true,
      });
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      expect(sub?.cancelAtPeriodEnd).toBe(true);
    });

    it("the card page opens Stripe's billing portal for a paying company, and refuses one without a card", async () => {
      const { client } = await buildOwner(env());
      const none = await client.api("POST", "/api/company/payment-portal", {});
      expect(none.statusCode).toBe(422);
      expect(none.json().errors.general).toEqual([BILLING_MESSAGES.noCustomer]);
      const stripe = await fake();
      const { sessionId } = await subscribe(client, 5, 1);
      const signed = stripe.signed(stripe.pay(sessionId).completed);
      await sendWebhook(env(), signed.payload, signed.header);
      const portal = await client.api("POST", "/api/company/payment-portal", {});
      expect(portal.statusCode, portal.body).toBe(200);
      expect(portal.json().data.url).toMatch(/\/stripe-portal\/bps_test_/);
      const sent = (await fakes.current()).calls.filter((call) => call.path === "/v1/billing_portal/sessions").at(-1);
      expect(sent?.body).toContain(encodeURIComponent("/company/subscription"));
    });

    it("deleting a paying company ends its Stripe subscription at once; a later Stripe event finds no company and is only recorded", async () => {
      const { client, company } = await buildOwner(env());
      const stripe = await fake();
      const { sessionId } = await subscribe(client, 5, 1);
      const signed = stripe.signed(stripe.pay(sessionId).completed);
      await sendWebhook(env(), signed.payload, signed.header);
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      const deleted = await client.api("DELETE", "/api/company", { delete: true });
      expect(deleted.statusCode).toBe(204);
      expect(sub?.status).toBe("canceled");
      const late = stripe.signed(stripe.deleteSubscription(sub?.id ?? ""));
      const answer = await sendWebhook(env(), late.payload, late.header);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().duplicate).toBe(false);
    });

    it("the fake's Stripe.js shim pays a visitor's checkout: a declined card changes nothing, a good one completes and sends the webhooks", async () => {
      const running = await fakes.current();
      const shim = await fetch(running.env.STRIPE_JS_URL);
      expect(await shim.text()).toContain("initEmbeddedCheckout");
      const { client, company } = await buildOwner(env());
      const { answer } = await subscribe(client, 3, 1);
      const stripe = running.parts.stripe;
      stripe.deliver = async (payload, header) => {
        expect((await sendWebhook(env(), payload, header)).statusCode).toBe(200);
      };
      const pay = (card: string) =>
        fetch(`${running.url}/stripe-js/pay`, {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ client_secret: answer.checkout.payload, key: answer.checkout.key, card }),
        });
      expect((await pay("4000 0000 0000 0002")).status).toBe(402);
      expect((await client.api("GET", "/api/company")).json().data.state).toBe("trial");
      const paid = await pay("4242 4242 4242 4242");
      stripe.deliver = null;
      expect(paid.status).toBe(200);
      expect((await client.api("GET", "/api/company")).json().data).toMatchObject({
        state: "active",
        services: { dashboards: 3 },
      });
      expect(await ordersOf(env(), company.id)).toHaveLength(1);
      // A session is paid once.
      expect((await pay("4242 4242 4242 4242")).status).toBe(400);
    });

    it("Stripe failing is a 503 to retry and nothing changes", async () => {
      const { client } = await buildOwner(env());
      // Twice: the client retries a 500 once (its idempotency key makes that safe).
      const fault = {
        status: 500,
        body: { error: { type: "api_error", message: "Something went wrong" } },
        pathIncludes: "/v1/checkout/sessions",
      };
      (await fake()).failNext.push(fault, { ...fault });
      const answer = await client.api("POST", "/api/company/subscription", { dashboards: 5, interval: 1 });
      expect(answer.statusCode).toBe(503);
      expect(answer.json().message).toBe(BILLING_MESSAGES.providerFailed);
    });

    it("the expiry job tells members once when a trial or a canceled period ends", async () => {
      const { client, company } = await buildOwner(env());
      const past = new Date(Date.now() - 60_000).toISOString();
      await env().ctx.db.updateTable("companies").set({ expires_at: past }).where("id", "=", company.id).execute();
      const live = listen(env());
      const billing = env().services.get("billing");
      expect(await billing.endServiceWhereDue()).toBeGreaterThanOrEqual(1);
      await until(() => live.seen.some((m) => m.channel.endsWith(company.id)));
      const told = live.seen.filter((m) => m.channel.endsWith(company.id)).length;
      await billing.endServiceWhereDue();
      live.stop();
      expect(live.seen.filter((m) => m.channel.endsWith(company.id))).toHaveLength(told);
      const page = (await client.api("GET", "/api/page-data")).json();
      expect(page.company.canCreateDashboard).toBe(false);
      expect(page.messages.map((m: { code: number }) => m.code)).toContain(129);
    });
  },
  () => fakes.env(),
);

describeEachDb("billing with payments off (no STRIPE_SECRET_KEY)", (env) => {
  it("keeps the trial sign-up, says payments are off, and refuses checkout with a 422", async () => {
    const visitor = env().client();
    const { response } = await visitor.register();
    expect(response.statusCode).toBe(200);
    const page = (await visitor.api("GET", "/api/page-data")).json();
    expect(page.config).toMatchObject({ paymentEnabled: false, stripeJsUrl: null });
    expect(page.company.state).toBe("trial");
    const refused = await visitor.api("POST", "/api/company/subscription", { dashboards: 5, interval: 1 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.general).toEqual([BILLING_MESSAGES.paymentsOff]);
    const secure = await env().client().api("POST", "/api/payment/secure", { dashboards: 5, interval: 1 });
    expect(secure.statusCode).toBe(422);
  });
});
