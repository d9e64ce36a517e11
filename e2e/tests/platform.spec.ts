import { expect, test } from "./fixtures";
import { invitationLink, snap, uniqueEmail } from "./support";

const PASSWORD = "agency-pass-1";

async function register(page: import("@playwright/test").Page, email: string, name = "Ada Agency") {
  await page.goto("/register?dashboards=10&annual=1");
  await expect(page).toHaveTitle("Register | Reportz");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  const submit = page.getByRole("button", { name: "Register" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("I agree to the Terms and Conditions").check();
  await expect(submit).toBeDisabled();
  await page.getByLabel("I confirm I am at least 16 years old").check();
  await expect(submit).toBeEnabled();
  await snap(page, "register");
  await submit.click();
}

test("a new user registers, passes the intro and lands on company sources", async ({ page }) => {
  await register(page, uniqueEmail("newcomer"));
  await expect(page).toHaveURL(/\/intro$/);
  await expect(page).toHaveTitle("Intro | Reportz");
  await snap(page, "intro");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  await expect(page).toHaveTitle("Company Sources | Reportz");
  // The trial banner (120) shows for a company in trial without subscription, and cannot be closed.
  const banner = page.getByRole("alert").filter({ hasText: "Your Reportz Trial Is Active" });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole("button", { name: "Dismiss message" })).toHaveCount(0);
  await snap(page, "company-sources");
  // After the intro, /intro leads to company sources.
  await page.goto("/intro");
  await expect(page).toHaveURL(/\/company\/sources$/);
});

test("registration shows server errors per field", async ({ page }) => {
  const email = uniqueEmail("taken");
  await register(page, email);
  await expect(page).toHaveURL(/\/intro$/);
  await page.context().clearCookies();
  await register(page, email, "Second Try");
  await expect(page.getByText("The email has already been taken.")).toBeVisible();
  await expect(page).toHaveURL(/\/register/);
});

test("a user logs out and logs back in", async ({ page }) => {
  const email = uniqueEmail("returning");
  await register(page, email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page).toHaveTitle("Log In | Reportz");
  // Signed out, the app pages send to the login page.
  await page.goto("/company/sources");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
  await snap(page, "login-error");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  await expect(page).toHaveTitle("Dashboards | Reportz");
});

test("an admin invites a user, who sets a password and, as non-admin, is sent from users to dashboards", async ({
  page,
  browser,
}) => {
  await register(page, uniqueEmail("admin"));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  await page.goto("/company/users");
  await expect(page).toHaveTitle("Users | Reportz");
  await page.getByRole("button", { name: "Invite user" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite user" });
  const inviteeEmail = uniqueEmail("invitee");
  await dialog.getByLabel("Name").fill("Ian Invitee");
  await dialog.getByLabel("Email").fill(inviteeEmail);
  await snap(page, "invite-user");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("cell", { name: inviteeEmail })).toBeVisible();
  await snap(page, "users");

  const link = await invitationLink(inviteeEmail);
  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(new URL(link).pathname);
  await expect(invitee).toHaveTitle("Set Your Password | Reportz");
  await invitee.getByLabel("Password", { exact: true }).fill("invitee-pass-1");
  await invitee.getByLabel("Confirm password").fill("invitee-pass-1");
  await invitee.getByRole("button", { name: "Set password" }).click();
  // Guard 2: consents first, on the user's own page.
  await expect(invitee).toHaveURL(/\/users\//);
  await invitee.getByLabel("I agree to the Terms and Conditions").check();
  await invitee.getByLabel("I confirm I am at least 16 years old").check();
  await invitee.getByRole("button", { name: "Save consents" }).click();
  await expect(invitee).toHaveURL(/\/intro$/);
  await invitee.getByRole("button", { name: "Continue" }).click();
  await expect(invitee).toHaveURL(/\/company\/sources$/);
  // Guard 5: admin-only routes send non-admins to the dashboards list.
  await invitee.goto("/company/users");
  await expect(invitee).toHaveURL(/\/dashboards$/);
  await expect(invitee.getByRole("link", { name: "Users" })).toHaveCount(0);
  await context.close();

  // The invitee shows as active for the admin now.
  await page.reload();
  await expect(page.getByRole("row", { name: /Ian Invitee/ })).toBeVisible();
});

test("an unknown path shows the 404 page; / leads to dashboards; /company to sources", async ({ page }) => {
  await register(page, uniqueEmail("wanderer"));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  await page.goto("/this/does/not/exist");
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
  await snap(page, "not-found");
  await page.goto("/");
  await expect(page).toHaveURL(/\/dashboards$/);
  await page.goto("/company");
  await expect(page).toHaveURL(/\/company\/sources$/);
});

test("route titles follow '{title} | {site title}', and the company's site title is used", async ({ page }) => {
  await register(page, uniqueEmail("titles"));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  const titles: Array<[string, string]> = [
    ["/dashboards", "Dashboards | Reportz"],
    ["/dashboards/create", "Create Dashboard | Reportz"],
    ["/groups", "Groups | Reportz"],
    ["/groups/create", "Create Group | Reportz"],
    ["/company/invoices", "Invoices | Reportz"],
    ["/company/automatic-reports", "Automatic Reports | Reportz"],
    ["/company/users", "Users | Reportz"],
  ];
  for (const [path, title] of titles) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
  await page.goto("/company/settings");
  await page.getByLabel("Site title").fill("Acme Reports");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/saved/i).first()).toBeVisible();
  await snap(page, "company-settings");
  await page.goto("/company/users");
  await expect(page).toHaveTitle("Users | Acme Reports");
});

test("the demo account printed at start-up can log in", async ({ page }) => {
  // The demo password is random unless DEMO_PASSWORD sets it; playwright.config.ts sets it.
  await page.goto("/login");
  await page.getByLabel("Email").fill("demo@reportz.local");
  await page.getByLabel("Password").fill(String(process.env.E2E_DEMO_PASSWORD));
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "dashboards-phone");
});
