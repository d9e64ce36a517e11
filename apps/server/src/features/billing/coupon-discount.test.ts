import { couponKey, quote } from "@app/core";
import { afterAll, beforeEach, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { type FakeStripe, stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { newId } from "../../infra/security";
import { couponCatalogue } from "../coupons/catalogue";
import { DISCOUNT_SYNC_JOB, type TDiscountSync } from "./discounts";
import { stripeClient } from "./stripe-client";

const OPS = "ops-token-for-the-resync-test";
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

const define = async (env: TestEnv, type: string, value: number) =>
  (await couponCatalogue(env.ctx.db).add({ code: fresh("OFF"), type, value })).code;

/** The admin subscribes (POST, the embedded checkout) and pays: the Stripe subscription charging the company. */
async function subscribe(env: TestEnv, client: TestClient, companyId: string, dashboards: number, interval: 1 | 12) {
  const stripe = await fake();
  const created = await client.api("POST", "/api/company/subscription", { dashboards, interval });
  expect(created.statusCode, created.body).toBe(200);
  const sessionId = created.json().data.checkout.payload.split("_secret_")[0];
  const { completed, invoicePaid } = stripe.pay(sessionId);
  for (const event of [completed, invoicePaid]) await sendEvent(env, stripe, event);
  const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === companyId);
  if (!sub) throw new Error("no subscription");
  return { sub, session: stripe.sessions.get(sessionId), created: created.json().data };
}

/** What the subscription page's price says for the company's plan: core quote with its coupons and discount. */
async function pageTotal(client: TestClient): Promise<number> {
  const company = (await client.api("GET", "/api/company")).json().data;
  return quote({
    dashboards: company.services.dashboards,
    interval: company.subscription?.interval === 12 ? 12 : 1,
    discountPercent: company.discount,
    coupons: company.coupons,
  }).totalCents;
}

/** Stripe's own preview of the subscription's next invoice (what it will charge), through the official client. */
async function nextInvoiceCents(env: TestEnv, subscriptionId: string): Promise<number> {
  const client = stripeClient(env.ctx.config.stripe);
  if (!client) throw new Error("payments off");
  const preview = await client.invoices.createPreview({ subscription: subscriptionId });
  return preview.amount_due;
}

const ordersOf = (env: TestEnv, companyId: string) =>
  env.ctx.db
    .selectFrom("orders")
    .select(["amount_cents", "lines", "status"])
    .where("company_id", "=", companyId)
    .orderBy("sequence")
    .execute();

const stripeCalls = async (path: RegExp) =>
  (await fakes.current()).calls.filter((call) => call.method === "POST" && path.test(call.path));

/** docs/decisions.md "Coupons reach the Stripe subscription": what the page says is what the card is charged. */
describeEachDb(
  "billing: a coupon applied on the subscription page is charged",
  (env) => {
    beforeEach(async () => {
      (await fake()).failNext.splice(0);
    });

    it("20 % off 25 dashboards: the page says $200.00 a month and Stripe's next invoice charges $200.00", async () => {
      const { client, company } = await buildOwner(env());
      const { sub } = await subscribe(env(), client, company.id, 25, 1);
      expect(sub).toMatchObject({ quantity: 25, unitAmount: 1000, discounts: [] });
      expect(await nextInvoiceCents(env(), sub.id)).toBe(25_000);

      const code = await define(env(), "price.discount", 20);
      const applied = await client.api("POST", "/api/company/coupon", { coupon: code });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(await pageTotal(client)).toBe(20_000);

      // Stripe's subscription: the same item, one forever coupon of $50.00 off each invoice.
      expect(sub.quantity).toBe(25);
      expect(sub.unitAmount).toBe(1000);
      expect(sub.discounts).toHaveLength(1);
      expect(sub.discounts[0]?.coupon).toMatchObject({
        amount_off: 5000,
        currency: "usd",
        duration: "forever",
        name: `Coupon ${code}`,
      });
      // The period already paid is not prorated: the coupon counts from the next invoice.
      expect(sub.updates.at(-1)).toMatchObject({ proration_behavior: "none" });
      expect(await nextInvoiceCents(env(), sub.id)).toBe(20_000);
      // Both writes carried an Idempotency-Key.
      for (const call of [
        ...(await stripeCalls(/^\/v1\/coupons$/)),
        ...(await stripeCalls(new RegExp(`^/v1/subscriptions/${sub.id}$`))),
      ]) {
        expect(call.headers["idempotency-key"], call.path).toEqual(expect.any(String));
      }

      // The renewal: Stripe charges $200.00 and the invoice lists the coupon.
      const stripe = await fake();
      await sendEvent(env(), stripe, stripe.renew(sub.id));
      const orders = await ordersOf(env(), company.id);
      expect(orders.map((order) => order.amount_cents)).toEqual([25_000, 20_000]);
      const lines = JSON.parse(String(orders[1]?.lines)) as Array<{ description: string; amountCents: number }>;
      expect(lines.map((line) => [line.description, line.amountCents])).toEqual([
        ["Dashboards, monthly plan", 25_000],
        [`Coupon ${code} 20%`, -5000],
      ]);
    });

    it("applied again (the job, a retry after a lost answer): one discount, one coupon, the same next invoice", async () => {
      const { client, company } = await buildOwner(env());
      const { sub } = await subscribe(env(), client, company.id, 25, 1);
      const code = await define(env(), "price.discount", 20);
      expect((await client.api("POST", "/api/company/coupon", { coupon: code })).statusCode).toBe(200);
      const discounts = env().services.get("billing").discounts;
      const payload = { companyId: company.id, operation: `coupon:${couponKey(code)}` };
      for (const attempt of [0, 1, 2]) await discounts.retry(payload, attempt);
      const stripe = await fake();
      expect(sub.discounts).toHaveLength(1);
      expect([...stripe.coupons.values()].filter((c) => c.name === `Coupon ${code}`)).toHaveLength(1);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(20_000);
      // The same attempt again is Stripe's replay of its first answer, not a second update.
      const updates = sub.updates.length;
      await discounts.retry(payload, 2);
      expect(sub.updates.length).toBe(updates);
      expect(await pageTotal(client)).toBe(20_000);
    });

    it("Stripe down: the coupon holds, a job is queued, and its retry brings the subscription to the page's price", async () => {
      const { client, company } = await buildOwner(env());
      const { sub } = await subscribe(env(), client, company.id, 10, 12);
      const stripe = await fake();
      const code = await define(env(), "price.fixed", 150);
      const fault = {
        status: 500,
        body: { error: { type: "api_error", message: "Something went wrong" } },
        pathIncludes: `/v1/subscriptions/${sub.id}`,
      };
      // Twice: the client retries a 500 once.
      stripe.failNext.push(fault, { ...fault });
      const applied = await client.api("POST", "/api/company/coupon", { coupon: code });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json().applied).toEqual([code]);
      expect(sub.discounts).toEqual([]);
      const queued = (await env().ctx.jobs.list(DISCOUNT_SYNC_JOB, "waiting", 1000)).filter(
        (job) => (job.payload as TDiscountSync).companyId === company.id,
      );
      expect(queued.map((job) => job.payload)).toEqual([
        { companyId: company.id, operation: `coupon:${couponKey(code)}` },
      ]);
      await env()
        .services.get("billing")
        .discounts.job.handle(queued[0]?.payload as TDiscountSync, {
          jobId: "x",
          attempt: 2,
          signal: new AbortController().signal,
        });
      const expected = await pageTotal(client);
      expect(expected).toBe(
        quote({ dashboards: 10, interval: 12, coupons: [{ type: "price.fixed", value: 150 }] }).totalCents,
      );
      expect(sub.discounts).toHaveLength(1);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(expected);
    });

    it("a coupon applied during the trial: the checkout, its first charge and a later plan change all charge the page's total", async () => {
      const { client, company } = await buildOwner(env());
      const percent = await define(env(), "price.discount", 20);
      const fixed = await define(env(), "price.fixed", 100);
      for (const code of [percent, fixed]) {
        expect((await client.api("POST", "/api/company/coupon", { coupon: code })).statusCode).toBe(200);
      }
      const first = quote({
        dashboards: 30,
        interval: 12,
        coupons: [
          { type: "price.discount", value: 20 },
          { type: "price.fixed", value: 100 },
        ],
      });
      const { sub, session, created } = await subscribe(env(), client, company.id, 30, 12);
      expect(created.quote.totalCents).toBe(first.totalCents);
      // The checkout: the item before coupons, the coupons as its discount.
      expect(session?.params).toMatchObject({
        line_items: {
          0: { quantity: "30", price_data: { unit_amount: String(quote({ dashboards: 30, interval: 12 }).unitCents) } },
        },
        discounts: { 0: { coupon: expect.any(String) } },
      });
      expect(session?.amountPaid).toBe(first.totalCents);
      expect((await ordersOf(env(), company.id)).map((order) => order.amount_cents)).toEqual([first.totalCents]);
      expect(sub.discounts[0]?.coupon.name).toBe(`Coupons ${percent}, ${fixed}`);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(first.totalCents);

      const changed = await client.api("PUT", "/api/company/subscription", { dashboards: 12, interval: 1 });
      expect(changed.statusCode, changed.body).toBe(200);
      const total = await pageTotal(client);
      expect(changed.json().data.quote.totalCents).toBe(total);
      expect(sub.discounts).toHaveLength(1);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(total);
    });

    it("a subscription from before (the coupon in its item's price) is re-priced, not discounted twice", async () => {
      const { client, company } = await buildOwner(env());
      const { sub } = await subscribe(env(), client, company.id, 25, 1);
      // As the server used to bill a 10 % coupon: in the unit price, no discount.
      const old = await define(env(), "price.discount", 10);
      const stripe = await fake();
      const failing = {
        status: 500,
        body: { error: { type: "api_error", message: "down" } },
        pathIncludes: `/v1/subscriptions/${sub.id}`,
      };
      stripe.failNext.push(failing, { ...failing });
      expect((await client.api("POST", "/api/company/coupon", { coupon: old })).statusCode).toBe(200);
      sub.unitAmount = 900;
      expect(await nextInvoiceCents(env(), sub.id)).toBe(22_500);

      const more = await define(env(), "price.fixed", 50);
      expect((await client.api("POST", "/api/company/coupon", { coupon: more })).statusCode).toBe(200);
      expect(sub.unitAmount).toBe(1000);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(await pageTotal(client));
      expect(await pageTotal(client)).toBe(25 * (900 - 50));
    });

    it("a bonus-dashboards coupon changes no price: the subscription is not touched", async () => {
      const { client, company } = await buildOwner(env());
      const { sub } = await subscribe(env(), client, company.id, 5, 1);
      const updates = sub.updates.length;
      const bonus = await define(env(), "dashboards.bonus", 2);
      expect((await client.api("POST", "/api/company/coupon", { coupon: bonus })).statusCode).toBe(200);
      expect(sub.updates.length).toBe(updates);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(await pageTotal(client));
    });

    it("the operator's re-sync brings subscriptions priced outside the page (a coupon from before, a discount set in the database) to the page's total", async () => {
      const { client, company } = await buildOwner(env());
      const { sub } = await subscribe(env(), client, company.id, 25, 1);
      const stripe = await fake();
      // A coupon applied before coupons reached Stripe: in our records only (every update to Stripe fails).
      const code = await define(env(), "price.discount", 20);
      const down = {
        status: 500,
        body: { error: { type: "api_error", message: "down" } },
        pathIncludes: `/v1/subscriptions/${sub.id}`,
      };
      stripe.failNext.push(down, { ...down });
      expect((await client.api("POST", "/api/company/coupon", { coupon: code })).statusCode).toBe(200);
      // And an operator's discount set by hand in the database.
      await env().ctx.db.updateTable("companies").set({ discount: 10 }).where("id", "=", company.id).execute();
      expect(await nextInvoiceCents(env(), sub.id)).toBe(25_000);
      const page = await pageTotal(client);
      expect(page).toBe(
        quote({ dashboards: 25, interval: 1, discountPercent: 10, coupons: [{ type: "price.discount", value: 20 }] })
          .totalCents,
      );

      // Without the token, or with a wrong one, the endpoint does not exist.
      expect(
        (await env().app.inject({ method: "POST", url: "/ops/billing/resync-discounts", payload: {} })).statusCode,
      ).toBe(404);
      const ask = (payload: object, token = OPS) =>
        env().app.inject({
          method: "POST",
          url: "/ops/billing/resync-discounts",
          headers: { authorization: `Bearer ${token}` },
          payload,
        });
      expect((await ask({}, "wrong")).statusCode).toBe(404);
      expect((await ask({ companyId: 5 })).statusCode).toBe(422);

      const before = (await env().ctx.jobs.list(DISCOUNT_SYNC_JOB, "waiting", 1000)).length;
      const answer = await ask({ companyId: company.id });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().data).toEqual({ queued: 1 });
      const queued = (await env().ctx.jobs.list(DISCOUNT_SYNC_JOB, "waiting", 1000)).filter(
        (job) =>
          (job.payload as TDiscountSync).companyId === company.id &&
          /^resync:/.test((job.payload as TDiscountSync).operation),
      );
      expect(queued).toHaveLength(1);
      const firstOperation = (queued[0]?.payload as TDiscountSync | undefined)?.operation;
      await env()
        .services.get("billing")
        .discounts.job.handle(queued[0]?.payload as TDiscountSync, {
          jobId: "x",
          attempt: 1,
          signal: new AbortController().signal,
        });
      expect(await nextInvoiceCents(env(), sub.id)).toBe(page);

      // Every charging company at once; a second call queues again (its own operation), and changes nothing.
      const all = await ask({});
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json().data.queued).toBeGreaterThanOrEqual(1);
      expect((await env().ctx.jobs.list(DISCOUNT_SYNC_JOB, "waiting", 1000)).length).toBeGreaterThan(before + 1);
      const again = (await env().ctx.jobs.list(DISCOUNT_SYNC_JOB, "waiting", 1000)).filter(
        (job) =>
          (job.payload as TDiscountSync).companyId === company.id &&
          (job.payload as TDiscountSync).operation.startsWith("resync:") &&
          (job.payload as TDiscountSync).operation !== firstOperation,
      );
      expect(again).toHaveLength(1);
      for (const job of again) {
        await env()
          .services.get("billing")
          .discounts.job.handle(job.payload as TDiscountSync, {
            jobId: "y",
            attempt: 1,
            signal: new AbortController().signal,
          });
      }
      expect(sub.discounts).toHaveLength(1);
      expect(await nextInvoiceCents(env(), sub.id)).toBe(page);
    });
  },
  async () => ({ ...(await fakes.env()), OPS_TOKEN: OPS }),
);
