import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatMoney, orderPeriod, quote } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner, buildUser, signIn } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { stripeEvent, stripeFake, stripeInvoice } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { newId } from "../../infra/security";
import { couponCatalogue } from "../coupons/catalogue";
import { invoiceLines } from "./invoice-document";

const fakes = fakesForFile(afterAll, () => ({ stripe: stripeFake() }));
const fake = async () => (await fakes.current()).parts.stripe;

/** The text of a PDF as a reader's copy-paste would give it (poppler's pdftotext). */
function pdfText(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "invoice-")), "invoice.pdf");
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

async function sendWebhook(env: TestEnv, signed: { payload: string; header: string }) {
  const answer = await postStripeEvent(env.app, signed);
  expect(answer.statusCode, answer.body).toBe(200);
}

/** The admin subscribes and pays in the fake checkout; then Stripe's renewal charge fails. */
async function paidThenFailed(env: TestEnv, client: TestClient, companyId: string) {
  const stripe = await fake();
  const created = await client.api("POST", "/api/company/subscription", { dashboards: 12, interval: 1 });
  expect(created.statusCode, created.body).toBe(200);
  const { completed, invoicePaid } = stripe.pay(created.json().data.checkout.payload.split("_secret_")[0]);
  for (const event of [completed, invoicePaid]) await sendWebhook(env, stripe.signed(event));
  const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === companyId);
  await sendWebhook(env, stripe.signed(stripe.failInvoice(sub?.id ?? "")));
}

/** The stored lines of the company's orders, oldest first. */
async function storedLines(env: TestEnv, companyId: string) {
  const rows = await env.ctx.db
    .selectFrom("orders")
    .select(["id", "lines", "amount_cents"])
    .where("company_id", "=", companyId)
    .orderBy("sequence")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    amountCents: row.amount_cents,
    lines: row.lines ? (JSON.parse(row.lines) as Array<{ description: string; amountCents: number }>) : null,
  }));
}

const sum = (lines: Array<{ amountCents: number }>) => lines.reduce((total, line) => total + line.amountCents, 0);

