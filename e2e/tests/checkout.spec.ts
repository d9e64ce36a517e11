import { execFileSync } from "node:child_process";
import path from "node:path";
import { STRIPE_FAKE_SECRET_KEY } from "../../apps/server/test/fakes/stripe";
import { quote } from "../../packages/core/src/billing/pricing";
import { CHECKOUT_TEXTS, PAYMENT_CONFIRMATION_TEXTS } from "../../packages/core/src/contract/billing";
import { formatMoney } from "../../packages/core/src/contract/invoices";
import { expect, type Page, test } from "./fixtures";
import { snap, uniqueEmail } from "./support";
import { call } from "./support-api";
import { signUp } from "./support-auth";
import { followDashboardFlow } from "./support-onboarding";

// Payments are on only on the second e2e server (playwright.config.ts, docs/decisions.md).
test.use({ baseURL: process.env.E2E_PAYMENTS_URL });

const SERVER = path.join(import.meta.dirname, "..", "..", "apps", "server");
const PASSWORD = "agency-pass-1";

/** The operator's coupons CLI (docs/operations.md "Coupons") on the payments server's database. */
function addCoupon(...args: string[]): void {
  execFileSync("npx", ["tsx", path.join(SERVER, "src", "seed", "coupons.ts"), "add", ...args], {
    env: { ...process.env, NODE_ENV: "test", DATA_DIR: `${process.env.E2E_DATA_DIR}-payments`, LOG_LEVEL: "warn" },
    encoding: "utf8",
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

/** Fills the register form of `query` and presses Register: the checkout opens (payments are on). */
async function registerUntilCheckout(page: Page, query: string, email: string) {
  await page.goto(`/register?${query}`);
  await page.getByLabel("Name").fill("Pam van Payer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByLabel("I agree to the Terms and Conditions").check();
  await page.getByLabel("I confirm I am at least 16 years old").check();
}

/** As the page prints money: dollars, 2 decimals, thousands separators. */
const dollars = (cents: number) => formatMoney(cents, "USD");

test("a new agency pays 10 dashboards yearly with a coupon in the checkout and starts active", async ({ page }) => {
  const code = `YEARLY${Date.now().toString(36).toUpperCase()}`;
  addCoupon(code, "price.discount", "10", "--name", "Launch");
  const email = uniqueEmail("payer");
  await registerUntilCheckout(page, `dashboards=10&annual=1&coupons=${code}`, email);

  // The live price: core quote's unit price, discount and total (the server charges its own).
  await expect(page.getByText(`${code} · 10% off`)).toBeVisible();
  const expected = quote({ dashboards: 10, interval: 12, coupons: [{ type: "price.discount", value: 10 }] });
  const price = page.getByTestId("live-price");
  // Lines that add up as a reader checks them: 10 × list price − discount = total = 10 × unit price.
  await expect(price).toContainText(
    `10 dashboards × ${dollars(expected.listUnitCents)}${dollars(expected.listUnitCents * 10)}`,
  );
  await expect(price).toContainText(`Discount−${dollars((expected.listUnitCents - expected.unitCents) * 10)}`);
  await expect(price).toContainText(`Total / year${dollars(expected.totalCents)}`);
  await expect(price).toContainText(`${dollars(expected.unitCents)} per dashboard / year`);
  await price.scrollIntoViewIfNeeded();
  await snapBoth(page, "checkout-register-price");

  await page.getByRole("button", { name: "Register" }).click();
  const checkout = page.getByRole("dialog", { name: "Payment" });
  await expect(checkout.getByTestId("stripe-fake-checkout")).toBeVisible();
  await expect(checkout.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await snapBoth(page, "checkout-modal");

  await checkout.getByRole("button", { name: "Pay" }).click();
  // Paid, then registered with the session's references: the app's onboarding intro.
  await expect(page).toHaveURL(/\/intro$/);
  const data = (await call(page, "GET", "/api/page-data")) as {
    user: { email: string };
    company: { state: string; services: { dashboards: number }; subscription: { interval: number } | null };
  };
  expect(data.user.email).toBe(email);
  expect(data.company).toMatchObject({ state: "active", services: { dashboards: 10 }, subscription: { interval: 12 } });
  await expect(page.getByRole("alert").filter({ hasText: "Trial Is Active" })).toHaveCount(0);
  await snapBoth(page, "checkout-paid-intro");

  // Paid, the new user is guided from the intro to a first shared dashboard (docs/decisions.md, "Guided onboarding in the web app").
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  await followDashboardFlow(page, "Client overview");

  // The subscription page: the paid plan, and a change of plan priced live (PUT, no new checkout).
  await page.goto("/company/subscription");
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText("Billed annually")).toBeVisible();
  await expect(page.getByText("Next charge")).toBeVisible();
  await page.getByRole("textbox", { name: "Dashboards" }).fill("12");
  const changed = quote({ dashboards: 12, interval: 12, coupons: [{ type: "price.discount", value: 10 }] });
  await expect(page.getByTestId("live-price")).toContainText(`Total / year${dollars(changed.totalCents)}`);
  await snapBoth(page, "subscription-active");
  await page.getByRole("button", { name: "Change plan" }).click();
  await expect(page.getByText("Your new plan applies from now on.")).toBeVisible();
  // The dashboard the guided flow made counts against the plan.
  await expect(page.getByText("1 of 12 used", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Manage payment method" })).toBeVisible();

  // Cancelling says it was done, though the button goes with the subscribed state it belonged to.
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  const cancel = page.getByRole("dialog", { name: "Cancel subscription" });
  await cancel.getByLabel("Reason", { exact: true }).click();
  await page.getByRole("option", { name: "I do not use it enough", exact: true }).click();
  await cancel.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(page.getByText("Subscription canceled")).toBeVisible();
  await expect(page.getByText("We are sorry to see you go.")).toBeVisible();
});

test("a company in its trial subscribes from the subscription page and turns active live", async ({ page }) => {
  await signUp(page, "Tess Trial", { trial: true });
  await page.goto("/company/subscription");
  await expect(page.getByText("Trial", { exact: true })).toBeVisible();
  await page.getByRole("textbox", { name: "Dashboards" }).fill("5");
  await expect(page.getByTestId("live-price")).toContainText("Total / month$75.00");
  await page.getByRole("button", { name: "Subscribe" }).click();
  const checkout = page.getByRole("dialog", { name: "Payment" });
  await checkout.getByRole("button", { name: "Pay" }).click();
  // Stripe's webhook reached the server before the checkout ended: confirmed at once.
  await expect(page.getByText(PAYMENT_CONFIRMATION_TEXTS.received)).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText("0 of 5 used", { exact: true })).toBeVisible();
  await snapBoth(page, "subscription-subscribed");
});

/** The provider fakes' server, next to the e2e server (playwright.config.ts). */
const FAKES = `http://127.0.0.1:${Number(process.env.E2E_PORT) + 1}`;

/** Stripe's preview of a subscription's next invoice, asked of the fakes' Stripe (next to the e2e server). */
async function nextInvoiceCents(page: Page, subscriptionId: string): Promise<number> {
  const fakes = FAKES;
  const answer = await page.request.post(`${fakes}/v1/invoices/create_preview`, {
    headers: { authorization: `Bearer ${STRIPE_FAKE_SECRET_KEY}` },
    form: { subscription: subscriptionId },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { amount_due: number }).amount_due;
}

test("a paying company applies a 20 % coupon on the subscription page: the page and Stripe's next invoice say $200.00", async ({
  page,
}) => {
  const code = `TWENTY${Date.now().toString(36).toUpperCase()}`;
  addCoupon(code, "price.discount", "20", "--name", "Twenty off");
  await signUp(page, "Cody Coupon", { trial: true });
  await page.goto("/company/subscription");
  await page.getByRole("textbox", { name: "Dashboards" }).fill("25");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await page.getByRole("dialog", { name: "Payment" }).getByRole("button", { name: "Pay" }).click();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  const price = page.getByTestId("live-price");
  await expect(price).toContainText("Total / month$250.00");
  const { company } = (await call(page, "GET", "/api/page-data")) as { company: { subscription: { id: string } } };
  expect(await nextInvoiceCents(page, company.subscription.id)).toBe(25_000);

  await page.getByLabel("Coupon code").fill(code);
  await page.getByRole("button", { name: "Apply coupon" }).click();
  await expect(page.getByText(`Code / Coupon ${code} activated successfully`)).toBeVisible();
  await expect(price).toContainText("Total / month$200.00");
  // What the card is charged next: the same $200.00.
  expect(await nextInvoiceCents(page, company.subscription.id)).toBe(20_000);
  await price.scrollIntoViewIfNeeded();
  await snapBoth(page, "subscription-coupon-charged");
});

test("a canceled company subscribes again while Stripe's webhook is lost: 'being confirmed', then what to do, and 'Payment received' only once the server has it", async ({
  page,
}) => {
  await signUp(page, "Rory Resubscribe", { trial: true });
  await page.goto("/company/subscription");
  await page.getByRole("textbox", { name: "Dashboards" }).fill("5");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await page.getByRole("dialog", { name: "Payment" }).getByRole("button", { name: "Pay" }).click();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await call(page, "DELETE", "/api/company", { cancellation: { reason: "budget" } });

  const received = page.getByText(PAYMENT_CONFIRMATION_TEXTS.received);
  const status = page.locator("main").getByText("Canceled", { exact: true });
  // Stripe's webhooks are lost, and the server cannot read the session from Stripe either (for now).
  const lose = await page.request.post(`${FAKES}/_fake/stripe/webhooks`, { data: { deliver: false } });
  expect(lose.status()).toBe(200);
  const down = await page.request.post(`${FAKES}/_fake/fail`, {
    data: {
      part: "stripe",
      path: "/v1/checkout/sessions/cs_",
      status: 500,
      body: { error: { type: "api_error", message: "Something went wrong" } },
      count: 100,
    },
  });
  expect(down.status()).toBe(200);
  try {
    await page.clock.install();
    await page.goto("/company/subscription");
    await expect(status).toBeVisible();
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("dialog", { name: "Payment" }).getByRole("button", { name: "Pay" }).click();
    const confirming = page.getByRole("status").filter({ hasText: PAYMENT_CONFIRMATION_TEXTS.confirmingTitle });
    await expect(confirming).toBeVisible();
    await expect(confirming).toContainText(PAYMENT_CONFIRMATION_TEXTS.confirming);
    await expect(received).toHaveCount(0);
    await expect(status).toBeVisible();
    await expect(page.getByRole("button", { name: "Subscribe" })).toBeDisabled();
    await snapBoth(page, "subscription-payment-confirming");

    // A minute without a confirmation: the page says so, and what to do.
    await page.clock.fastForward(61_000);
    const unconfirmed = page.getByRole("alert").filter({ hasText: PAYMENT_CONFIRMATION_TEXTS.unconfirmedTitle });
    await expect(unconfirmed).toBeVisible();
    await expect(unconfirmed).toContainText(/contact support with the payment reference cs_\S+\./);
    await expect(unconfirmed).toContainText("Do not pay again");
    await expect(received).toHaveCount(0);
    await expect(status).toBeVisible();
    await snapBoth(page, "subscription-payment-unconfirmed");

    // Stripe answers again: the server's own check of the session confirms the payment.
    await page.request.delete(`${FAKES}/_fake/fail`);
    await unconfirmed.getByRole("button", { name: PAYMENT_CONFIRMATION_TEXTS.checkAgain }).click();
    await expect(received).toBeVisible();
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    await expect(unconfirmed).toHaveCount(0);
  } finally {
    await page.request.delete(`${FAKES}/_fake/fail`);
    await page.request.post(`${FAKES}/_fake/stripe/webhooks`, { data: { deliver: true } });
  }
});

test("closing the checkout stops the registration and says why", async ({ page }) => {
  const email = uniqueEmail("closer");
  await registerUntilCheckout(page, "dashboards=3", email);
  await page.getByRole("button", { name: "Register" }).click();
  const checkout = page.getByRole("dialog", { name: "Payment" });
  await expect(checkout.getByTestId("stripe-fake-checkout")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(checkout).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: CHECKOUT_TEXTS.closed })).toBeVisible();
  await expect(page).toHaveURL(/\/register/);
  // No account was made: the address cannot sign in.
  const data = (await call(page, "GET", "/api/page-data")) as { user: unknown };
  expect(data.user).toBeNull();
  await snapBoth(page, "checkout-closed");
});
