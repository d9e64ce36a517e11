import { CHECKOUT_TEXTS } from "../../packages/core/src/contract/billing";
import { socialAuthNotice } from "../../packages/core/src/contract/social-auth";
import { expect, type Page, test } from "./fixtures";
import { snap, uniqueEmail } from "./support";
import { skipOnboarding } from "./support-auth";

// The fakes run next door (playwright.config.ts): Google's OpenID Connect provider is under /oidc/google.
const FAKES = `http://127.0.0.1:${Number(process.env.E2E_PORT) + 1}`;

/** Who the fake Google signs in next. */
async function googleUser(page: Page, profile: { sub: string; email: string; email_verified: boolean; name: string }) {
  const response = await page.request.post(`${FAKES}/_fake/oidc/google/profile`, { data: profile });
  expect(response.ok()).toBe(true);
}

/** Ticks the registration page's two consents, which every sign-up confirms before the provider is asked. */
async function consent(page: Page) {
  await page.getByLabel("I agree to the Terms and Conditions").check();
  await page.getByLabel("I confirm I am at least 16 years old").check();
}

/** With payments on: from the registration page, consents, Sign up with Google, pays in the fake checkout. */
async function payAndSignUpWithGoogle(page: Page, registerPath: string) {
  await page.goto(registerPath);
  await consent(page);
  await page.getByRole("button", { name: "Sign up with Google" }).click();
  const checkout = page.getByRole("dialog", { name: "Payment" });
  await expect(checkout.getByTestId("stripe-fake-checkout")).toBeVisible();
  await checkout.getByRole("button", { name: "Pay" }).click();
}

test("a new user signs up with Google: consents first, then straight into the intro with the chosen plan", async ({
  page,
}) => {
  const email = uniqueEmail("google");
  await googleUser(page, { sub: `google-${Date.now()}`, email, email_verified: true, name: "Grace Google" });

  await page.goto("/register?dashboards=10&annual=1&source=mc");
  const google = page.getByRole("button", { name: "Sign up with Google" });
  await expect(google).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign up with Facebook" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign up with LinkedIn" })).toBeVisible();
  await snap(page, "register-social");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "register-social-mobile");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Without the checkboxes, the page says what is missing and stays.
  await google.click();
  await expect(page.getByText("You must accept the terms and conditions.")).toBeVisible();
  await expect(page.getByText("You must confirm that you are at least 16 years old.")).toBeVisible();
  await expect(page).toHaveURL(/\/register/);

  await page.getByLabel("I agree to the Terms and Conditions").check();
  await page.getByLabel("I confirm I am at least 16 years old").check();
  await google.click();
  await expect(page).toHaveURL(/\/intro$/);
  await snap(page, "register-social-intro");

  // The account is Google's person, with the plan of the page.
  const data = await page.request.get("/api/page-data");
  const page1 = await data.json();
  expect(page1.user.email).toBe(email);
  expect(page1.user.name).toBe("Grace Google");
  expect(page1.company.services.dashboards).toBe(10);
  expect(page1.onboarding.flow).toBe("mc");

  // Logged out, "Log in with Google" enters the same account.
  await page.context().clearCookies();
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in with LinkedIn" })).toBeVisible();
  await snap(page, "login-social");
  await page.getByRole("button", { name: "Log in with Google" }).click();
  await expect(page).toHaveURL(/\/(intro|dashboards|company)/);
  const again = await (await page.request.get("/api/page-data")).json();
  expect(again.user.id).toBe(page1.user.id);
});

test("logging in with a Google account that has no user yet says to register first", async ({ page }) => {
  await googleUser(page, {
    sub: `nobody-${Date.now()}`,
    email: uniqueEmail("nobody"),
    email_verified: true,
    name: "No Body",
  });
  await page.goto("/login");
  await page.getByRole("button", { name: "Log in with Google" }).click();
  await expect(page).toHaveURL(/\/register\?social_error=no_account&provider=google/);
  await expect(
    page.getByRole("alert").filter({ hasText: "No account uses this Google e-mail address yet" }),
  ).toBeVisible();
  await snap(page, "register-social-no-account");
});

