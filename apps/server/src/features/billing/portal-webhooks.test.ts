import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { stripeFake } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import type { Stripe } from "./stripe-client";

/**
 * Changes made in Stripe's billing portal reach us only as webhooks: each is applied and recorded in the
 * audit log with Stripe as the actor, in the transaction of the event it comes from; Stripe's echo of a
 * change made here records nothing twice.
 */
const fakes = fakesForFile(afterAll, () => ({ stripe: stripeFake() }));
const fake = async () => (await fakes.current()).parts.stripe;

/** The company's billing rows as [action, actor id, actor name, details], oldest first. */
async function billingRows(env: TestEnv, companyId: string) {
  const rows = await env.ctx.db
    .selectFrom("audit_events")
    .selectAll()
    .where("company_id", "=", companyId)
    .where("action", "like", "billing.%")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => [row.action, row.actor_id, row.actor_name, JSON.parse(row.details)]);
}

describeEachDb(
  "billing changes made in Stripe's portal, in the audit log",
  (env) => {
    const send = async (event: Stripe.Event) => {
      const answer = await postStripeEvent(env().app, (await fake()).signed(event));
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as { duplicate: boolean };
    };

    /** An admin with a paid monthly subscription of 10 dashboards; its Stripe subscription and customer. */
    async function subscribed() {
      const owner = await buildOwner(env());
      const created = await owner.client.api("POST", "/api/company/subscription", { dashboards: 10, interval: 1 });
      expect(created.statusCode, created.body).toBe(200);
      const stripe = await fake();
      const { completed, invoicePaid } = stripe.pay(String(created.json().data.checkout.payload).split("_secret_")[0]);
      await send(completed);
      await send(invoicePaid);
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === owner.company.id);
      if (!sub) throw new Error("no subscription");
      return { owner, stripe, sub };
    }

    const companyOf = async (client: TestClient) => (await client.api("GET", "/api/company")).json().data;

    it("cancel, resume, another quantity and interval, a new card: applied, each recorded once by Stripe", async () => {
      const { owner, stripe, sub } = await subscribed();
      const paid = await companyOf(owner.client);

      const cancel = stripe.portalUpdate(sub.id, { cancelAtPeriodEnd: true });
      expect(await send(cancel)).toMatchObject({ duplicate: false });
      expect(await companyOf(owner.client)).toMatchObject({ state: "canceled", expiresAt: paid.expiresAt });
      // Stripe delivers an event again: nothing changes, nothing is recorded twice.
      expect(await send(cancel)).toMatchObject({ duplicate: true });

      await send(stripe.portalUpdate(sub.id, { cancelAtPeriodEnd: false }));
      expect(await companyOf(owner.client)).toMatchObject({ state: "active", expiresAt: paid.expiresAt });

      await send(stripe.portalUpdate(sub.id, { quantity: 15, interval: "year" }));
      expect((await companyOf(owner.client)).services.dashboards).toBe(15);

      await send(stripe.portalChangeCard(sub.customer));

      expect(await billingRows(env(), owner.company.id)).toEqual([
        ["billing.canceled", null, "Stripe", {}],
        ["billing.resumed", null, "Stripe", {}],
        ["billing.plan_changed", null, "Stripe", { dashboards: 15, interval: 12 }],
        ["billing.card_changed", null, "Stripe", {}],
      ]);
      // The admin's page says who: Stripe, no member.
      const page = (await owner.client.api("GET", "/api/company/audit-log?action=billing")).json();
      const stripeActor = { id: null, name: "Stripe", email: "" };
      expect(
        page.data.map((event: { actor: unknown; description: string }) => [event.actor, event.description]),
      ).toEqual([
        [stripeActor, "changed the payment card"],
        [stripeActor, "changed the subscription to (dashboards: 15, interval: 12)"],
        [stripeActor, "resumed the subscription"],
        [stripeActor, "canceled the subscription"],
      ]);
    });

    it("Stripe's echo of a change made here (plan change, cancellation) records nothing more", async () => {
      const { owner, stripe, sub } = await subscribed();
      const changed = await owner.client.api("PUT", "/api/company/subscription", { dashboards: 12, interval: 1 });
      expect(changed.statusCode, changed.body).toBe(200);
      await send(stripe.portalUpdate(sub.id, { quantity: 12 }));
      const canceled = await owner.client.api("DELETE", "/api/company", { cancellation: { reason: "budget" } });
      expect(canceled.statusCode, canceled.body).toBe(200);
      await send(stripe.portalUpdate(sub.id, { cancelAtPeriodEnd: true }));
      expect(await billingRows(env(), owner.company.id)).toEqual([
        ["billing.plan_changed", owner.user.id, owner.user.name, { dashboards: 12, interval: 1 }],
        ["billing.canceled", owner.user.id, owner.user.name, {}],
      ]);
    });

    it("a failure in the event's transaction leaves neither the change nor its row", async () => {
      const { owner, stripe, sub } = await subscribed();
      const event = stripe.portalUpdate(sub.id, { cancelAtPeriodEnd: true });
      // The audit row's insert fails (its table refuses it): the cancellation must not stand alone.
      await env().ctx.db.schema.alterTable("audit_events").renameTo("audit_events_away").execute();
      try {
        const answer = await postStripeEvent(env().app, stripe.signed(event));
        expect(answer.statusCode).toBeGreaterThanOrEqual(500);
      } finally {
        await env().ctx.db.schema.alterTable("audit_events_away").renameTo("audit_events").execute();
      }
      expect((await companyOf(owner.client)).state).toBe("active");
      // Stripe retries: now both are written, once.
      expect(await send(event)).toMatchObject({ duplicate: false });
      expect((await companyOf(owner.client)).state).toBe("canceled");
      expect(await billingRows(env(), owner.company.id)).toEqual([["billing.canceled", null, "Stripe", {}]]);
    });
  },
  fakes.env,
);
