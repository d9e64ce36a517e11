import { SOCIAL_PAYMENT_REFUNDED, socialAuthMessage, socialAuthNotice } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { fakesForFile } from "../../../test/fakes/app";
import { oidcFake } from "../../../test/fakes/oidc";
import { stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { paidCheckout as payCheckout } from "../../../test/stripe-webhook";
import { CHECKOUT_REFUND_JOB, type TCheckoutRefund } from "../billing/refund";
import { couponCatalogue } from "../coupons/catalogue";

const fakes = fakesForFile(afterAll, () => ({ google: oidcFake("google"), stripe: stripeFake() }));

const CONSENTS = { terms_consent: true, age_consent: true };
const XHR = { "x-requested-with": "XMLHttpRequest" };
let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}`;
/** Stripe answering 500, twice: the client retries a 500 once. */
const stripeDown = (pathIncludes: string) => {
  const fault = { status: 500, body: { error: { type: "api_error", message: "Something went wrong" } }, pathIncludes };
  return [fault, { ...fault }];
};

/** A paid social sign-up that makes no account gives the payment back (docs/product.md §4; docs/decisions.md, "Social sign-up and login"). */
describeEachDb(
  "social sign-up refunds a payment no new account took (Stripe fake, Google over OIDC)",
  (env) => {
    const parts = async () => (await fakes.current()).parts;

    /** The register page's checkout, paid, with Stripe's webhooks delivered. */
    const paidCheckout = async (body: Record<string, unknown>) => payCheckout(env(), (await parts()).stripe, body);

    /** The page's POST, the provider's consent (answered at once), then our callback. */
    async function signUp(client: TestClient, body: Record<string, unknown>, between?: () => Promise<void>) {
      const started = await client.raw("POST", "/register/google", { body: { ...CONSENTS, ...body }, headers: XHR });
      expect(started.statusCode, started.body).toBe(200);
      await between?.();
      const provider = await fetch(started.json().data.redirect, { redirect: "manual" });
      const back = new URL(provider.headers.get("location") as string);
      return client.raw("GET", `${back.pathname}${back.search}`);
    }

    const eventsOf = (sessionId: string) =>
      env()
        .ctx.db.selectFrom("payment_events")
        .select(["event_id", "type", "company_id"])
        .where("event_id", "in", [`claim:${sessionId}`, `refund:${sessionId}`])
        .orderBy("event_id")
        .execute();
    const companyOf = (email: string) =>
      env()
        .ctx.db.selectFrom("companies")
        .innerJoin("users", "users.company_id", "companies.id")
        .selectAll("companies")
        .where("users.email", "=", email)
        .executeTakeFirst();
    const queuedRefunds = async (sessionId: string) =>
      (await env().ctx.jobs.list(CHECKOUT_REFUND_JOB, "waiting", 1000))
        .map((job) => job.payload as TCheckoutRefund)
        .filter((payload) => payload.sessionId === sessionId);

    /** A user who signed up with Google (paid) before; answers the e-mail and the company. */
    async function knownUser() {
      const { google } = await parts();
      const email = `${unique("known")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Kay Known" };
      const first = await paidCheckout({ dashboards: 2, interval: 1 });
      const registered = await signUp(env().client(), { dashboards: 2, ...first });
      expect(registered.headers.location).toBe("/intro");
      return { email, company: await companyOf(email) };
    }

    it("an existing user pays again: signed in with the notice, the subscription canceled, the payment refunded once", async () => {
      const { stripe } = await parts();
      const { company } = await knownUser();
      const second = await paidCheckout({ dashboards: 9, interval: 12 });
      const paid = stripe.sessions.get(second.order_ref);
      const browser = env().client();
      const callback = await signUp(browser, { dashboards: 9, interval: 12, ...second });

      expect(callback.headers.location).toBe("/intro?social_notice=existing_account&provider=google");
      expect(socialAuthNotice("existing_account", "google")).toBe(
        `You already had an account, so Google signed you in to it and no new account was created. ${SOCIAL_PAYMENT_REFUNDED}`,
      );
      expect((await browser.pageData()).company).toMatchObject({ id: company?.id, services: { dashboards: 2 } });
      expect(stripe.subscriptions.get(paid?.subscription as string)?.status).toBe("canceled");
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toEqual([
        expect.objectContaining({ amount: paid?.amountPaid, metadata: { checkout_session: second.order_ref } }),
      ]);
      // Held as claimed by nobody, so the form cannot claim a refunded checkout afterwards.
      expect(await eventsOf(second.order_ref)).toEqual([
        { event_id: `claim:${second.order_ref}`, type: "checkout.session.refunded", company_id: null },
        { event_id: `refund:${second.order_ref}`, type: "checkout.session.refund", company_id: null },
      ]);
      const late = await env()
        .client()
        .register({ dashboards: 9, interval: 12, ...second });
      expect(late.response.statusCode).toBe(422);

      // The job running (twice) for the same checkout refunds nothing more.
      const refunds = env().services.get("billing").refunds;
      expect(await refunds.retry({ sessionId: second.order_ref })).toBe("refunded");
      await refunds.job.handle(
        { sessionId: second.order_ref },
        { jobId: "x", attempt: 2, signal: new AbortController().signal },
      );
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toHaveLength(1);
      expect(await queuedRefunds(second.order_ref)).toEqual([]);
    });

    it("Stripe unreachable at the callback: signed in, the refund queued; the job fails while Stripe is down, then refunds once", async () => {
      const { stripe } = await parts();
      const { company } = await knownUser();
      const order = await paidCheckout({ dashboards: 4, interval: 1 });
      const paid = stripe.sessions.get(order.order_ref);
      const browser = env().client();
      // Stripe goes down while the user is at the provider.
      const callback = await signUp(browser, { dashboards: 4, ...order }, async () => {
        stripe.failNext.push(...stripeDown(`/v1/checkout/sessions/${order.order_ref}`));
      });
      expect(callback.headers.location).toBe("/intro?social_notice=existing_account&provider=google");
      expect((await browser.pageData()).company).toMatchObject({ id: company?.id });
      expect(stripe.subscriptions.get(paid?.subscription as string)?.status).toBe("active");
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toEqual([]);
      expect(await queuedRefunds(order.order_ref)).toEqual([{ sessionId: order.order_ref }]);

      const refunds = env().services.get("billing").refunds;
      // Still down while refunding: the attempt throws (the queue tries again later), nothing recorded.
      stripe.failNext.push(...stripeDown("/v1/refunds"));
      await expect(refunds.retry({ sessionId: order.order_ref })).rejects.toThrow();
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toEqual([]);
      expect((await eventsOf(order.order_ref)).map((event) => event.event_id)).toEqual([`claim:${order.order_ref}`]);

      await refunds.retry({ sessionId: order.order_ref });
      await refunds.retry({ sessionId: order.order_ref });
      expect(stripe.subscriptions.get(paid?.subscription as string)?.status).toBe("canceled");
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toHaveLength(1);
      expect((await eventsOf(order.order_ref)).map((event) => event.event_id)).toEqual([
        `claim:${order.order_ref}`,
        `refund:${order.order_ref}`,
      ]);
    });

    it("a coupon refused at the callback: back to /register saying the payment is refunded, nothing created", async () => {
      const { google, stripe } = await parts();
      const last = await couponCatalogue(env().ctx.db).add({
        code: `LAST${unique("c").replaceAll("-", "").toUpperCase()}`,
        type: "dashboards.bonus",
        value: 2,
        max: 1,
      });
      const order = await paidCheckout({ dashboards: 3, interval: 1, coupons: [last.code] });
      const paid = stripe.sessions.get(order.order_ref);
      const email = `${unique("late")}@gmail.example`;
      google.profile = { sub: unique("g"), email, email_verified: true, name: "Late Payer" };
      const browser = env().client();
      const callback = await signUp(browser, { dashboards: 3, coupons: [last.code], ...order }, async () => {
        // Meanwhile someone registers with the form and takes the code's one redemption.
        const other = await env()
          .client()
          .register({ coupons: JSON.stringify([last.code]) });
        expect(other.response.statusCode, other.response.body).toBe(200);
      });
      expect(callback.headers.location).toBe("/register?social_error=coupon_refused&provider=google&payment=refunded");
      expect(socialAuthMessage("coupon_refused", "google", "refunded")).toBe(
        `A coupon of this sign-up can no longer be used, so no account was created. Check the coupons and sign up again. ${SOCIAL_PAYMENT_REFUNDED}`,
      );
      expect(browser.cookie("session")).toBeUndefined();
      expect(await companyOf(email)).toBeUndefined();
      expect(stripe.subscriptions.get(paid?.subscription as string)?.status).toBe("canceled");
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toHaveLength(1);
    });

    it("an order claimed by the form meanwhile is the other account's: no refund, and the page says none", async () => {
      const { google, stripe } = await parts();
      const order = await paidCheckout({ dashboards: 3, interval: 1 });
      const paid = stripe.sessions.get(order.order_ref);
      google.profile = {
        sub: unique("g"),
        email: `${unique("race")}@gmail.example`,
        email_verified: true,
        name: "Rae",
      };
      const callback = await signUp(env().client(), { dashboards: 3, ...order }, async () => {
        const other = await env()
          .client()
          .register({ dashboards: 3, ...order });
        expect(other.response.statusCode).toBe(200);
      });
      expect(callback.headers.location).toBe("/register?social_error=payment_refused&provider=google");
      expect(stripe.subscriptions.get(paid?.subscription as string)?.status).toBe("active");
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toEqual([]);
      expect((await eventsOf(order.order_ref)).map((event) => event.type)).toEqual(["checkout.session.claimed"]);
    });

    it("the user cancels at the provider after paying: back to /register, the payment refunded", async () => {
      const { stripe } = await parts();
      const order = await paidCheckout({ dashboards: 1, interval: 1 });
      const paid = stripe.sessions.get(order.order_ref);
      const browser = env().client();
      const started = await browser.raw("POST", "/register/google", {
        body: { ...CONSENTS, dashboards: 1, ...order },
        headers: XHR,
      });
      expect(started.statusCode, started.body).toBe(200);
      // The provider sends the browser back with OAuth's refusal instead of a code.
      const state = new URL(started.json().data.redirect).searchParams.get("state") as string;
      const callback = await browser.raw(
        "GET",
        `/auth/google/callback?${new URLSearchParams({ error: "access_denied", state })}`,
      );
      expect(callback.headers.location).toBe("/register?social_error=denied&provider=google&payment=refunded");
      expect(stripe.refunds.filter((refund) => refund.payment_intent === paid?.paymentIntent)).toHaveLength(1);
    });
  },
  fakes.env,
);

describe("socialAuthMessage with a refund", () => {
  it("adds the refund sentence only for payment=refunded", () => {
    expect(socialAuthMessage("denied", "google", "refunded")).toBe(
      `You did not allow Google to sign you in, so nothing changed. ${SOCIAL_PAYMENT_REFUNDED}`,
    );
    expect(socialAuthMessage("denied", "google", "other")).toBe(
      "You did not allow Google to sign you in, so nothing changed.",
    );
    expect(socialAuthNotice("<script>", "google")).toBeNull();
  });
});