test.describe("with card payments on", () => {
  // Payments are on only on the second e2e server (playwright.config.ts, docs/decisions.md).
  test.use({ baseURL: process.env.E2E_PAYMENTS_URL });

  test("a social sign-up pays in the checkout first, then Google signs the user in, active with the paid plan", async ({
    page,
  }) => {
    const email = uniqueEmail("google-paid");
    await googleUser(page, { sub: `google-paid-${Date.now()}`, email, email_verified: true, name: "Penny Paid" });
    await page.goto("/register?dashboards=4&annual=1");
    await consent(page);
    const google = page.getByRole("button", { name: "Sign up with Google" });

    // Closing the checkout stops the sign-up with the form's reason: Google is not asked.
    await google.click();
    const checkout = page.getByRole("dialog", { name: "Payment" });
    await expect(checkout.getByTestId("stripe-fake-checkout")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(checkout).toHaveCount(0);
    await expect(page.getByRole("alert").filter({ hasText: CHECKOUT_TEXTS.closed })).toBeVisible();
    await expect(page).toHaveURL(/\/register/);
    await snap(page, "register-social-checkout-closed");

    await google.click();
    await expect(checkout.getByTestId("stripe-fake-checkout")).toBeVisible();
    await snap(page, "register-social-checkout");
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, "register-social-checkout-mobile");
    await page.setViewportSize({ width: 1280, height: 800 });
    await checkout.getByRole("button", { name: "Pay" }).click();

    // Paid, then Google (the OIDC fake) answers at once: the new account, signed in at the intro.
    await expect(page).toHaveURL(/\/intro$/);
    const data = await (await page.request.get("/api/page-data")).json();
    expect(data.user).toMatchObject({ email, name: "Penny Paid" });
    expect(data.company).toMatchObject({
      state: "active",
      hasSubscription: true,
      services: { dashboards: 4 },
      subscription: { interval: 12 },
    });
    await expect(page.getByRole("alert").filter({ hasText: "Trial Is Active" })).toHaveCount(0);
    await snap(page, "register-social-paid-intro");
  });

  test("an existing user who signs up again with Google and pays is signed in to the account, told the payment is refunded", async ({
    page,
  }) => {
    const email = uniqueEmail("google-again");
    await googleUser(page, { sub: `google-again-${Date.now()}`, email, email_verified: true, name: "Ada Again" });
    await payAndSignUpWithGoogle(page, "/register?dashboards=4&annual=1");
    await expect(page).toHaveURL(/\/intro$/);
    // Someone who has used the account since: past the onboarding and the intro (until then the app
    // shows the intro first, wherever the sign-in lands).
    await skipOnboarding(page);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/company\/sources$/);
    const first = await (await page.request.get("/api/page-data")).json();

    // Logged out, the same Google account signs up (and pays) once more: it already has a user.
    await page.context().clearCookies();
    await payAndSignUpWithGoogle(page, "/register?dashboards=10&annual=1");
    await expect(page).toHaveURL(/\/dashboards\?/);
    const notice = page.getByRole("alert").filter({ hasText: "Signed in to your existing account" });
    await expect(notice).toContainText(socialAuthNotice("existing_account", "google") ?? "no notice text");
    await snap(page, "dashboards-social-existing-account");
    // A phone opens the same address (reloaded at phone width: resizing a desktop page mid-way catches the
    // side menu in its closing transition).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(notice).toBeVisible();
    await snap(page, "dashboards-social-existing-account-mobile");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Signed in to the first account, whose plan the second sign-up did not change.
    const again = await (await page.request.get("/api/page-data")).json();
    expect(again.user.id).toBe(first.user.id);
    expect(again.company).toMatchObject({ id: first.company.id, services: { dashboards: 4 } });
  });
});
