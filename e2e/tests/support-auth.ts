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

/** Registers a new company through the page, passes the intro, and ends on company sources. */
export async function signUp(page: Page, name = "Ada Agency", options: SignUpOptions = {}): Promise<string> {
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

export async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
