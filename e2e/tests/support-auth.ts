import { expect, type Page } from "@playwright/test";
import { uniqueEmail } from "./support";

export const PASSWORD = "agency-pass-1";

/** Registers a new company through the page, passes the intro, and ends on company sources. */
export async function signUp(page: Page, name = "Ada Agency"): Promise<string> {
  const email = uniqueEmail("agency");
  await page.goto("/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByLabel("I agree to the Terms and Conditions").check();
  await page.getByLabel("I confirm I am at least 16 years old").check();
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  return email;
}

export async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
