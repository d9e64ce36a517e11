import { Secret, TOTP } from "otpauth";
import { expect, type Page, test } from "./fixtures";
import { acceptInviteHeldAtSetup, invitationLink, snap, uniqueEmail } from "./support";
import { call } from "./support-api";
import { PASSWORD, signUp } from "./support-auth";

/**
 * Codes computed here from the secret the page shows, with the same library as the server. Each code
 * must be of a later time step than the last one used (the server accepts a code once), within the
 * server's one step of skew: the next step after the last, or the current one if that is later.
 */
class Authenticator {
  private last = -1;
  constructor(private readonly secret: string) {}

  nextCode(): string {
    const totp = new TOTP({ secret: Secret.fromBase32(this.secret), algorithm: "SHA1", digits: 6, period: 30 });
    const now = totp.counter();
    const step = Math.max(now, this.last + 1);
    if (step > now + 1) throw new Error("no fresh code within the server's skew; wait for the next step");
    this.last = step;
    return totp.generate({ timestamp: step * 30_000 + 1000 });
  }
}

async function passwordStep(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** On the set-up page: starts, reads the shown key, confirms with a code; answers the key and the recovery codes. */
async function setUpOnPage(page: Page, screenshots = false) {
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = String(await page.getByTestId("two-factor-secret").textContent()).trim();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  if (screenshots) {
    await snap(page, "two-factor-setup-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, "two-factor-setup-390");
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  const authenticator = new Authenticator(secret);
  await page.getByLabel("2. Enter the 6-digit code the app shows").fill(authenticator.nextCode());
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const codes = page.getByTestId("recovery-codes").locator("code");
  await expect(codes).toHaveCount(10);
  return { authenticator, recoveryCodes: await codes.allInnerTexts() };
}

test("TOTP from the profile: sign in with password and code; a recovery code once", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signUp(page, "Tess Twofactor");
  const data = (await call(page, "GET", "/api/page-data")) as { user: { id: string } };
  await page.goto(`/users/${data.user.id}`);
  await page.getByRole("link", { name: "Manage two-factor sign-in" }).click();
  await expect(page).toHaveURL(/\/two-factor\/setup$/);
  await expect(page).toHaveTitle("Two-Factor Sign-In | Reportz");
  const { authenticator, recoveryCodes } = await setUpOnPage(page, true);
  await expect(page.getByText("On", { exact: true })).toBeVisible();

  // Signed out, the password alone leads to the second step; the code signs in.
  await page.goto("/dashboards");
  await logOut(page);
  await passwordStep(page, email);
  await expect(page).toHaveURL(/\/login\/two-factor$/);
  // The page, not its loader: the code field and both ways to complete the sign-in are shown.
  await expect(page.getByLabel("Code")).toBeVisible();
  await expect(page.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await snap(page, "two-factor-second-step-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "two-factor-second-step-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel("Code").fill(authenticator.nextCode());
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboards$/);

  // A recovery code signs in once…
  await logOut(page);
  await passwordStep(page, email);
  await page.getByLabel("Code").fill(recoveryCodes[0]);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  // …and is refused the second time.
  await logOut(page);
  await passwordStep(page, email);
  await page.getByLabel("Code").fill(recoveryCodes[0]);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText("The code is not valid, or it was already used.")).toBeVisible();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
});

test("an admin requires two-factor: a member without it is led to set it up and can do nothing else", async ({
  page,
  browser,
}) => {
  await signUp(page, "Rita Requirer");
  // The admin turns it on for themselves first (the settings page refuses otherwise), then requires it.
  await page.goto("/two-factor/setup");
  await setUpOnPage(page);
  await page.goto("/company/settings");
  const requirement = page.getByRole("switch", { name: "Require two-factor sign-in for every member" });
  // The switch is disabled until the admin's own two-factor state has loaded.
  await expect(requirement).toBeEnabled();
  await requirement.click();
  await expect(requirement).toBeChecked();
  await page.reload();
  await expect(page.getByRole("switch", { name: "Require two-factor sign-in for every member" })).toBeChecked();

  const memberEmail = uniqueEmail("member");
  await call(page, "POST", "/api/users", { name: "Mo Member", email: memberEmail, roleName: "user" });
  const link = await invitationLink(memberEmail);
  const context = await browser.newContext();
  const member = await context.newPage();
  await acceptInviteHeldAtSetup(member, link);
  // Held at the set-up, whatever page is asked for, and the API refuses the rest.
  await member.goto("/company/sources");
  await expect(member).toHaveURL(/\/two-factor\/setup$/);
  const refused = await member.evaluate(async () => {
    const response = await fetch("/api/dashboards", {
      headers: {
        "x-requested-with": "XMLHttpRequest",
        "x-identification": sessionStorage.getItem("identification") ?? "",
      },
    });
    return { status: response.status, body: await response.json() };
  });
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe("two_factor_required");

  await setUpOnPage(member);
  // Set up: the rest of the app opens (first the member's consents, as for any new member).
  await member.goto("/company/sources");
  await expect(member).toHaveURL(/\/users\//);
  await context.close();
});
