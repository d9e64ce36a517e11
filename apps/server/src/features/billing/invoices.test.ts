import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BILLING_MESSAGES, formatMoney, orderPeriod, quote, REVERSE_CHARGE_NOTE } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner, buildUser, signIn } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { AUTOMATIC_TAX_RATES, stripeEvent, stripeFake, stripeInvoice } from "../../../test/fakes/stripe";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { postStripeEvent } from "../../../test/stripe-webhook";
import { newId } from "../../infra/security";
import { couponCatalogue } from "../coupons/catalogue";
import { invoiceHtml, invoiceLines } from "./invoice-document";

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

/** The admin subscribes to `dashboards` monthly and pays in the fake checkout; its webhooks arrive. */
async function subscribeAndPay(env: TestEnv, client: TestClient, dashboards: number) {
  const stripe = await fake();
  const created = await client.api("POST", "/api/company/subscription", { dashboards, interval: 1 });
  expect(created.statusCode, created.body).toBe(200);
  const { completed, invoicePaid } = stripe.pay(created.json().data.checkout.payload.split("_secret_")[0]);
  for (const event of [completed, invoicePaid]) await sendWebhook(env, stripe.signed(event));
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
      const details = await client.api("PUT", "/api/company/billing-details", {
        name: "Acme Agency Ltd",
        address: "12 Harbour Road\nUnit 4",
        postal_code: "BS1 4QA",
        city: "Bristol",
        country: "gb",
        vat_id: "GB 123 4567 89",
      });
      expect(details.statusCode, details.body).toBe(200);
      expect(details.json().data.billingDetails).toEqual({
        name: "Acme Agency Ltd",
        address: "12 Harbour Road\nUnit 4",
        postalCode: "BS1 4QA",
        city: "Bristol",
        country: "GB",
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
        "Acme Agency Ltd",
        "12 Harbour Road",
        "Unit 4",
        "Bristol BS1 4QA",
        "United Kingdom",
        "VAT ID: GB 123 4567 89",
        "Seller Ltd",
        "1 Main Street",
        "Dublin D02 X285",
        "VAT ID: IE1234567WA",
        orderPeriod(paid.periodStart, paid.periodEnd),
        formatMoney(amount, "USD"),
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain("Other Agency");
      // Outside the EU: no reverse charge, and no tax was computed.
      expect(text).not.toContain("Reverse charge");
      expect(text).toMatch(new RegExp(`Subtotal\\s+\\${formatMoney(amount, "USD")}`));
      const failedText = pdfText((await client.raw("GET", `/api/orders/${orders[0].id}/pdf`)).rawPayload);
      expect(failedText).toContain("Payment failed");
      expect(failedText).toContain(orders[0].number);
    });

    it("an issued invoice never changes: new billing details reach the next invoice, not the one issued; an order recorded before the parties were stored prints the current ones", async () => {
      const { client, company } = await buildOwner(env(), { company: { name: "Frozen Agency" } });
      const first = {
        name: "Frozen Agency Ltd",
        address: "12 Harbour Road",
        postal_code: "BS1 4QA",
        city: "Bristol",
        country: "GB",
        vat_id: "GB123456789",
      };
      expect((await client.api("PUT", "/api/company/billing-details", first)).statusCode).toBe(200);
      await subscribeAndPay(env(), client, 5);
      const [issued] = (await client.api("GET", "/api/orders")).json().data;
      const pdfOf = async (orderId: string) =>
        pdfText((await client.raw("GET", `/api/orders/${orderId}/pdf`)).rawPayload);
      const before = await pdfOf(issued.id);
      for (const words of ["Frozen Agency Ltd", "12 Harbour Road", "Bristol BS1 4QA", "VAT ID: GB123456789"]) {
        expect(before).toContain(words);
      }

      const moved = await client.api("PUT", "/api/company/billing-details", {
        name: "Frozen Agency GmbH",
        address: "Hauptstraße 5",
        postal_code: "10115",
        city: "Berlin",
        country: "DE",
        vat_id: "DE123456789",
      });
      expect(moved.statusCode, moved.body).toBe(200);
      // The invoice issued reads as it did, byte for byte in its text.
      expect(await pdfOf(issued.id)).toBe(before);

      // The next charge is issued to the new details, with the reverse-charge note (seller in Ireland).
      const stripe = await fake();
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      await sendWebhook(env(), stripe.signed(stripe.renew(sub?.id ?? "")));
      const orders = (await client.api("GET", "/api/orders")).json().data;
      expect(orders).toHaveLength(2);
      const next = await pdfOf(orders[0].id);
      for (const words of ["Frozen Agency GmbH", "Hauptstraße 5", "10115 Berlin", "Germany", "VAT ID: DE123456789"]) {
        expect(next).toContain(words);
      }
      expect(next).not.toContain("Bristol");
      expect(next.replace(/\s+/g, " ")).toContain(REVERSE_CHARGE_NOTE);
      expect(await pdfOf(issued.id)).not.toContain("Hauptstraße");

      // What was stored with the order.
      const row = await env()
        .ctx.db.selectFrom("orders")
        .select(["seller_party", "buyer_party", "reverse_charge"])
        .where("id", "=", issued.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.buyer_party ?? "null")).toEqual({
        name: "Frozen Agency Ltd",
        addressLines: ["12 Harbour Road", "Bristol BS1 4QA", "United Kingdom"],
        vatId: "GB123456789",
        country: "GB",
      });
      expect(JSON.parse(row.seller_party ?? "null")).toMatchObject({ name: "Seller Ltd", country: "IE" });
      expect(Number(row.reverse_charge)).toBe(0);

      // An order recorded before the parties were stored: printed from the details as they are now.
      await env()
        .ctx.db.updateTable("orders")
        .set({ seller_party: null, buyer_party: null, reverse_charge: null })
        .where("id", "=", issued.id)
        .execute();
      const legacy = await pdfOf(issued.id);
      expect(legacy).toContain("Frozen Agency GmbH");
      expect(legacy).toContain("Seller Ltd");
    });

    it("without STRIPE_AUTOMATIC_TAX the checkout and a plan change ask Stripe for no tax", async () => {
      const { client, company } = await buildOwner(env(), { company: { name: "Plain Agency" } });
      const stripe = await fake();
      const created = await client.api("POST", "/api/company/subscription", { dashboards: 5, interval: 1 });
      expect(created.statusCode, created.body).toBe(200);
      const sessionId = created.json().data.checkout.payload.split("_secret_")[0];
      const params = stripe.sessions.get(sessionId)?.params ?? {};
      expect(params.mode).toBe("subscription");
      expect(params).not.toHaveProperty("automatic_tax");
      expect(params).not.toHaveProperty("customer_update");
      const { completed, invoicePaid } = stripe.pay(sessionId);
      for (const event of [completed, invoicePaid]) await sendWebhook(env(), stripe.signed(event));
      const changed = await client.api("PUT", "/api/company/subscription", { dashboards: 7, interval: 1 });
      expect(changed.statusCode, changed.body).toBe(200);
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === company.id);
      expect(sub?.updates.at(-1)).toMatchObject({ items: { 0: { quantity: "7" } } });
      expect(sub?.updates.at(-1)).not.toHaveProperty("automatic_tax");
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

    it("billing details: a 422 per bad field keeps what was saved and the rest of the company; empty fields clear them", async () => {
      const { client, company: owned } = await buildOwner(env(), { company: { name: "Keep Agency" } });
      expect((await client.api("POST", "/api/company", { phone: "+44 117 496 0000" })).statusCode).toBe(200);
      const good = {
        name: "Keep Agency GmbH",
        address: "Hauptstraße 5",
        postal_code: "10115",
        city: "Berlin",
        country: "DE",
        vat_id: "de 123.456.789",
      };
      const saved = await client.api("PUT", "/api/company/billing-details", good);
      expect(saved.statusCode, saved.body).toBe(200);
      // Stored as the check wrote it.
      expect(saved.json().data.billingDetails.vatId).toBe("DE123456789");

      const bad = await client.api("PUT", "/api/company/billing-details", {
        name: "x".repeat(201),
        address: "1\n2\n3\n4",
        postal_code: "10<115>",
        city: "Berlin",
        country: "DE",
        vat_id: "DE12345",
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        name: ["The billing name may not be greater than 200 characters."],
        address: ["The address may have at most 3 lines."],
        postal_code: ["The postal code may only contain letters, digits, spaces and dashes."],
        vat_id: ["Germany VAT numbers are written like DE123456789."],
      });
      const wrongCountry = await client.api("PUT", "/api/company/billing-details", {
        ...good,
        country: "XX",
        vat_id: "",
      });
      expect(wrongCountry.json().errors).toEqual({ country: ["Choose a country from the list."] });
      const noCountry = await client.api("PUT", "/api/company/billing-details", { ...good, country: "" });
      expect(noCountry.json().errors).toEqual({ country: ["Choose the country of this address."] });
      const greek = await client.api("PUT", "/api/company/billing-details", { ...good, country: "GR" });
      expect(greek.json().errors).toEqual({ vat_id: ["Greece VAT numbers start with EL, e.g. EL123456789."] });
      const unknownField = await client.api("PUT", "/api/company/billing-details", { ...good, iban: "DE00" });
      expect(unknownField.json().errors).toEqual({ iban: ["The iban field is not allowed."] });

      // Nothing was lost: the details as saved, the company's own fields untouched.
      const company = (await client.api("GET", "/api/company")).json().data;
      expect(company).toMatchObject({
        name: "Keep Agency",
        phone: "+44 117 496 0000",
        billingDetails: { name: "Keep Agency GmbH", city: "Berlin", country: "DE", vatId: "DE123456789" },
      });
      // Emptied, they are gone.
      const cleared = await client.api("PUT", "/api/company/billing-details", {});
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().data.billingDetails).toEqual({
        name: null,
        address: null,
        postalCode: null,
        city: null,
        country: null,
        vatId: null,
      });
      // Members may not change them.
      const member = await signIn(env(), await buildUser(env(), { company: owned, role: "user" }));
      expect((await member.api("PUT", "/api/company/billing-details", good)).statusCode).toBe(403);
    });

    it("billing details reach the Stripe customer: with the checkout before the first payment, then on each save (a new VAT number replaces the old)", async () => {
      const { client, company } = await buildOwner(env(), { company: { name: "Sync Agency" } });
      const stripe = await fake();
      const details = {
        name: "Sync Agency BV",
        address: "Keizersgracht 1\n2nd floor",
        postal_code: "1015 CJ",
        city: "Amsterdam",
        country: "NL",
        vat_id: "NL123456789B01",
      };
      expect((await client.api("PUT", "/api/company/billing-details", details)).statusCode).toBe(200);
      const created = await client.api("POST", "/api/company/subscription", { dashboards: 5, interval: 1 });
      expect(created.statusCode, created.body).toBe(200);
      const sessionId = created.json().data.checkout.payload.split("_secret_")[0];
      const customerId = String(stripe.sessions.get(sessionId)?.params.customer);
      const customer = stripe.customers.get(customerId);
      expect(customer).toMatchObject({
        name: "Sync Agency BV",
        address: {
          line1: "Keizersgracht 1",
          line2: "2nd floor",
          postal_code: "1015 CJ",
          city: "Amsterdam",
          country: "NL",
        },
        // Seller in Ireland with the reverse charge on: a Dutch business pays no Irish VAT.
        tax_exempt: "reverse",
        metadata: { company_id: company.id },
      });
      expect(customer?.taxIds.map(({ type, value }) => ({ type, value }))).toEqual([
        { type: "eu_vat", value: "NL123456789B01" },
      ]);
      const { completed, invoicePaid } = stripe.pay(sessionId);
      for (const event of [completed, invoicePaid]) await sendWebhook(env(), stripe.signed(event));
      expect((await client.api("GET", "/api/company")).json().data.state).toBe("active");

      // Moved to Dublin (the seller's country): Irish VAT applies again; the Dutch number is gone.
      const moved = await client.api("PUT", "/api/company/billing-details", {
        ...details,
        address: "1 Grand Canal Square",
        postal_code: "D02 P820",
        city: "Dublin",
        country: "IE",
        vat_id: "IE 1234567 WA",
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(stripe.customers.get(customerId)).toMatchObject({
        address: { line1: "1 Grand Canal Square", line2: "", postal_code: "D02 P820", city: "Dublin", country: "IE" },
        tax_exempt: "none",
      });
      expect(stripe.customers.get(customerId)?.taxIds.map(({ type, value }) => ({ type, value }))).toEqual([
        { type: "eu_vat", value: "IE1234567WA" },
      ]);
      // A number Stripe refuses is a 422 on the field, and nothing is saved.
      const refused = await client.api("PUT", "/api/company/billing-details", {
        ...details,
        country: "GB",
        vat_id: "GB 12",
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ vat_id: [BILLING_MESSAGES.taxIdRefused] });
      expect((await client.api("GET", "/api/company")).json().data.billingDetails.country).toBe("IE");
    });

    it("Stripe's tax on a paid invoice: the PDF shows subtotal, the VAT line with its rate and the total; an EU business in another member state gets the reverse-charge note and no VAT line", async () => {
      const stripe = await fake();
      const rate = stripe.addTaxRate({
        display_name: "VAT",
        percentage: 23,
        jurisdiction: "IE",
        country: "IE",
        inclusive: false,
      });
      stripe.chargeTax = rate.id;
      try {
        const irish = await buildOwner(env(), { company: { name: "Dublin Agency" } });
        await irish.client.api("PUT", "/api/company/billing-details", {
          name: "Dublin Agency Ltd",
          address: "5 Dame Street",
          postal_code: "D02 HX65",
          city: "Dublin",
          country: "IE",
          vat_id: "IE9876543W",
        });
        const net = 10 * quote({ dashboards: 10, interval: 1 }).unitCents;
        const vat = Math.round(net * 0.23);
        await subscribeAndPay(env(), irish.client, 10);
        const [order] = (await irish.client.api("GET", "/api/orders")).json().data;
        expect(order.amountCents).toBe(net + vat);
        const rows = await env()
          .ctx.db.selectFrom("orders")
          .select(["tax_lines", "lines"])
          .where("id", "=", order.id)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(rows.tax_lines ?? "null")).toEqual([
          { name: "VAT", percent: 23, jurisdiction: "IE", amountCents: vat, taxableCents: net, inclusive: false },
        ]);
        // The lines add up to the subtotal, before the tax.
        expect(sum(JSON.parse(rows.lines ?? "[]"))).toBe(net);
        const text = pdfText((await irish.client.raw("GET", `/api/orders/${order.id}/pdf`)).rawPayload);
        const row = (words: string) => text.split("\n").find((line) => line.includes(words)) ?? "";
        expect(row("Subtotal")).toContain(formatMoney(net, "USD"));
        expect(row("VAT 23% (IE)")).toContain(`on ${formatMoney(net, "USD")}`);
        expect(row("VAT 23% (IE)")).toContain(formatMoney(vat, "USD"));
        expect(row("Total (USD)")).toContain(formatMoney(net + vat, "USD"));
        expect(text).toContain("Dublin Agency Ltd");
        expect(text).toContain("VAT ID: IE9876543W");
        expect(text).toContain("Dublin D02 HX65");
        expect(text).not.toContain("Reverse charge");

        // A German business: Stripe charges no VAT (reverse), the invoice says who accounts for it.
        const german = await buildOwner(env(), { company: { name: "Berlin Agency" } });
        await german.client.api("PUT", "/api/company/billing-details", {
          name: "Berlin Agency GmbH",
          address: "Hauptstraße 5",
          postal_code: "10115",
          city: "Berlin",
          country: "DE",
          vat_id: "DE123456789",
        });
        await subscribeAndPay(env(), german.client, 10);
        const [theirs] = (await german.client.api("GET", "/api/orders")).json().data;
        expect(theirs.amountCents).toBe(net);
        const reverse = pdfText((await german.client.raw("GET", `/api/orders/${theirs.id}/pdf`)).rawPayload);
        expect(reverse.replace(/\s+/g, " ")).toContain(REVERSE_CHARGE_NOTE);
        expect(reverse).not.toContain("VAT 23%");
        expect(reverse).toContain("Berlin Agency GmbH");
        expect(reverse).toContain("10115 Berlin");
        expect(reverse).toContain("Germany");
        expect(reverse).toContain("VAT ID: DE123456789");
        expect(reverse.split("\n").find((line) => line.includes("Total (USD)"))).toContain(formatMoney(net, "USD"));

        // Without a VAT number it is a consumer: no note on an invoice printed from these details (an
        // order recorded before the parties were stored); the invoice issued keeps its note.
        await german.client.api("PUT", "/api/company/billing-details", {
          name: "Berlin Agency GmbH",
          country: "DE",
        });
        const issued = pdfText((await german.client.raw("GET", `/api/orders/${theirs.id}/pdf`)).rawPayload);
        expect(issued.replace(/\s+/g, " ")).toContain(REVERSE_CHARGE_NOTE);
        await env()
          .ctx.db.updateTable("orders")
          .set({ seller_party: null, buyer_party: null, reverse_charge: null })
          .where("id", "=", theirs.id)
          .execute();
        const consumer = pdfText((await german.client.raw("GET", `/api/orders/${theirs.id}/pdf`)).rawPayload);
        expect(consumer).not.toContain("Reverse charge");
      } finally {
        stripe.chargeTax = null;
      }
    });
  },
  async () => ({
    ...(await fakes.env()),
    INVOICE_SELLER_NAME: "Seller Ltd",
    INVOICE_SELLER_ADDRESS: "1 Main Street|Dublin D02 X285|Ireland",
    INVOICE_SELLER_VAT_ID: "IE1234567WA",
    INVOICE_SELLER_COUNTRY: "IE",
    INVOICE_REVERSE_CHARGE: "true",
  }),
);

