import { execFileSync } from "node:child_process";
import type Stripe from "stripe";
import {
  STRIPE_FAKE_WEBHOOK_SECRET,
  signStripeEvent,
  stripeEvent,
  stripeInvoice,
  stripeSubscription,
} from "../../apps/server/test/fakes/stripe";
import { type APIRequestContext, expect, type Page, test } from "./fixtures";
import { snap } from "./support";
import { call } from "./support-api";
import { signUp } from "./support-auth";
import { createTemplateDashboard, inviteColleague } from "./support-dashboard";

/**
 * Billing states in the browser (docs/decisions.md, "Invoices"; "Billing: subscription lifecycle and Stripe checkout"). Stripe's side is played here: the events are the
 * Stripe fake's own shapes (`stripeInvoice`, `stripeSubscription`), signed with its webhook secret (the
 * one the e2e server trusts) and posted to the server's webhook like Stripe would, with no cookie. The
 * server finds the company by the subscription's metadata `company_id`, as it does for a real checkout.
 */
// Payments are on only on the second e2e server (playwright.config.ts, docs/decisions.md).
test.use({ baseURL: process.env.E2E_PAYMENTS_URL });

const DAY = 86_400;
const unix = () => Math.floor(Date.now() / 1000);
let counter = 0;
const id = (prefix: string) => `${prefix}_e2e_${Date.now()}_${++counter}`;

interface Plan {
  companyId: string;
  subscription: string;
  customer: string;
  dashboards: number;
  unitCents: number;
}

/** The plan as the fake's Stripe shapes take it: one month, starting `startDaysAgo` days ago. */
function planFacts(plan: Plan, startDaysAgo = 0) {
  const start = unix() - startDaysAgo * DAY;
  return {
    subscription: plan.subscription,
    customer: plan.customer,
    metadata: { company_id: plan.companyId, dashboards: String(plan.dashboards), interval: "1" },
    quantity: plan.dashboards,
    unitAmount: plan.unitCents,
    interval: "month" as const,
    periodStart: start,
    periodEnd: start + 30 * DAY,
  };
}

/** invoice.paid / invoice.payment_failed for one month of the plan, starting `startDaysAgo` days ago. */
const invoiceEvent = (type: "invoice.paid" | "invoice.payment_failed", plan: Plan, startDaysAgo = 0) =>
  stripeEvent(
    id("evt"),
    type,
    stripeInvoice(id("in"), id("il"), planFacts(plan, startDaysAgo), type === "invoice.paid"),
  );

/** Stripe ends the subscription (retries given up, or a canceled period over) at `endedAt`. */
const deletedEvent = (plan: Plan, endedAt: number) =>
  stripeEvent(
    id("evt"),
    "customer.subscription.deleted",
    stripeSubscription(
      { ...planFacts(plan, 40), itemId: id("si"), product: id("prod"), status: "canceled", cancelAtPeriodEnd: false },
      endedAt,
    ),
  );

