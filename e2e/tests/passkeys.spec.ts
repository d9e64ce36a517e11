import fs from "node:fs";
import path from "node:path";
import { type CDPSession, expect, type Page, test } from "./fixtures";
import { acceptInviteHeldAtSetup, invitationLink, snap, uniqueEmail } from "./support";
import { call } from "./support-api";
import { PASSWORD, signUp } from "./support-auth";

// Browsers refuse an IP address as a passkey's relying party, so this spec opens the app at localhost:
// the server takes localhost as its own host when APP_URL is on 127.0.0.1 (features/passkeys/ceremony.ts).
test.use({ baseURL: `http://localhost:${process.env.E2E_PORT}` });

/**
 * Chromium's virtual authenticator (DevTools protocol, WebAuthn domain): a platform authenticator that
 * keeps discoverable credentials and verifies its user, answering every prompt at once.
 */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  await call(page, "POST", "/logout", {});
  // The open page may already be on its way to the sign-in page by itself (its realtime channel closes
  // with the session), which aborts this navigation; either way the sign-in page is where it ends.
  await page.goto("/login").catch(() => undefined);
  await expect(page).toHaveURL(/\/login/);
  await page.waitForLoadState("load");
}

/** The mails the main server wrote to its outbox for this address. */
function mailsTo(email: string): string[] {
  const dir = path.join(String(process.env.E2E_DATA_DIR), "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((file) => fs.readFileSync(path.join(dir, file), "utf8").replace(/=\r?\n/g, ""))
    .filter((mail) => mail.includes(email));
}

test("a passkey added on the profile signs in without a password; renamed, then removed with the password", async ({
  page,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const email = await signUp(page);
  const { user } = (await call(page, "GET", "/api/page-data")) as { user: { id: string } };
  await page.goto(`/users/${user.id}`);
  await expect(page.getByText("No passkeys yet.")).toBeVisible();

  // Add: a name, then the browser's prompt (the virtual authenticator answers).
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const adding = page.getByRole("dialog", { name: "Add a passkey" });
  await adding.getByLabel("Name").fill("Work laptop");
  await adding.getByRole("button", { name: "Continue" }).click();
  await expect(adding).toBeHidden();
  const rows = page.getByTestId("passkey-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Work laptop");
  await expect(rows.first()).toContainText("Not used yet");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);
  expect(mailsTo(email).some((mail) => mail.includes('A passkey named "Work laptop" was added'))).toBe(true);

  // Rename.
  await page.getByRole("button", { name: "Rename Work laptop" }).click();
  const renaming = page.getByRole("dialog", { name: "Rename passkey" });
  await renaming.getByLabel("Name").fill("Laptop (Chromium)");
  await renaming.getByRole("button", { name: "Save" }).click();
  await expect(rows.first()).toContainText("Laptop (Chromium)");
  // The full-page pictures are taken from the top, once the "Passkey added" notice has gone.
  await expect(page.getByText("Passkey added")).toBeHidden({ timeout: 15_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, "passkeys-profile-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "passkeys-profile-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sign out, then in with the passkey alone: no e-mail, no password.
  await signOut(page);
  await snap(page, "passkeys-login");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).not.toHaveURL(/\/login/);
  const signedIn = (await call(page, "GET", "/api/page-data")) as { user: { email: string } };
  expect(signedIn.user.email).toBe(email);
  const [signCount] = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.map(
    (c) => c.signCount,
  );
  expect(signCount).toBeGreaterThan(0);

  // Remove: the password again; a wrong one is refused under the field.
  await page.goto(`/users/${user.id}`);
  await expect(page.getByTestId("passkey-row").first()).toContainText("Last used");
  await page.getByRole("button", { name: "Remove Laptop (Chromium)" }).click();
  const removing = page.getByRole("dialog", { name: "Remove passkey" });
  await removing.getByLabel("Your password").fill("not-my-password");
  await removing.getByRole("button", { name: "Remove passkey" }).click();
  await expect(removing.getByText("The password is incorrect.")).toBeVisible();
  await removing.getByLabel("Your password").fill(PASSWORD);
  await removing.getByRole("button", { name: "Remove passkey" }).click();
  await expect(removing).toBeHidden();
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  await expect
    .poll(() => mailsTo(email).some((mail) => mail.includes('The passkey named "Laptop (Chromium)" was removed')))
    .toBe(true);

  // The browser still holds the credential, but the server no longer knows it: no sign-in.
  await signOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText("This passkey is not registered with any account.")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("a passkey as the second step after the password; the first passkey's recovery codes sign in once", async ({
  page,
}) => {
  await virtualAuthenticator(page);
  const email = await signUp(page, "Petra Passkey");
  const { user } = (await call(page, "GET", "/api/page-data")) as { user: { id: string } };
  await page.goto(`/users/${user.id}`);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const adding = page.getByRole("dialog", { name: "Add a passkey" });
  await adding.getByLabel("Name").fill("Desk key");
  await adding.getByRole("button", { name: "Continue" }).click();
  await expect(adding).toBeHidden();
  // No authenticator app: the first passkey comes with recovery codes, shown once.
  const shown = page.getByTestId("recovery-codes").locator("code");
  await expect(shown).toHaveCount(10);
  const recoveryCodes = await shown.allInnerTexts();
  await page.reload();
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);

  // The password, then the passkey as the second step (only this user's passkeys may answer).
  const passwordStep = async () => {
    await signOut(page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page).toHaveURL(/\/login\/two-factor$/);
  };
  await passwordStep();
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  expect(((await call(page, "GET", "/api/page-data")) as { user: { email: string } }).user.email).toBe(email);

  // A recovery code instead of the passkey, once.
  await passwordStep();
  await page.getByLabel("Code").fill(recoveryCodes[0]);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  await passwordStep();
  await page.getByLabel("Code").fill(recoveryCodes[0]);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText("The code is not valid, or it was already used.")).toBeVisible();
  await expect(page).toHaveURL(/\/login\/two-factor$/);
});

test("a company requires two-factor: a new member meets it with a passkey instead of an authenticator app", async ({
  page,
  browser,
}) => {
  // The admin's own second factor (required before requiring it): a passkey, added on the profile.
  await virtualAuthenticator(page);
  await signUp(page, "Ria Requirer");
  const { user } = (await call(page, "GET", "/api/page-data")) as { user: { id: string } };
  await page.goto(`/users/${user.id}`);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByRole("dialog", { name: "Add a passkey" }).getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  await call(page, "PUT", "/api/company/two-factor", { required: true });

  const memberEmail = uniqueEmail("passkey-member");
  await call(page, "POST", "/api/users", { name: "Pia Member", email: memberEmail, roleName: "user" });
  const link = await invitationLink(memberEmail);
  const context = await browser.newContext({ baseURL: `http://localhost:${process.env.E2E_PORT}` });
  const member = await context.newPage();
  await virtualAuthenticator(member);
  await acceptInviteHeldAtSetup(member, link);

  // The set-up page offers a passkey beside the app; adding one meets the requirement at once.
  await expect(member.getByRole("heading", { name: "Or use a passkey" })).toBeVisible();
  // The set-up page on a phone, for a person to look at.
  const desk = member.viewportSize();
  await member.setViewportSize({ width: 390, height: 844 });
  await snap(member, "two-factor-setup-passkey-390");
  if (desk) await member.setViewportSize(desk);
  await member.getByRole("button", { name: "Add a passkey" }).click();
  const adding = member.getByRole("dialog", { name: "Add a passkey" });
  await adding.getByLabel("Name").fill("Pia's phone");
  await adding.getByRole("button", { name: "Continue" }).click();
  await expect(adding).toBeHidden();
  await expect(member.getByTestId("recovery-codes").locator("code")).toHaveCount(10);
  await expect(member.getByText("Your company requires two-factor sign-in")).toBeHidden();
  await snap(member, "two-factor-setup-passkey");
  // The rest of the app opens (first the member's consents, as for any new member).
  await member.goto("/company/sources");
  await expect(member).toHaveURL(/\/users\//);
  await context.close();
});
