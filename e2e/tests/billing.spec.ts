import { execFileSync } from "node:child_process";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type Stripe from "stripe";
import { stripeFake } from "../../apps/server/test/fakes/stripe";
import { snap } from "./support";
import { call } from "./support-api";
import { signUp } from "./support-auth";
import { createTemplateDashboard } from "./support-dashboard";

/**
 * Billing states in the browser (issue 12 §4, §8). Stripe's side is played here: the events are shaped
 * as Stripe sends them and signed with the fake's webhook secret (the one the e2e server trusts), then
 * posted to the server's webhook like Stripe would, with no cookie. The server finds the company by the
 * subscription's metadata `company_id`, as it does for a real checkout.
 */
// Payments are on only on the second e2e server (playwright.config.ts, docs/decisions.md).
test.use({ baseURL: process.env.E2E_PAYMENTS_URL });

const signer = stripeFake().state;
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

const event = (type: string, object: unknown) =>
  ({
    id: id("evt"),
    object: "event",
    created: unix(),
    livemode: false,
    type,
    data: { object },
  }) as unknown as Stripe.Event;

/** invoice.paid / invoice.payment_failed for one month of the plan, starting `startDaysAgo` days ago. */
function invoiceEvent(type: "invoice.paid" | "invoice.payment_failed", plan: Plan, startDaysAgo = 0) {
  const amount = plan.dashboards * plan.unitCents;
  const start = unix() - startDaysAgo * DAY;
  const paid = type === "invoice.paid";
  return event(type, {
    id: id("in"),
    object: "invoice",
    customer: plan.customer,
    currency: "usd",
    status: paid ? "paid" : "open",
    amount_due: amount,
    amount_paid: paid ? amount : 0,
    parent: {
      type: "subscription_details",
      subscription_details: {
        subscription: plan.subscription,
        metadata: { company_id: plan.companyId, dashboards: String(plan.dashboards), interval: "1" },
      },
    },
    lines: {
      object: "list",
      data: [
        {
          id: id("il"),
          object: "line_item",
          amount,
          quantity: plan.dashboards,
          period: { start, end: start + 30 * DAY },
        },
      ],
    },
  });
}

/** Stripe ends the subscription (retries given up, or a canceled period over) at `endedAt`. */
const deletedEvent = (plan: Plan, endedAt: number) =>
  event("customer.subscription.deleted", {
    id: plan.subscription,
    object: "subscription",
    customer: plan.customer,
    status: "canceled",
    metadata: { company_id: plan.companyId },
    ended_at: endedAt,
  });

async function sendWebhook(request: APIRequestContext, evt: Stripe.Event) {
  const { payload, header } = signer.signed(evt);
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