describeEachDb(
  "invoices: tax Stripe computes (STRIPE_AUTOMATIC_TAX)",
  (env) => {
    it("the checkout asks Stripe Tax and saves the typed address on the customer; an Irish customer's paid invoice stores and prints the VAT Stripe computed; a plan change keeps it; an EU business elsewhere pays none", async () => {
      const stripe = await fake();
      const irish = await buildOwner(env(), { company: { name: "Galway Agency" } });
      const saved = await irish.client.api("PUT", "/api/company/billing-details", {
        name: "Galway Agency Ltd",
        address: "3 Quay Street",
        postal_code: "H91 DX48",
        city: "Galway",
        country: "IE",
        vat_id: "IE1234567T",
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const created = await irish.client.api("POST", "/api/company/subscription", { dashboards: 10, interval: 1 });
      expect(created.statusCode, created.body).toBe(200);
      const sessionId = created.json().data.checkout.payload.split("_secret_")[0];
      expect(stripe.sessions.get(sessionId)?.params).toMatchObject({
        automatic_tax: { enabled: "true" },
        customer_update: { address: "auto", name: "auto" },
      });
      const { completed, invoicePaid } = stripe.pay(sessionId);
      for (const event of [completed, invoicePaid]) await sendWebhook(env(), stripe.signed(event));

      const net = 10 * quote({ dashboards: 10, interval: 1 }).unitCents;
      const vat = Math.round((net * AUTOMATIC_TAX_RATES.IE) / 100);
      const [order] = (await irish.client.api("GET", "/api/orders")).json().data;
      expect(order.amountCents).toBe(net + vat);
      const row = await env()
        .ctx.db.selectFrom("orders")
        .select(["tax_lines"])
        .where("id", "=", order.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.tax_lines ?? "null")).toEqual([
        { name: "VAT", percent: 23, jurisdiction: "IE", amountCents: vat, taxableCents: net, inclusive: false },
      ]);
      const text = pdfText((await irish.client.raw("GET", `/api/orders/${order.id}/pdf`)).rawPayload);
      const line = (words: string) => text.split("\n").find((one) => one.includes(words)) ?? "";
      expect(line("Subtotal")).toContain(formatMoney(net, "USD"));
      expect(line("VAT 23% (IE)")).toContain(formatMoney(vat, "USD"));
      expect(line("Total (USD)")).toContain(formatMoney(net + vat, "USD"));

      // A plan change keeps Stripe Tax on the subscription, and its renewal is taxed the same way.
      const changed = await irish.client.api("PUT", "/api/company/subscription", { dashboards: 12, interval: 1 });
      expect(changed.statusCode, changed.body).toBe(200);
      const sub = [...stripe.subscriptions.values()].find((s) => s.metadata.company_id === irish.company.id);
      expect(sub?.updates.at(-1)).toMatchObject({ automatic_tax: { enabled: "true" } });
      expect(sub?.automaticTax).toBe(true);
      await sendWebhook(env(), stripe.signed(stripe.renew(sub?.id ?? "")));
      const [renewal] = (await irish.client.api("GET", "/api/orders")).json().data;
      const renewed = 12 * quote({ dashboards: 12, interval: 1 }).unitCents;
      expect(renewal.amountCents).toBe(renewed + Math.round((renewed * 23) / 100));

      // A German business (reverse charge): Stripe Tax charges no VAT, the invoice carries the note.
      const german = await buildOwner(env(), { company: { name: "Munich Agency" } });
      await german.client.api("PUT", "/api/company/billing-details", {
        name: "Munich Agency GmbH",
        address: "Marienplatz 1",
        postal_code: "80331",
        city: "München",
        country: "DE",
        vat_id: "DE123456789",
      });
      await subscribeAndPay(env(), german.client, 10);
      const [theirs] = (await german.client.api("GET", "/api/orders")).json().data;
      expect(theirs.amountCents).toBe(net);
      const reverse = pdfText((await german.client.raw("GET", `/api/orders/${theirs.id}/pdf`)).rawPayload);
      expect(reverse.replace(/\s+/g, " ")).toContain(REVERSE_CHARGE_NOTE);
      expect(reverse).not.toContain("VAT 19%");
    });

    it("a company without billing details (no Stripe customer yet) asks Stripe Tax without customer_update, which Stripe allows only with a customer", async () => {
      const stripe = await fake();
      const { client } = await buildOwner(env());
      const created = await client.api("POST", "/api/company/subscription", { dashboards: 5, interval: 1 });
      expect(created.statusCode, created.body).toBe(200);
      const params = stripe.sessions.get(created.json().data.checkout.payload.split("_secret_")[0])?.params;
      expect(params).toMatchObject({ automatic_tax: { enabled: "true" } });
      // Checkout makes the customer from what is typed into it.
      expect(params).not.toHaveProperty("customer");
      expect(params).not.toHaveProperty("customer_update");
    });
  },
  async () => ({
    ...(await fakes.env()),
    INVOICE_SELLER_NAME: "Seller Ltd",
    INVOICE_SELLER_COUNTRY: "IE",
    INVOICE_REVERSE_CHARGE: "true",
    STRIPE_AUTOMATIC_TAX: "true",
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

describe("invoice tax", () => {
  const order = {
    id: "o",
    number: "INV-2026-000001",
    date: "2026-11-26T10:00:00.000Z",
    periodStart: null,
    periodEnd: null,
    dashboards: 10,
    interval: 1,
    amountCents: 12_300,
    currency: "EUR",
    status: "paid" as const,
  };
  const party = { name: "P", addressLines: [], vatId: null };
  const line = { description: "Dashboards, monthly plan", quantity: 10, unitCents: 1000, amountCents: 10_000 };
  const vat = (amountCents: number, inclusive = false) => ({
    name: "VAT",
    percent: 23,
    jurisdiction: "IE",
    amountCents,
    taxableCents: 10_000,
    inclusive,
  });
  const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

  it.each([
    [
      "exclusive VAT: subtotal, the VAT line, the total",
      { ...order, amountCents: 12_300 },
      [line],
      { lines: [vat(2300)], reverseCharge: false },
      ["Subtotal €100.00", "VAT 23% (IE) on €100.00 €23.00", "Total (EUR) €123.00"],
      ["Reverse charge"],
    ],
    [
      "inclusive VAT: the total, then what it includes",
      { ...order, amountCents: 12_300 },
      [{ ...line, unitCents: 1230, amountCents: 12_300 }],
      { lines: [vat(2300, true)], reverseCharge: false },
      ["Subtotal €123.00", "Total (EUR) €123.00", "Including VAT 23% (IE) on €100.00 €23.00"],
      ["Reverse charge"],
    ],
    [
      "reverse charge: the note, no VAT line (a 0 entry is dropped)",
      { ...order, amountCents: 10_000 },
      [line],
      { lines: [vat(0)], reverseCharge: true },
      ["Subtotal €100.00", "Total (EUR) €100.00", REVERSE_CHARGE_NOTE],
      ["VAT 23%"],
    ],
    [
      "reverse charge but VAT was charged: the VAT as charged, no note",
      { ...order, amountCents: 12_300 },
      [line],
      { lines: [vat(2300)], reverseCharge: true },
      ["VAT 23% (IE) on €100.00 €23.00", "Total (EUR) €123.00"],
      ["Reverse charge"],
    ],
  ])("%s", (_name, input, lines, tax, shown, absent) => {
    const html = text(invoiceHtml(input, party, party, lines, tax));
    for (const words of shown) expect(html).toContain(words);
    for (const words of absent) expect(html).not.toContain(words);
  });
});