describeEachDb(
  "invoices: the company's orders and their PDFs",
  (env) => {
    it("an annual plan with the company's discount and a coupon: the PDF lists the list price and each discount by name, adding up to the total; an older order keeps the plan and one discount line", async () => {
      const { client, company } = await buildOwner(env(), { company: { name: "Lines Agency" } });
      // The operator's discount for this agency (docs/product.md §3 `discount`).
      await env().ctx.db.updateTable("companies").set({ discount: 5 }).where("id", "=", company.id).execute();
      const code = `SPRING${newId(6)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, "X")}`;
      await couponCatalogue(env().ctx.db).add({ code, type: "price.discount", value: 10 });
      expect((await client.api("POST", "/api/company/coupon", { coupon: code })).statusCode).toBe(200);
      const stripe = await fake();
      const created = await client.api("POST", "/api/company/subscription", { dashboards: 12, interval: 12 });
      expect(created.statusCode, created.body).toBe(200);
      const { completed, invoicePaid } = stripe.pay(created.json().data.checkout.payload.split("_secret_")[0]);
      for (const event of [completed, invoicePaid]) await sendWebhook(env(), stripe.signed(event));

      const q = quote({
        dashboards: 12,
        interval: 12,
        discountPercent: 5,
        coupons: [{ type: "price.discount", value: 10 }],
      });
      const step = (source: string) => q.adjustments.find((a) => a.source === source)?.amountCents ?? 0;
      const expected = [
        ["Dashboards, yearly plan", 12 * q.listUnitCents],
        ["Annual plan discount (20%)", -12 * step("annual")],
        ["Company discount (5%)", -12 * step("company")],
        [`Coupon ${code} 10%`, -12 * step("price.discount")],
      ] as const;
      const [stored] = await storedLines(env(), company.id);
      expect(stored?.lines?.map((line) => [line.description, line.amountCents])).toEqual(expected);
      expect(sum(stored?.lines ?? [])).toBe(q.totalCents);
      expect(stored?.amountCents).toBe(q.totalCents);

      const [order] = (await client.api("GET", "/api/orders")).json().data;
      const text = pdfText((await client.raw("GET", `/api/orders/${order.id}/pdf`)).rawPayload);
      for (const [description, cents] of expected) {
        // One row each: its words, then its amount on the same line.
        const row = text.split("\n").find((line) => line.includes(description));
        expect(row, description).toBeDefined();
        expect(row).toContain(formatMoney(cents, "USD"));
      }
      expect(text).toContain(formatMoney(q.totalCents, "USD"));

      // An order recorded before its lines were stored renders as it always did.
      await env().ctx.db.updateTable("orders").set({ lines: null }).where("id", "=", order.id).execute();
      const older = pdfText((await client.raw("GET", `/api/orders/${order.id}/pdf`)).rawPayload);
      expect(older).toContain("Discount");
      expect(older).toContain(formatMoney(12 * q.listUnitCents, "USD"));
      expect(older).toContain(formatMoney(q.totalCents - 12 * q.listUnitCents, "USD"));
      expect(older).not.toContain(code);
    });

    it("a prorated plan change: the invoice lists Stripe's own lines, and they add up to what was charged", async () => {
      const { client, company } = await buildOwner(env());
      const stripe = await fake();
      const created = await client.api("POST", "/api/company/subscription", { dashboards: 5, interval: 1 });
      const { completed, invoicePaid } = stripe.pay(created.json().data.checkout.payload.split("_secret_")[0]);
      for (const event of [completed, invoicePaid]) await sendWebhook(env(), stripe.signed(event));
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      if (!sub) throw new Error("no subscription");
      // Stripe's invoice for going from 5 to 8 dashboards mid-period: the unused time back, the rest charged.
      const invoice = stripeInvoice(`in_${newId(8)}`, `il_${newId(8)}`, { ...sub, subscription: sub.id }, true);
      const unused = {
        ...invoice.lines.data[0],
        id: `il_${newId(8)}`,
        amount: -3750,
        quantity: 5,
        description: "Unused time on 5 × Dashboards after 16 Dec 2026",
      };
      const remaining = {
        ...invoice.lines.data[0],
        id: `il_${newId(8)}`,
        amount: 6000,
        quantity: 8,
        description: "Remaining time on 8 × Dashboards after 16 Dec 2026",
      };
      const prorated = {
        ...invoice,
        amount_paid: 2250,
        amount_due: 2250,
        total: 2250,
        lines: { ...invoice.lines, data: [unused, remaining] },
      };
      await sendWebhook(env(), stripe.signed(stripeEvent(`evt_${newId(8)}`, "invoice.paid", prorated)));

      const stored = (await storedLines(env(), company.id)).at(-1);
      expect(stored?.lines?.map((line) => line.amountCents)).toEqual([-3750, 6000]);
      expect(sum(stored?.lines ?? [])).toBe(2250);
      const orders = (await client.api("GET", "/api/orders")).json().data;
      const text = pdfText((await client.raw("GET", `/api/orders/${orders[0].id}/pdf`)).rawPayload);
      for (const expected of [unused.description, remaining.description, "-$37.50", "$60.00", "$22.50"]) {
        expect(text).toContain(expected);
      }
    });

    it("lists the paid and the failed invoice newest first, scoped to the company; the PDF shows number, buyer, seller, period and amount", async () => {
      const { client, company } = await buildOwner(env(), { company: { name: "Acme Agency" } });
      const details = await client.api("POST", "/api/company", {
        billing_address: "12 Harbour Road\nBristol BS1 4QA\nUnited Kingdom",
        vat_id: "GB 123 4567 89",
      });
      expect(details.statusCode, details.body).toBe(200);
      expect(details.json().data).toMatchObject({
        billingAddress: "12 Harbour Road\nBristol BS1 4QA\nUnited Kingdom",
        vatId: "GB 123 4567 89",
      });
      // Another company's orders never show here.
      const other = await buildOwner(env(), { company: { name: "Other Agency" } });
      await paidThenFailed(env(), other.client, other.company.id);
      await paidThenFailed(env(), client, company.id);

      const listed = await client.api("GET", "/api/orders");
      expect(listed.statusCode).toBe(200);
      const orders = listed.json().data;
      const amount = 12 * quote({ dashboards: 12, interval: 1 }).unitCents;
      expect(orders).toHaveLength(2);
      expect(orders.map((o: { status: string }) => o.status)).toEqual(["failed", "paid"]);
      expect(orders[1]).toMatchObject({ dashboards: 12, interval: 1, amountCents: amount, currency: "USD" });
      expect(orders[0].number > orders[1].number).toBe(true);
      for (const order of orders) {
        expect(order.number).toMatch(/^INV-\d{4}-\d{6}$/);
        expect(order.periodStart && order.periodEnd).toBeTruthy();
      }

      const paid = orders[1];
      const pdf = await client.raw("GET", `/api/orders/${paid.id}/pdf`);
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(pdf.headers["content-type"]).toBe("application/pdf");
      expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="${paid.number}.pdf"`);
      const text = pdfText(pdf.rawPayload);
      for (const expected of [
        "Invoice",
        paid.number,
        "Paid",
        "Acme Agency",
        "12 Harbour Road",
        "VAT ID: GB 123 4567 89",
        "Seller Ltd",
        "1 Main Street",
        "VAT ID: GB999",
        orderPeriod(paid.periodStart, paid.periodEnd),
        formatMoney(amount, "USD"),
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain("Other Agency");
      const failedText = pdfText((await client.raw("GET", `/api/orders/${orders[0].id}/pdf`)).rawPayload);
      expect(failedText).toContain("Payment failed");
      expect(failedText).toContain(orders[0].number);
    });

    it("another company's invoice is a 404, members get 403, a company without orders an empty list", async () => {
      const { client, company } = await buildOwner(env());
      expect((await client.api("GET", "/api/orders")).json()).toEqual({ data: [] });
      const other = await buildOwner(env());
      await paidThenFailed(env(), other.client, other.company.id);
      const [theirs] = (await other.client.api("GET", "/api/orders")).json().data;
      expect((await client.raw("GET", `/api/orders/${theirs.id}/pdf`)).statusCode).toBe(404);
      expect((await client.raw("GET", "/api/orders/no-such-order/pdf")).statusCode).toBe(404);
      const member = await signIn(env(), await buildUser(env(), { company, role: "user" }));
      expect((await member.api("GET", "/api/orders")).statusCode).toBe(403);
      const theirMember = await signIn(env(), await buildUser(env(), { company: other.company, role: "user" }));
      expect((await theirMember.raw("GET", `/api/orders/${theirs.id}/pdf`)).statusCode).toBe(403);
    });

    it("refuses a bad VAT ID or a too long billing address per field, and keeps what was saved", async () => {
      const { client } = await buildOwner(env());
      await client.api("POST", "/api/company", { vat_id: "DE123456789" });
      const bad = await client.api("POST", "/api/company", { vat_id: "DE<123>", billing_address: "x".repeat(501) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        vat_id: ["The VAT ID may only contain letters, digits, spaces, dots, dashes and slashes."],
        billing_address: ["The billing address may not be greater than 500 characters."],
      });
      expect((await client.api("GET", "/api/company")).json().data.vatId).toBe("DE123456789");
      // Emptied, they are gone.
      const cleared = await client.api("POST", "/api/company", { vat_id: "", billing_address: "" });
      expect(cleared.json().data).toMatchObject({ vatId: null, billingAddress: null });
    });
  },
  async () => ({
    ...(await fakes.env()),
    INVOICE_SELLER_NAME: "Seller Ltd",
    INVOICE_SELLER_ADDRESS: "1 Main Street|London N1 1AA",
    INVOICE_SELLER_VAT_ID: "GB999",
  }),
);

describe("invoice lines", () => {
  const order = (amountCents: number, dashboards = 10, interval = 1, currency = "USD") => ({
    id: "o",
    number: "INV-2026-000001",
    date: "2026-11-26T10:00:00.000Z",
    periodStart: null,
    periodEnd: null,
    dashboards,
    interval,
    amountCents,
    currency,
    status: "paid" as const,
  });
  const list = (dashboards: number, interval: 1 | 12) => quote({ dashboards, interval }).listUnitCents;
  it.each([
    ["list price: one line", order(10 * list(10, 1)), [10 * list(10, 1)]],
    [
      "annual plan: list price, then the discount",
      order(quote({ dashboards: 10, interval: 12 }).totalCents, 10, 12),
      [10 * list(10, 12), quote({ dashboards: 10, interval: 12 }).totalCents - 10 * list(10, 12)],
    ],
    ["above the list price (prorated): as charged", order(10 * list(10, 1) + 500), [10 * list(10, 1) + 500]],
    ["another currency: as charged", order(1234, 10, 1, "EUR"), [1234]],
  ])("%s", (_name, input, amounts) => {
    const lines = invoiceLines(input);
    expect(lines.map((line) => line.amountCents)).toEqual(amounts);
    expect(lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(input.amountCents);
  });
});