async function sendWebhook(request: APIRequestContext, evt: Stripe.Event) {
  const { payload, header } = signStripeEvent(evt, STRIPE_FAKE_WEBHOOK_SECRET);
  const answer = await request.post("/api/payment/webhook", {
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": header },
    data: payload,
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** A new agency (signed up in the page) and the plan Stripe will bill it for. */
async function newCustomer(page: Page, name: string): Promise<Plan> {
  await signUp(page, name, { trial: true });
  const { company } = (await call(page, "GET", "/api/page-data")) as { company: { id: string } };
  return { companyId: company.id, subscription: id("sub"), customer: id("cus"), dashboards: 5, unitCents: 1500 };
}

/**
 * Resolves once the page's realtime socket has subscribed to its company's channel (the server's ack
 * to the subscribe, `4<id>[{"ok":true}]`): a push sent before that would reach no one. Socket.IO may
 * still be on HTTP long-polling when the ack comes, so both transports are watched. Call before the
 * page loads.
 */
function channelJoined(page: Page): Promise<void> {
  const ack = /\d+\[\{"ok":true/;
  return new Promise((resolve) => {
    page.on("websocket", (socket) => {
      socket.on("framereceived", ({ payload }) => {
        if (ack.test(String(payload))) resolve();
      });
    });
    page.on("response", async (response) => {
      if (!response.url().includes("/socket.io/") || response.request().method() !== "GET") return;
      const body = await response.text().catch(() => "");
      if (ack.test(body)) resolve();
    });
  });
}

async function snapBoth(page: Page, name: string) {
  await snap(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  // The app's sidebar slides away on a phone: picture the page once it is gone.
  const sidebar = page.locator(".mantine-AppShell-navbar");
  if ((await sidebar.count()) > 0) {
    await expect
      .poll(async () => (await sidebar.boundingBox())?.x ?? -1000)
      .toBeLessThanOrEqual(-(await sidebar.evaluate((el) => el.clientWidth)));
  }
  await snap(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an active company lists its invoice at /company/invoices and downloads it as a PDF", async ({
  page,
  request,
}) => {
  const plan = await newCustomer(page, "Ivy Invoices");
  const joined = channelJoined(page);
  await page.goto("/company/invoices");
  await expect(page.getByText("No invoices yet")).toBeVisible();
  await snapBoth(page, "invoices-empty");
  await joined;

  await sendWebhook(request, invoiceEvent("invoice.paid", plan));
  // The payment is pushed to the open page (CompanySubscriptionUpdated): the invoice appears.
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(2);
  const row = table.getByRole("row").nth(1);
  const number = String(await row.getByRole("cell").first().textContent()).trim();
  expect(number).toMatch(/^INV-\d{4}-\d{6}$/);
  await expect(row).toContainText("$75.00");
  await expect(row).toContainText("Paid");
  await expect(row).toContainText("5 · monthly");
  await snapBoth(page, "invoices");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("button", { name: `Download PDF of ${number}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const text = execFileSync("pdftotext", ["-layout", await download.path(), "-"], { encoding: "utf8" });
  for (const expected of ["Invoice", number, "Ivy Invoices", "$75.00", "Paid"]) expect(text).toContain(expected);
});

test("an admin enters the billing details on the subscription page; a bad VAT number is refused there; the invoice PDF is made out to them", async ({
  page,
  request,
}) => {
  const plan = await newCustomer(page, "Bea Billing");
  await page.goto("/company/subscription");
  const form = page.getByRole("region", { name: "Billing details" });
  await expect(form).toBeVisible();
  await form.getByLabel("Billing name").fill("Bea Billing GmbH");
  await form.getByLabel("Address").fill("Hauptstraße 5\nHinterhaus");
  await form.getByLabel("Postal code").fill("10115");
  await form.getByLabel("City").fill("Berlin");
  await form.getByRole("combobox", { name: "Country" }).fill("Germ");
  await page.getByRole("option", { name: "Germany", exact: true }).click();
  await form.getByLabel("VAT or tax number").fill("DE 1234");
  await form.getByRole("button", { name: "Save billing details" }).click();
  await expect(form.getByText("Germany VAT numbers are written like DE123456789.")).toBeVisible();
  await expect(form.getByLabel("VAT or tax number")).toHaveAttribute("aria-invalid", "true");
  // The full-page picture is taken from the top, where the app's sticky header and sidebar belong.
  await page.evaluate(() => window.scrollTo(0, 0));
  await snapBoth(page, "billing-details-error");

  await form.getByLabel("VAT or tax number").fill("DE 123 456 789");
  await form.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Billing details saved")).toBeVisible();
  // Stored as the check wrote it.
  await expect(form.getByLabel("VAT or tax number")).toHaveValue("DE123456789");
  await expect(form.getByText("Germany VAT numbers are written like DE123456789.")).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await snapBoth(page, "billing-details");

  await sendWebhook(request, invoiceEvent("invoice.paid", plan));
  await page.goto("/company/invoices");
  const row = page.getByRole("table").getByRole("row").nth(1);
  await expect(row).toContainText("Paid");
  const number = String(await row.getByRole("cell").first().textContent()).trim();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("button", { name: `Download PDF of ${number}` }).click(),
  ]);
  const text = execFileSync("pdftotext", ["-layout", await download.path(), "-"], { encoding: "utf8" });
  for (const expected of ["Bea Billing GmbH", "Hauptstraße 5", "10115 Berlin", "Germany", "VAT ID: DE123456789"]) {
    expect(text).toContain(expected);
  }
});

test("an overdue company: a failed charge shows banner 128 live, linking to the card page", async ({
  page,
  request,
}) => {
  const plan = await newCustomer(page, "Omar Overdue");
  await sendWebhook(request, invoiceEvent("invoice.paid", plan));
  const joined = channelJoined(page);
  await page.goto("/dashboards");
  await joined;
  const banner = page.getByRole("alert").filter({ hasText: "Account Overdue" });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
  // Anything a reload would lose.
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  await sendWebhook(request, invoiceEvent("invoice.payment_failed", plan));
  await expect(banner).toBeVisible({ timeout: 15_000 });
  await expect(banner).toContainText("We could not charge your card.");
  await expect(banner.getByRole("link", { name: "Change or top up your card" })).toHaveAttribute(
    "href",
    "/company/manage-payment",
  );
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await snapBoth(page, "banner-128-overdue");

  // The failed charge is an invoice too.
  await page.goto("/company/invoices");
  await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText("Payment failed");
});

test("a canceled company past its period: its shared dashboard shows the 402 page to a visitor", async ({
  page,
  request,
  browser,
}) => {
  const plan = await newCustomer(page, "Cara Canceled");
  const { permalink } = await createTemplateDashboard(page, "Client results");
  await sendWebhook(request, invoiceEvent("invoice.paid", plan, 40));
  // Stripe ended the subscription yesterday: service is over.
  await sendWebhook(request, deletedEvent(plan, unix() - DAY));

  const visitor = await browser.newPage();
  await visitor.goto(`/dashboards/${permalink}`);
  const notServed = visitor.getByTestId("dashboard-not-served");
  await expect(notServed).toBeVisible();
  await expect(notServed.getByRole("heading", { level: 1 })).toHaveText("This dashboard is not available");
  await expect(visitor.getByRole("heading", { name: "Client results" })).toHaveCount(0);
  await snapBoth(visitor, "dashboard-402");
  await visitor.close();
});

test("a canceled company past its period: a member creating a dashboard is sent to /402 and told to ask an admin; the admin is shown the way to subscribe", async ({
  page,
  request,
  browser,
}) => {
  const plan = await newCustomer(page, "Pia Past");
  const member = await inviteColleague(page, browser, "Milo Member");
  await sendWebhook(request, invoiceEvent("invoice.paid", plan, 40));
  await sendWebhook(request, deletedEvent(plan, unix() - DAY));

  // The member follows the list's "Create dashboard": no service, so the subscription-required page.
  await member.goto("/dashboards");
  await member.getByRole("link", { name: "Create dashboard" }).first().click();
  await expect(member).toHaveURL(/\/402$/);
  await expect(member.getByRole("heading", { name: "A subscription is needed" })).toBeVisible();
  await expect(
    member.getByText("This needs an active subscription. Ask an admin of your company to choose a plan."),
  ).toBeVisible();
  await expect(member.getByRole("link", { name: "View subscription" })).toHaveCount(0);
  await expect(member).toHaveTitle(/^Subscription Required \| /);
  await snapBoth(member, "402-member");

  // The admin lands there the same way, with the way to subscribe.
  await page.goto("/dashboards/create");
  await expect(page).toHaveURL(/\/402$/);
  await expect(
    page.getByText("This needs an active subscription. Choose a plan to keep your dashboards and reports running."),
  ).toBeVisible();
  await snapBoth(page, "402-admin");
  await page.getByRole("link", { name: "View subscription" }).click();
  await expect(page).toHaveURL(/\/company\/subscription$/);
  await expect(page.getByRole("button", { name: /Subscribe/ }).first()).toBeVisible();
});
