import { expect, type Page } from "@playwright/test";
import { uniqueEmail } from "./support";
import { call } from "./support-api";

export const PASSWORD = "agency-pass-1";

/**
 * Marks the guided onboarding (docs/product.md §4) as done for the signed-in user, so the tests of other
 * screens meet no Getting started panel, hints or onboarding block. The server keeps the highest step it
 * is sent, so the intro's own step 1 does not undo it.
 */
export async function skipOnboarding(page: Page): Promise<void> {
  await call(page, "POST", "/api/user/data", { onboarding: 10 });
}

export interface SignUpOptions {
  /** Go through the guided onboarding instead of skipping it (only the onboarding tests). */
  onboarding?: boolean;
  /** The registration page's query, e.g. "source=mc" for the Mission Control flow. */
  query?: string;
  /**
   * Answer the intro's "What do you want to do first?" with Mission Control: the user lands on the group
   * form, where the mc flow's step 1 is done, instead of company sources.
   */
  missionControl?: boolean;
  /**
   * Register without the checkout on a server with payments on (E2E_PAYMENTS_URL): the form is posted
   * from the page as it is, so the company starts in its trial, for specs that play Stripe themselves.
   */
  trial?: boolean;
}

/**
 * Registers a new company, passes the intro, and ends on company sources. With options, through the
 * register and intro pages; without, as those pages' own requests (the register form's POST with the
 * browser's zone, the intro's "passed"), sent from the browser so its context holds the session: the
 * pages themselves are the subject of the specs that pass options (onboarding, checkout, Mission
 * Control), and two full page loads less per test is minutes of the browser suite.
 */
export async function signUp(page: Page, name = "Ada Agency", options: SignUpOptions = {}): Promise<string> {
  if (Object.keys(options).length === 0) return signUpByRequests(page, name);
  const email = uniqueEmail("agency");
  await page.goto(options.query ? `/register?${options.query}` : "/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByLabel("I agree to the Terms and Conditions").check();
  await page.getByLabel("I confirm I am at least 16 years old").check();
  if (options.trial) {
    const form = { name, email, password: PASSWORD, password_confirmation: PASSWORD, terms_consent: true };
    await call(page, "POST", "/register", { ...form, age_consent: true, coupons: "[]" });
    await page.goto("/intro");
  } else {
    await page.getByRole("button", { name: "Register" }).click();
  }
  await expect(page).toHaveURL(/\/intro$/);
  if (!options.onboarding) await skipOnboarding(page);
  if (options.missionControl) await page.getByRole("radio", { name: /Mission Control/ }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(options.missionControl ? /\/groups\/create$/ : /\/company\/sources$/);
  return email;
}

async function signUpByRequests(page: Page, name: string): Promise<string> {
  const email = uniqueEmail("agency");
  // A document of the app's origin without the app: the requests below are the page's own (its cookies).
  await page.goto("/api/health");
  const timezone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const form = { name, email, password: PASSWORD, password_confirmation: PASSWORD, terms_consent: true };
  await call(page, "POST", "/register", { ...form, age_consent: true, coupons: "[]", timezone });
  // The new session's identification, which the app keeps from its page data and sends with each call.
  const { identification } = (await call(page, "GET", "/api/page-data")) as { identification: string };
  await page.evaluate((value) => sessionStorage.setItem("identification", value), identification);
  await call(page, "POST", "/api/user/data", { intro_passed: true, onboarding: 10 });
  await page.goto("/company/sources");
  await expect(page).toHaveURL(/\/company\/sources$/);
  return email;
}

export async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
